import { Text } from "@seed/ui";
import type { Meta, StoryObj } from "@storybook/react-vite";

const meta = {
  title: "UI/Typography/Text",
  component: Text,
  args: {
    children: "Revenue grew in every region except the north, where two stores closed.",
    size: "md",
    muted: false,
    truncate: false,
  },
  argTypes: {
    size: {
      control: "inline-radio",
      options: ["xs", "sm", "md", "lg"],
      table: { defaultValue: { summary: "md" } },
    },
    muted: { description: "Secondary colour (AA contrast)." },
    truncate: { description: "One line with an ellipsis." },
    as: { description: "Element to render.", table: { defaultValue: { summary: "p" } } },
  },
} satisfies Meta<typeof Text>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Small: Story = { args: { size: "sm" } };
export const Large: Story = { args: { size: "lg" } };
export const Muted: Story = { args: { muted: true } };

export const Truncated: Story = {
  args: { truncate: true },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: "16rem" }}>
        <Story />
      </div>
    ),
  ],
};

export const Sizes: Story = {
  render: (args) => (
    <div style={{ display: "grid", gap: "var(--seed-space-3)" }}>
      {(["xs", "sm", "md", "lg"] as const).map((size) => (
        <Text key={size} {...args} size={size}>
          {size}: {args.children}
        </Text>
      ))}
    </div>
  ),
};
