import { Card, StatTile, Text } from "@seed/ui";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, within } from "storybook/test";

const meta = {
  title: "UI/Card",
  component: Card,
  args: {
    title: "Sales by region",
    description: "Last 30 days, all channels",
    children: <Text>North 1,204 · South 980 · East 1,530 · West 1,112</Text>,
  },
  argTypes: {
    title: { description: "Heading of the card; also names the card region." },
    description: { description: "Muted line under the title." },
    actions: { control: false, description: "Controls at the end of the header." },
    titleAs: { description: "Element of the title.", table: { defaultValue: { summary: "h3" } } },
    as: { description: "Element of the card.", table: { defaultValue: { summary: "section" } } },
    children: { control: false, description: "Body." },
  },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: "36rem" }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof Card>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole("region", { name: "Sales by region" });
    await expect(card).toHaveTextContent("Last 30 days, all channels");
  },
};

export const WithActions: Story = {
  args: {
    actions: (
      <a href="#export" style={{ color: "var(--seed-color-accent)" }}>
        Export
      </a>
    ),
  },
};

export const BodyOnly: Story = {
  args: { title: undefined, description: undefined, as: "div" },
};

export const WithStatTiles: Story = {
  args: {
    title: "This month",
    description: undefined,
    children: (
      <div style={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: "var(--seed-space-4)" }}>
        <StatTile label="Orders" value={1284} delta={0.082} icon="shopping-cart" />
        <StatTile label="Open bugs" value={17} delta={-0.15} icon="bug" />
      </div>
    ),
  },
};
