import { iconNames, StatTile } from "@seed/ui";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, within } from "storybook/test";

const meta = {
  title: "UI/StatTile",
  component: StatTile,
  args: {
    label: "Revenue",
    value: 48213.5,
    format: { style: "currency", currency: "USD", maximumFractionDigits: 0 },
    locale: "en-US",
    delta: 0.124,
    deltaLabel: "vs last month",
    icon: "crown",
    loading: false,
  },
  argTypes: {
    label: { description: "What the figure is." },
    value: {
      description: "The figure; null (or NaN/Infinity) shows an em dash read as “no data”.",
      table: { type: { summary: "number | null" } },
    },
    format: {
      description: "Intl.NumberFormat options; invalid options fall back to plain numbers.",
      table: { type: { summary: "Intl.NumberFormatOptions" } },
    },
    locale: {
      description: "BCP 47 locale for value and delta.",
      table: { defaultValue: { summary: "en-US" } },
    },
    delta: {
      control: { type: "number", step: 0.01 },
      description: "Change as a fraction: -0.12 shows -12% with an arrow-down.",
    },
    deltaLabel: { description: "What the change compares with, e.g. “vs last month”." },
    icon: {
      control: "select",
      options: [undefined, ...iconNames],
      description: "Decorative icon before the label.",
      table: { type: { summary: "IconName" } },
    },
    loading: {
      description: "Skeleton instead of value and delta; aria-busy.",
      table: { defaultValue: { summary: "false" } },
    },
    status: {
      description:
        "How the value stands against a target: colours the value and adds an icon and words (never colour alone).",
      table: { type: { summary: '{ tone: "good" | "warning" | "bad"; label: string }' } },
    },
  },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: "20rem" }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof StatTile>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Rising: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("$48,214")).toBeVisible();
    await expect(canvas.getByText("+12.4%")).toBeVisible();
    await expect(canvasElement.querySelector("[data-trend='up']")).not.toBeNull();
  },
};

export const Falling: Story = {
  args: { label: "Orders", value: 1180, format: undefined, delta: -0.083, icon: "shopping-cart" },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("-8.3%")).toBeVisible();
    await expect(canvasElement.querySelector("[data-seed-icon='arrow-down']")).not.toBeNull();
  },
};

export const BelowTarget: Story = {
  args: { status: { tone: "bad", label: "below target" } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("below target")).toBeVisible();
    await expect(canvasElement.querySelector("[data-tone='bad']")).not.toBeNull();
  },
};

export const NearTarget: Story = {
  args: { status: { tone: "warning", label: "close to target" }, delta: undefined },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("close to target")).toBeVisible();
  },
};

export const OnTarget: Story = {
  args: { status: { tone: "good", label: "at or above target" } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("at or above target")).toBeVisible();
    await expect(canvasElement.querySelector("[data-tone='good']")).not.toBeNull();
  },
};

export const Loading: Story = {
  args: { loading: true },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector("[aria-busy='true']")).not.toBeNull();
  },
};

export const NoValue: Story = {
  args: { label: "Churn", value: null, delta: undefined, icon: "circle-x" },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("no data")).toBeInTheDocument();
  },
};

export const NoRowsInPeriod: Story = {
  name: "No value, with the reason",
  args: {
    label: "Revenue, last 30 days",
    value: null,
    delta: undefined,
    emptyReason: "No rows in the last 30 days (2030-05-17 to 2030-06-15).",
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText(/No rows in the last 30 days/)).toBeVisible();
  },
};

export const GermanCurrency: Story = {
  name: "de-DE currency",
  args: {
    label: "Umsatz",
    locale: "de-DE",
    format: { style: "currency", currency: "EUR" },
    value: 1234567.89,
    delta: -0.021,
    deltaLabel: "ggü. Vormonat",
  },
};

export const Unchanged: Story = {
  args: { label: "Active users", value: 3120, format: undefined, delta: 0, icon: "thumbs-up" },
};
