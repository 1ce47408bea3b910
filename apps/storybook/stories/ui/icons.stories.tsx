import { Icon, iconNames, Text } from "@seed/ui";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, within } from "storybook/test";

const meta = {
  title: "UI/Icons",
  component: Icon,
  args: { name: "crown", size: 24, strokeWidth: 2 },
  argTypes: {
    name: { control: "select", options: iconNames, table: { type: { summary: "IconName" } } },
    size: {
      control: { type: "range", min: 12, max: 96, step: 4 },
      description: "Width and height; a number is pixels.",
      table: { defaultValue: { summary: "24" } },
    },
    strokeWidth: {
      control: { type: "range", min: 0.5, max: 3, step: 0.25 },
      description: "Outline icons only; GitHub and Instagram are filled.",
      table: { defaultValue: { summary: "2" } },
    },
    label: {
      control: "text",
      description: "Accessible name: makes the icon role=img. Without it the icon is aria-hidden.",
    },
  },
  parameters: {
    docs: {
      description: {
        component:
          "Seventeen icons with one API: lucide-react outlines plus the GitHub and Instagram brand marks. Colour follows `currentColor`; without `label` an icon is hidden from assistive technology.",
      },
    },
  },
} satisfies Meta<typeof Icon>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Gallery: Story = {
  render: (args) => (
    <ul
      style={{
        display: "grid",
        gridTemplateColumns: "repeat(auto-fill, minmax(9rem, 1fr))",
        gap: "var(--seed-space-4)",
        padding: 0,
        margin: 0,
        listStyle: "none",
      }}
    >
      {iconNames.map((name) => (
        <li
          key={name}
          style={{
            display: "flex",
            flexDirection: "column",
            alignItems: "center",
            gap: "var(--seed-space-2)",
            padding: "var(--seed-space-4)",
            border: "1px solid var(--seed-color-border)",
            borderRadius: "var(--seed-radius-md)",
          }}
        >
          <Icon {...args} name={name} />
          <Text as="code" size="xs">
            {name}
          </Text>
        </li>
      ))}
    </ul>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getAllByRole("listitem")).toHaveLength(17);
    await expect(canvasElement.querySelectorAll("svg[aria-hidden='true']")).toHaveLength(17);
  },
};

export const Labelled: Story = {
  args: { name: "database", label: "Database", size: 32 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole("img", { name: "Database" })).toBeVisible();
  },
};

export const Large: Story = { args: { name: "crown", size: 64, strokeWidth: 1.5 } };

export const Crown: Story = { args: { name: "crown" } };
export const Folder: Story = { args: { name: "folder" } };
export const Building: Story = { args: { name: "building" } };
export const Handshake: Story = { args: { name: "handshake" } };
export const ShoppingCart: Story = { args: { name: "shopping-cart" } };
export const CirclePlay: Story = { args: { name: "circle-play" } };
export const Bug: Story = { args: { name: "bug" } };
export const Database: Story = { args: { name: "database" } };
export const Bookmark: Story = { args: { name: "bookmark" } };
export const HeartHandshake: Story = { args: { name: "heart-handshake" } };
export const MessageSquareReply: Story = { args: { name: "message-square-reply" } };
export const Github: Story = { args: { name: "github" } };
export const ArrowDown: Story = { args: { name: "arrow-down" } };
export const CircleX: Story = { args: { name: "circle-x" } };
export const Grid: Story = { args: { name: "grid" } };
export const ThumbsUp: Story = { args: { name: "thumbs-up" } };
export const Instagram: Story = { args: { name: "instagram" } };
