import { Heading } from "@seed/ui";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, within } from "storybook/test";

const meta = {
  title: "UI/Typography/Heading",
  component: Heading,
  args: { level: 1, children: "Quarterly revenue" },
  argTypes: {
    level: {
      control: "inline-radio",
      options: [1, 2, 3, 4],
      description: "Size on the type scale, and the element h1-h4 unless `as` is given.",
    },
    as: {
      control: "select",
      options: [undefined, "h1", "h2", "h3", "h4", "p"],
      description: "Element to render, to keep the document outline right.",
    },
  },
} satisfies Meta<typeof Heading>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Level1: Story = {};
export const Level2: Story = { args: { level: 2 } };
export const Level3: Story = { args: { level: 3 } };
export const Level4: Story = { args: { level: 4 } };

export const AllLevels: Story = {
  render: () => (
    <div style={{ display: "grid", gap: "var(--seed-space-4)" }}>
      <Heading level={1}>Heading level 1</Heading>
      <Heading level={2}>Heading level 2</Heading>
      <Heading level={3}>Heading level 3</Heading>
      <Heading level={4}>Heading level 4</Heading>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    for (const level of [1, 2, 3, 4]) {
      await expect(canvas.getByRole("heading", { level })).toHaveTextContent(
        `Heading level ${level}`,
      );
    }
  },
};

export const VisualLevelOnAnotherElement: Story = {
  name: "Level 1 look on an h2",
  args: { level: 1, as: "h2", children: "Styled as 1, outlined as 2" },
};
