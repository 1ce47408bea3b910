import { LineChart } from "@seed/charts";
import "@seed/charts/styles.css";
import { type ChartSvgOptions, chartSvg } from "@seed/charts/svg";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, waitFor, within } from "storybook/test";
import { browserShare, dailyTraffic, monthlySales, regionSales } from "./data";

// Issue 27: charts drawn on the server, as the SVG a page's HTML holds before any script runs
// (chartSvg from @seed/charts/svg), in the kit's themes.

function ServerDrawing(props: { options: ChartSvgOptions }) {
  return (
    <figure className="seed-chart" aria-label="Server drawing">
      <div className="seed-chart-plot" style={{ height: props.options.height }}>
        <div
          className="seed-chart-fallback"
          dangerouslySetInnerHTML={{ __html: chartSvg(props.options) }}
        />
      </div>
    </figure>
  );
}

const meta = {
  title: "Charts/Server SVG",
  component: ServerDrawing,
  args: {
    options: {
      type: "line",
      data: monthlySales(),
      index: "month",
      series: ["revenue", "cost"],
      width: 640,
      height: 280,
      locale: "en-US",
    },
  },
  play: async ({ canvasElement }) => {
    const svg = canvasElement.querySelector("svg.seed-chart-svg");
    await expect(svg).not.toBeNull();
    await expect(svg?.querySelectorAll("path, rect").length ?? 0).toBeGreaterThan(0);
  },
} satisfies Meta<typeof ServerDrawing>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Line: Story = {};

export const AreaStacked: Story = {
  args: {
    options: {
      type: "area",
      data: dailyTraffic(60),
      index: "day",
      series: ["web", "ios", "android"],
      stack: "stacked",
      width: 640,
      height: 280,
      locale: "en-US",
    },
  },
};

export const BarHorizontal: Story = {
  args: {
    options: {
      type: "bar",
      data: regionSales(),
      index: "region",
      series: ["online", "retail", "partners"],
      horizontal: true,
      width: 640,
      height: 280,
      locale: "en-US",
    },
  },
};

export const Donut: Story = {
  args: {
    options: {
      type: "pie",
      data: browserShare(),
      index: "browser",
      value: "visits",
      variant: "donut",
      width: 320,
      height: 240,
    },
  },
};

export const Empty: Story = {
  args: {
    options: {
      type: "bar",
      data: [],
      index: "region",
      series: ["online"],
      width: 640,
      height: 200,
    },
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("No data to display")).toBeInTheDocument();
  },
};

/** The interactive chart with its server drawing as `fallback`: the drawing is hidden once the chart draws. */
export const AsFallback: StoryObj<typeof LineChart> = {
  render: () => {
    const data = monthlySales();
    const svg = chartSvg({
      type: "line",
      data,
      index: "month",
      series: ["revenue", "cost"],
      width: 640,
      height: 280,
      locale: "en-US",
    });
    return (
      <LineChart
        data={data}
        index="month"
        series={["revenue", "cost"]}
        height={280}
        locale="en-US"
        title="Revenue and cost per month"
        fallback={<div className="seed-chart-fallback" dangerouslySetInnerHTML={{ __html: svg }} />}
      />
    );
  },
  play: async ({ canvasElement }) => {
    const fallback = canvasElement.querySelector<HTMLElement>(".seed-chart-fallback");
    await expect(fallback).not.toBeNull();
    await waitFor(() => expect(canvasElement.querySelector(".recharts-surface")).not.toBeNull());
    await expect(getComputedStyle(fallback as HTMLElement).display).toBe("none");
  },
};
