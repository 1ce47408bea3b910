import { AreaChart } from "@seed/charts";
import "@seed/charts/styles.css";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, within } from "storybook/test";
import { dailyTraffic, sensorColumns, sensorSeries, type TrafficRow } from "./data";
import { arrowThroughPoints, hoverPlot, toggleLegendItem } from "./play-helpers";

const meta = {
  title: "Charts/AreaChart",
  component: AreaChart<TrafficRow>,
  args: {
    data: dailyTraffic(),
    index: "day",
    series: [
      { key: "web", label: "Web" },
      { key: "ios", label: "iOS" },
      { key: "android", label: "Android" },
    ],
    title: "Daily visitors by platform",
    locale: "en-US",
  },
  argTypes: {
    stack: { control: "inline-radio", options: ["none", "stacked", "percent"] },
    curve: { control: "select", options: ["linear", "monotone", "natural", "step"] },
    data: { control: false },
  },
} satisfies Meta<typeof AreaChart<TrafficRow>>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const tooltip = await hoverPlot(canvasElement, 0.5);
    await expect(tooltip).toHaveTextContent(/Web/);
  },
};

export const Stacked: Story = {
  args: { stack: "stacked" },
  play: async ({ canvasElement }) => {
    await toggleLegendItem(canvasElement, "iOS", ".recharts-area-area");
  },
};

export const PercentStacked: Story = {
  args: { stack: "percent" },
  play: async ({ canvasElement }) => {
    const ticks = Array.from(
      canvasElement.querySelectorAll(
        ".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value",
      ),
    ).map((n) => n.textContent);
    await expect(ticks).toContain("100%");
  },
};

export const FlatFill: Story = { args: { gradient: false, curve: "linear" } };

export const KeyboardNavigation: Story = {
  play: async ({ canvasElement }) => {
    await arrowThroughPoints(canvasElement);
  },
};

export const Empty: Story = {
  args: { data: [], emptyMessage: "No visitors in this period" },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("No visitors in this period")).toBeInTheDocument();
  },
};

export const Loading: Story = { args: { loading: true } };

export const LargeData100k = {
  render: () => (
    <AreaChart
      data={sensorSeries(100_000)}
      index="t"
      series={["b"]}
      title="One sensor, 100,000 readings"
    />
  ),
  play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    await hoverPlot(canvasElement, 0.4);
  },
} satisfies StoryObj;

/** Columns of Float64Arrays instead of rows, stacked. */
export const TypedArrayColumns = {
  render: () => (
    <AreaChart<{ time: number; cpu: number; memory: number }>
      data={sensorColumns(200_000)}
      index="time"
      indexType="time"
      series={["cpu", "memory"]}
      stack="stacked"
      title="Two sensors, 200,000 readings each, stacked, from typed arrays"
    />
  ),
  play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    await hoverPlot(canvasElement, 0.3);
  },
} satisfies StoryObj;
