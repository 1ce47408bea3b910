import { ComboChart } from "@seed/charts/combo-chart";
import "@seed/charts/styles.css";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, waitFor } from "storybook/test";
import { monthlySales, type SalesRow } from "./data";
import { arrowThroughPoints, hoverPlot, toggleLegendItem } from "./play-helpers";

interface MarginRow extends SalesRow {
  margin: number;
}

const WAIT = { timeout: 5000 };
const usd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });

function withMargin(): MarginRow[] {
  return monthlySales().map((row) => ({ ...row, margin: row.profit / row.revenue }));
}

/** Tick labels of each value axis, left then right. */
function valueTicks(canvasElement: HTMLElement): string[][] {
  return Array.from(canvasElement.querySelectorAll(".recharts-yAxis-tick-labels"), (axis) =>
    Array.from(axis.querySelectorAll(".recharts-cartesian-axis-tick-value"), (tick) =>
      (tick.textContent ?? "").trim(),
    ),
  );
}

const meta = {
  title: "Charts/ComboChart",
  component: ComboChart<MarginRow>,
  args: {
    data: withMargin(),
    index: "month",
    series: [
      { key: "revenue", label: "Revenue" },
      { key: "cost", label: "Cost", type: "bar" },
      {
        key: "margin",
        label: "Margin",
        type: "line",
        axis: "right",
        formatter: (v: number) => percent.format(v),
      },
    ],
    title: "Revenue, cost and margin by month",
    locale: "en-US",
    // the left axis and its series in dollars; the margin's own formatter writes its axis too
    valueFormatter: (v: number) => usd.format(v),
    yAxis: { label: "US dollars" },
    y2Axis: { label: "Margin" },
  },
  argTypes: { data: { control: false } },
} satisfies Meta<typeof ComboChart<MarginRow>>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Revenue and cost as bars on the left axis in dollars, the margin as a line on a second axis on
 * the right, in percent: the tooltip and the data table give each in its own format.
 */
export const BarsAndALineOnTwoAxes: Story = {
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(valueTicks(canvasElement)).toHaveLength(2), WAIT);
    const [left = [], right = []] = valueTicks(canvasElement);
    await expect(left.every((tick) => tick.startsWith("$"))).toBe(true);
    await expect(right.every((tick) => tick.endsWith("%"))).toBe(true);
    const tooltip = await hoverPlot(canvasElement, 0.5);
    await expect(tooltip).toHaveTextContent(/Revenue\$[\d,]+/);
    await expect(tooltip).toHaveTextContent(/Margin[\d.]+%/);
  },
};

/** Hiding the margin takes its axis away; showing it brings the axis back. */
export const LegendHidesASeriesAndItsAxis: Story = {
  play: async ({ canvasElement }) => {
    await toggleLegendItem(canvasElement, "Margin", ".recharts-line-curve");
    await waitFor(() => expect(valueTicks(canvasElement)).toHaveLength(2), WAIT);
  },
};

/** Bars and a line on one shared axis: no second axis is drawn. */
export const OneAxis: Story = {
  args: {
    series: [
      { key: "revenue", label: "Revenue" },
      { key: "cost", label: "Cost", type: "line" },
    ],
    y2Axis: undefined,
  },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(valueTicks(canvasElement)).toHaveLength(1), WAIT);
  },
};

export const KeyboardNavigation: Story = {
  play: async ({ canvasElement }) => {
    await arrowThroughPoints(canvasElement);
  },
};

export const Empty: Story = { args: { data: [] } };
