import { LineChart } from "@seed/charts";
import "@seed/charts/styles.css";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, waitFor, within } from "storybook/test";
import {
  badRows,
  censusPopulation,
  gappyReadings,
  monthlySales,
  type SalesRow,
  sensorColumns,
  sensorSeries,
} from "./data";
import { arrowThroughPoints, hoverPlot, toggleLegendItem } from "./play-helpers";

const meta = {
  title: "Charts/LineChart",
  component: LineChart<SalesRow>,
  args: {
    data: monthlySales(),
    index: "month",
    series: ["revenue", { key: "cost", label: "Cost" }],
    title: "Revenue and cost per month",
    height: 300,
    locale: "en-US",
  },
  argTypes: {
    curve: {
      control: "select",
      options: ["linear", "monotone", "natural", "step", "stepBefore", "stepAfter"],
    },
    grid: { control: "inline-radio", options: ["horizontal", "vertical", "both", "none"] },
    legend: { control: "inline-radio", options: ["top", "bottom", "left", "right", false] },
    downsample: { control: "inline-radio", options: ["minmax-lttb", "lttb", "min-max", "none"] },
    data: { control: false },
    series: { control: "object" },
  },
} satisfies Meta<typeof LineChart<SalesRow>>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const tooltip = await hoverPlot(canvasElement, 0.5);
    await expect(tooltip).toHaveTextContent(/revenue/);
    await expect(tooltip).toHaveTextContent(/Cost/);
  },
};

export const LegendToggle: Story = {
  play: async ({ canvasElement }) => {
    await toggleLegendItem(canvasElement, "Cost", ".recharts-line-curve");
  },
};

export const KeyboardNavigation: Story = {
  play: async ({ canvasElement }) => {
    await arrowThroughPoints(canvasElement);
  },
};

export const Curves: Story = {
  args: { curve: "step", series: ["revenue", "cost", "profit"] },
};

export const LinearWithDots: Story = {
  args: { curve: "linear", dots: true },
};

export const BreaksAtNulls = {
  render: () => (
    <LineChart
      data={gappyReadings()}
      index="day"
      series={[{ key: "temperature", label: "Temperature", formatter: (v) => `${v} °C` }]}
      title="Temperature with a sensor outage"
    />
  ),
  play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const path = canvasElement.querySelector(".recharts-line-curve")?.getAttribute("d") ?? "";
    await expect(path.match(/M/g)?.length).toBe(2);
  },
} satisfies StoryObj;

export const ConnectsNulls = {
  render: () => (
    <LineChart
      data={gappyReadings()}
      index="day"
      series={[{ key: "temperature", label: "Temperature" }]}
      title="Temperature, gaps bridged"
      connectNulls
    />
  ),
} satisfies StoryObj;

export const AxesAndGrid: Story = {
  args: {
    grid: "both",
    xAxis: { label: "Month" },
    yAxis: {
      label: "US dollars",
      min: 0,
      max: 10000,
      tickFormatter: (v) => `$${Number(v) / 1000}k`,
    },
  },
};

/** Years on a number x: `numberFormat: { useGrouping: false }` writes 1900, not 1,900. */
export const YearsWithoutGrouping = {
  render: () => (
    <LineChart
      data={censusPopulation()}
      index="year"
      indexLabel="Census year"
      series={[{ key: "people", label: "People", formatter: (v) => `${v} million` }]}
      title="US population by census year"
      locale="en-US"
      xAxis={{ numberFormat: { useGrouping: false } }}
    />
  ),
  play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const ticks = () =>
      [
        ...canvasElement.querySelectorAll(
          ".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value",
        ),
      ].map((tick) => tick.textContent ?? "");
    await waitFor(() => expect(ticks()).toContain("1900"));
    for (const tick of ticks()) await expect(tick).toMatch(/^\d{4}$/);
    const table = within(canvasElement).getByRole("table", { hidden: true });
    await expect(
      within(table).getByRole("rowheader", { name: "2020", hidden: true }),
    ).toBeInTheDocument();
    const tooltip = await hoverPlot(canvasElement, 0.5);
    await expect(tooltip).toHaveTextContent(/^\d{4}People/);
  },
} satisfies StoryObj;

export const HiddenAxes: Story = {
  args: { xAxis: { show: false }, yAxis: { show: false }, grid: "none" },
};

export const LegendTop: Story = { args: { legend: "top" } };
export const LegendRight: Story = { args: { legend: "right" } };
export const LegendLeft: Story = { args: { legend: "left" } };
export const NoLegend: Story = { args: { legend: false } };

export const LongLegend: Story = {
  args: {
    series: [
      { key: "revenue", label: "Revenue from annual enterprise subscriptions" },
      { key: "cost", label: "Cost of goods sold including logistics" },
      { key: "profit", label: "Gross profit" },
    ],
  },
  play: async ({ canvasElement }) => {
    const tooltips = within(canvasElement).getAllByRole("tooltip", { hidden: true });
    await expect(tooltips[0]).toHaveTextContent("Revenue from annual enterprise subscriptions");
  },
};

export const CustomTooltip: Story = {
  args: {
    tooltip: ({ row, label }) => (
      <div className="seed-chart-tooltip">
        <strong>{label}</strong>
        <div>Margin {Math.round((row.profit / row.revenue) * 100)}%</div>
      </div>
    ),
  },
  play: async ({ canvasElement }) => {
    const tooltip = await hoverPlot(canvasElement, 0.3);
    await expect(tooltip).toHaveTextContent(/Margin \d+%/);
  },
};

export const GermanLocale: Story = {
  args: { locale: "de-DE", valueFormatter: (v) => `${v.toLocaleString("de-DE")} €` },
};

export const JapaneseLocale: Story = { args: { locale: "ja-JP" } };

export const Empty: Story = {
  args: { data: [] },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("No data to display")).toBeInTheDocument();
  },
};

export const Loading: Story = {
  args: { loading: true },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector(".seed-chart-skeleton")).toBeInTheDocument();
  },
};

export const BadData = {
  render: () => (
    <LineChart
      data={badRows()}
      index="month"
      series={["revenue", "cost"]}
      title="Chart drawn from rows with invalid values"
    />
  ),
  play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    await expect(within(canvasElement).getByRole("application")).toBeInTheDocument();
  },
} satisfies StoryObj;

export const LargeData100k = {
  render: () => (
    <LineChart
      data={sensorSeries(100_000)}
      index="t"
      series={["a", "b", "c"]}
      title="Three sensors, 100,000 readings each"
      timeZone="UTC"
    />
  ),
  play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const table = within(canvasElement).getByRole("table", { hidden: true });
    await waitFor(() =>
      expect(within(table).getAllByRole("row", { hidden: true }).length).toBeLessThan(4000),
    );
    await hoverPlot(canvasElement, 0.6);
  },
} satisfies StoryObj;

/** A million points per series as Float64Array columns: no row objects, same downsampling. */
export const TypedArrays1M = {
  render: () => (
    <LineChart<{ time: number; cpu: number; memory: number }>
      data={sensorColumns(1_000_000)}
      index="time"
      indexType="time"
      series={[
        { key: "cpu", label: "CPU" },
        { key: "memory", label: "Memory" },
      ]}
      title="Two sensors, 1,000,000 readings each, from typed arrays"
      animate={false}
    />
  ),
  play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const table = within(canvasElement).getByRole("table", { hidden: true });
    // about one drawn point per pixel, the table shortened to about 200 of them
    await waitFor(() =>
      expect(table.querySelector("caption")?.textContent).toMatch(/\(\d+ of \d+ drawn points/),
    );
    const tooltip = await hoverPlot(canvasElement, 0.6);
    await expect(tooltip).toHaveTextContent(/CPU/);
  },
} satisfies StoryObj;

export const MinMaxDownsampling = {
  render: () => (
    <LineChart
      data={sensorSeries(50_000)}
      index="t"
      series={["a"]}
      downsample="min-max"
      title="One sensor, min-max downsampled"
    />
  ),
} satisfies StoryObj;

/** Every 10 minutes over a day from `start` (UTC ms), as ISO instants. */
function readingsEvery10Minutes(start: number) {
  return Array.from({ length: 144 }, (_, i) => ({
    at: new Date(start + i * 600_000).toISOString(),
    load: 40 + 20 * Math.sin(i / 12),
  }));
}

/** Time ticks in the chart's zone: round hours in Kolkata (UTC+5:30), German day labels in Berlin across the spring DST change. */
export const TimeZonesAndLocales = {
  render: () => (
    <div style={{ display: "grid", gap: 16 }}>
      <div data-zone="kolkata">
        <LineChart
          data={readingsEvery10Minutes(Date.UTC(2024, 2, 1))}
          index="at"
          series={[{ key: "load", label: "Load" }]}
          title="Load in Kolkata"
          locale="en-GB"
          timeZone="Asia/Kolkata"
          height={200}
          animate={false}
        />
      </div>
      <div data-zone="berlin">
        <LineChart
          data={Array.from({ length: 10 }, (_, day) => ({
            day: new Date(Date.UTC(2024, 2, 26 + day, 6)).toISOString(),
            visits: 100 + day * 7,
          }))}
          index="day"
          series={[{ key: "visits", label: "Besuche" }]}
          title="Besuche in Berlin"
          locale="de-DE"
          timeZone="Europe/Berlin"
          height={200}
          animate={false}
        />
      </div>
    </div>
  ),
  play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const ticks = (zone: string) =>
      [
        ...canvasElement.querySelectorAll(
          `[data-zone=${zone}] .recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value`,
        ),
      ].map((tick) => tick.textContent ?? "");
    await waitFor(() => expect(ticks("kolkata").length).toBeGreaterThan(2));
    for (const tick of ticks("kolkata")) await expect(tick).toMatch(/^\d\d:00$/);
    await waitFor(() => expect(ticks("berlin").length).toBeGreaterThan(2));
    for (const tick of ticks("berlin")) await expect(tick).toMatch(/^\d{1,2}\. (März|Apr\.)$/);
  },
} satisfies StoryObj;
