import { AreaChart, LineChart } from "@seed/charts";
import { exportChartCsv } from "@seed/charts/export";
import { BrushZoom } from "@seed/charts/zoom";
import "@seed/charts/styles.css";
import type { StoryObj } from "@storybook/react-vite";
import { expect, fireEvent, userEvent, waitFor, within } from "storybook/test";
import { dailyTraffic, sensorColumns, sensorSeries } from "./data";
import { SalesLineChart } from "./sales-chart";

const meta = { title: "Charts/Interactions" };
export default meta;

const WAIT = { timeout: 5000 };

function plotPoint(canvasElement: HTMLElement, fraction: number) {
  const wrapper = canvasElement.querySelector(".recharts-wrapper") as HTMLElement;
  const box = wrapper.getBoundingClientRect();
  return { wrapper, clientX: box.left + box.width * fraction, clientY: box.top + box.height / 2 };
}

function tooltipShown(canvasElement: HTMLElement): boolean {
  const tooltip = canvasElement.querySelector(".seed-chart-tooltip");
  return tooltip !== null && getComputedStyle(tooltip).visibility !== "hidden";
}

/** The pointer comes from outside the chart straight onto the plot: the first tooltip shows at once. */
export const FirstHoverFromOutside: StoryObj = {
  render: () => <SalesLineChart />,
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelector(".recharts-wrapper")).not.toBeNull(),
      WAIT,
    );
    const { wrapper, clientX, clientY } = plotPoint(canvasElement, 0.4);
    await userEvent.pointer({ target: document.body, coords: { clientX: 1, clientY: 1 } });
    await userEvent.pointer({ target: wrapper, coords: { clientX, clientY } });
    await waitFor(() => expect(tooltipShown(canvasElement)).toBe(true), WAIT);
    await expect(canvasElement.querySelector(".recharts-tooltip-cursor")).not.toBeNull();
  },
};

/** A chart running past the window's right edge: its tooltip flips or shifts back inside. */
export const TooltipStaysInViewport: StoryObj = {
  render: () => (
    <div style={{ overflow: "hidden" }}>
      <div style={{ marginLeft: "calc(100vw - 360px)", width: 640 }}>
        <SalesLineChart width={640} />
      </div>
    </div>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelector(".recharts-wrapper")).not.toBeNull(),
      WAIT,
    );
    const wrapper = canvasElement.querySelector(".recharts-wrapper") as HTMLElement;
    const box = wrapper.getBoundingClientRect();
    const viewport = document.documentElement.clientWidth;
    // the last visible pixels of the plot, next to the window's edge
    fireEvent.mouseMove(wrapper, { clientX: viewport - 12, clientY: box.top + box.height / 2 });
    await waitFor(() => expect(tooltipShown(canvasElement)).toBe(true), WAIT);
    const tooltip = canvasElement.querySelector(".seed-chart-tooltip") as HTMLElement;
    await waitFor(() => {
      const rect = tooltip.getBoundingClientRect();
      expect(rect.right).toBeLessThanOrEqual(viewport);
      expect(rect.left).toBeGreaterThanOrEqual(0);
    }, WAIT);
  },
};

/** What a browser sends for a tap: pointer and touch events, then compatibility mouse events. */
function tap(target: Element, clientX: number, clientY: number) {
  const at = { clientX, clientY, bubbles: true };
  fireEvent.pointerDown(target, { ...at, pointerType: "touch", isPrimary: true });
  fireEvent.pointerUp(target, { ...at, pointerType: "touch", isPrimary: true });
  fireEvent.mouseMove(target, at);
  fireEvent.mouseDown(target, at);
  fireEvent.mouseUp(target, at);
  fireEvent.click(target, at);
}

/** Touch: a tap on the plot shows the tooltip, a tap elsewhere hides it, a tap back shows it again. */
export const TouchTooltip: StoryObj = {
  render: () => (
    <div>
      <SalesLineChart />
      <p>Tap outside the chart to close its tooltip.</p>
    </div>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelector(".recharts-wrapper")).not.toBeNull(),
      WAIT,
    );
    const { wrapper, clientX, clientY } = plotPoint(canvasElement, 0.5);
    tap(wrapper, clientX, clientY);
    await waitFor(() => expect(tooltipShown(canvasElement)).toBe(true), WAIT);

    const outside = within(canvasElement).getByText(/Tap outside/);
    const box = outside.getBoundingClientRect();
    tap(outside, box.left + 4, box.top + 4);
    await waitFor(() => expect(tooltipShown(canvasElement)).toBe(false), WAIT);

    tap(wrapper, clientX, clientY);
    await waitFor(() => expect(tooltipShown(canvasElement)).toBe(true), WAIT);
  },
};

type ManyRow = { day: string } & Record<string, number | string>;

function manySeries(count: number): { rows: ManyRow[]; keys: string[] } {
  const keys = Array.from({ length: count }, (_, i) => `region${i + 1}`);
  const rows = dailyTraffic(20).map((row, day) => {
    const out: ManyRow = { day: row.day };
    keys.forEach((key, i) => {
      out[key] = 100 + ((day * 7 + i * 13) % 50) + i * 5;
    });
    return out;
  });
  return { rows, keys };
}

/** 24 series: the legend shows eight and a "+16 more" button; unfolded it scrolls, never overflows. */
export const ManySeriesLegend: StoryObj = {
  render: () => {
    const { rows, keys } = manySeries(24);
    return (
      <LineChart
        data={rows}
        index="day"
        series={keys.map((key, i) => ({ key, label: `Region ${i + 1}` }))}
        title="Visits in 24 regions"
        locale="en-US"
        height={240}
        animate={false}
      />
    );
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const more = await canvas.findByRole("button", { name: "+16 more" });
    await expect(canvas.queryByRole("button", { name: "Region 9" })).toBeNull();
    more.focus();
    await userEvent.keyboard("{Enter}");
    await expect(canvas.getByRole("button", { name: "Region 24" })).toBeInTheDocument();
    await expect(canvas.getByRole("button", { name: "Show fewer" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    const legend = canvasElement.querySelector(".seed-chart-legend") as HTMLElement;
    const figure = canvasElement.querySelector(".seed-chart") as HTMLElement;
    await expect(legend.scrollWidth).toBeLessThanOrEqual(legend.clientWidth);
    await expect(legend.getBoundingClientRect().bottom).toBeLessThanOrEqual(
      figure.getBoundingClientRect().bottom,
    );
  },
};

/** 60 series with long names in a 320 px chart, legend on the right then on top: nothing leaves the chart. */
export const ManySeriesLegendNarrow: StoryObj = {
  render: () => {
    const { rows, keys } = manySeries(60);
    const series = keys.map((key, i) => ({
      key,
      label: `Region ${i + 1} with a rather long name for a legend`,
    }));
    return (
      <div style={{ width: 320, display: "grid", gap: 16 }}>
        {(["right", "top"] as const).map((legend) => (
          <LineChart
            key={legend}
            data={rows}
            index="day"
            series={series}
            title={`Visits in 60 regions, legend ${legend}`}
            locale="en-US"
            height={200}
            legend={legend}
            animate={false}
          />
        ))}
      </div>
    );
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const buttons = await canvas.findAllByRole("button", { name: "+52 more" });
    await expect(buttons).toHaveLength(2);
    for (const more of buttons) await userEvent.click(more);
    await expect(canvas.getAllByRole("button", { name: "Show fewer" })).toHaveLength(2);
    for (const figure of canvasElement.querySelectorAll<HTMLElement>(".seed-chart")) {
      const legend = figure.querySelector(".seed-chart-legend") as HTMLElement;
      const box = figure.getBoundingClientRect();
      const legendBox = legend.getBoundingClientRect();
      // the unfolded legend scrolls inside the chart instead of growing past it
      await expect(legend.scrollHeight).toBeGreaterThan(legend.clientHeight);
      await expect(legend.scrollWidth).toBeLessThanOrEqual(legend.clientWidth);
      await expect(figure.scrollWidth).toBeLessThanOrEqual(figure.clientWidth);
      await expect(legendBox.left).toBeGreaterThanOrEqual(box.left);
      await expect(legendBox.right).toBeLessThanOrEqual(box.right + 0.5);
      await expect(legendBox.bottom).toBeLessThanOrEqual(box.bottom + 0.5);
      // the plot keeps a usable width beside a side legend
      const plot = figure.querySelector(".seed-chart-plot") as HTMLElement;
      await expect(plot.getBoundingClientRect().width).toBeGreaterThan(100);
    }
  },
};

/** First and last x the chart draws (its CSV export), as numbers. */
function drawnSpan(canvasElement: HTMLElement): number {
  const lines = exportChartCsv(canvasElement.querySelector(".seed-chart") as HTMLElement)
    .split("\r\n")
    .filter((line) => line !== "");
  const first = Date.parse(lines[1]?.split(",")[0] ?? "");
  const last = Date.parse(lines[lines.length - 1]?.split(",")[0] ?? "");
  return last - first;
}

/** Drag across 200,000 points to zoom (drawn again at full detail), Reset zoom, and + / - / 0 keys. */
export const BrushZoomAndReset: StoryObj = {
  render: () => (
    <LineChart<{ time: number; cpu: number; memory: number }>
      data={sensorColumns(200_000)}
      index="time"
      indexType="time"
      series={[
        { key: "cpu", label: "CPU" },
        { key: "memory", label: "Memory" },
      ]}
      title="Two sensors: drag across the plot to zoom"
      locale="en-US"
      height={260}
      animate={false}
      zoom={BrushZoom}
    />
  ),
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelector(".recharts-line-curve")).not.toBeNull(),
      WAIT,
    );
    const full = drawnSpan(canvasElement);
    const from = plotPoint(canvasElement, 0.3);
    const to = plotPoint(canvasElement, 0.5);
    fireEvent.pointerDown(from.wrapper, { clientX: from.clientX, clientY: from.clientY });
    fireEvent.pointerMove(window, { clientX: to.clientX, clientY: to.clientY });
    fireEvent.pointerUp(window, { clientX: to.clientX, clientY: to.clientY });

    const reset = await within(canvasElement).findByRole("button", { name: "Reset zoom" });
    await waitFor(() => expect(drawnSpan(canvasElement)).toBeLessThan(full / 3), WAIT);
    await userEvent.click(reset);
    await waitFor(() => expect(drawnSpan(canvasElement)).toBe(full), WAIT);

    // keyboard: + zooms in around the active point, 0 resets
    const plot = within(canvasElement).getByRole("application");
    plot.focus();
    await userEvent.keyboard("+");
    await waitFor(() => expect(drawnSpan(canvasElement)).toBeLessThan(full * 0.6), WAIT);
    await userEvent.keyboard("0");
    await waitFor(() => expect(drawnSpan(canvasElement)).toBe(full), WAIT);
  },
};

/**
 * Two charts with one syncId: hovering one moves the other's crosshair and tooltip to the same
 * time, though one has 100,000 points per series and the other 2,000 (each downsampled apart).
 */
export const SyncedCharts: StoryObj = {
  render: () => (
    <div style={{ display: "grid", gap: 16 }}>
      <LineChart
        data={sensorSeries(100_000)}
        index="t"
        series={["a", "b"]}
        title="Sensors a and b, 100,000 readings"
        locale="en-US"
        height={200}
        animate={false}
        syncId="sensors"
      />
      <AreaChart
        data={sensorSeries(100_000).filter((_, i) => i % 50 === 0)}
        index="t"
        series={["c"]}
        title="Sensor c, every 50th reading"
        locale="en-US"
        height={200}
        animate={false}
        syncId="sensors"
      />
    </div>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelectorAll(".recharts-wrapper")).toHaveLength(2),
      WAIT,
    );
    const [first, second] = [...canvasElement.querySelectorAll<HTMLElement>("figure.seed-chart")];
    const point = plotPoint(first as HTMLElement, 0.6);
    fireEvent.mouseMove(point.wrapper, { clientX: point.clientX, clientY: point.clientY });
    await waitFor(() => expect(second?.querySelector(".seed-chart-tooltip")).not.toBeNull(), WAIT);
    // both tooltips name the same day (times differ by at most the sparse chart's step)
    const day = (figure: HTMLElement | undefined) =>
      figure?.querySelector(".seed-chart-tooltip")?.textContent?.slice(0, 6);
    await expect(day(second)).toBe(day(first));
  },
};
