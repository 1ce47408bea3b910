import { AreaChart, BarChart, LineChart } from "@seed/charts";
import { annotate } from "@seed/charts/annotations";
import "@seed/charts/styles.css";
import type { StoryObj } from "@storybook/react-vite";
import { expect, fireEvent, userEvent, waitFor, within } from "storybook/test";
import { dailyTraffic, monthlySales, regionSales } from "./data";

const meta = { title: "Charts/Annotations" };
export default meta;

const WAIT = { timeout: 5000 };

// Made once, outside render: `annotate` returns a new value each call.
const campaign = annotate([
  { at: "2024-05-06", label: "Newsletter sent" },
  { at: "2024-05-14", to: "2024-05-21", label: "Spring sale" },
  { at: "2024-05-27", label: "App store feature", color: "var(--seed-chart-3)" },
]);

/** The annotations' boxes, and the plot's, for layout checks. */
function boxes(canvasElement: HTMLElement) {
  const plot = canvasElement.querySelector(".recharts-cartesian-grid") as SVGGElement;
  return {
    plot: plot.getBoundingClientRect(),
    labels: [...canvasElement.querySelectorAll<SVGTextElement>(".seed-chart-annotation text")].map(
      (text) => text.getBoundingClientRect(),
    ),
  };
}

/**
 * Markers and a band over a month of traffic: each label in the plot (cut to the room before the
 * next one, full text on hover), in the tooltip of the points it covers, in the data table and
 * in what a screen reader hears on the arrow keys.
 */
export const MarkersAndBands: StoryObj = {
  render: () => (
    <LineChart
      data={dailyTraffic(30)}
      index="day"
      series={["web", "ios", "android"]}
      title="Daily visits by platform, May 2024"
      locale="en-US"
      height={300}
      animate={false}
      annotations={campaign}
    />
  ),
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelectorAll(".seed-chart-annotation")).toHaveLength(3),
      WAIT,
    );
    const { plot, labels } = boxes(canvasElement);
    await expect(labels).toHaveLength(3);
    for (const label of labels) {
      await expect(label.left).toBeGreaterThanOrEqual(plot.left - 0.5);
      await expect(label.right).toBeLessThanOrEqual(plot.right + 0.5);
    }
    // the keyboard: five steps right of 1 May is the newsletter's day
    const chart = within(canvasElement).getByRole("application");
    chart.focus();
    const live = canvasElement.querySelector("[aria-live=polite]") as HTMLElement;
    for (let i = 0; i < 5; i++) await userEvent.keyboard("{ArrowRight}");
    await waitFor(
      () => expect(live.textContent).toMatch(/^May 6, 2024 — Newsletter sent: web /),
      WAIT,
    );
    // the sale's band: hovering inside it names the sale in the tooltip
    const band = canvasElement.querySelector(".seed-chart-annotation rect") as SVGRectElement;
    const area = band.getBoundingClientRect();
    const wrapper = canvasElement.querySelector(".recharts-wrapper") as HTMLElement;
    fireEvent.mouseMove(wrapper, {
      clientX: area.left + area.width / 2,
      clientY: area.top + area.height / 2,
    });
    await waitFor(
      () =>
        expect(canvasElement.querySelector(".seed-chart-tooltip")).toHaveTextContent(
          /May 1[4-9], 2024 — Spring sale/,
        ),
      WAIT,
    );
    const table = canvasElement.querySelector("table") as HTMLTableElement;
    const annotated = [...table.querySelectorAll("tbody th")]
      .map((th) => th.textContent ?? "")
      .filter((text) => text.includes(" — "));
    await expect(annotated).toEqual([
      "May 6, 2024 — Newsletter sent",
      ...[14, 15, 16, 17, 18, 19, 20, 21].map((day) => `May ${day}, 2024 — Spring sale`),
      "May 27, 2024 — App store feature",
    ]);
  },
};

/** A band over whole bars (a campaign of two months) and a marker on one bar. */
export const OnBars: StoryObj = {
  render: () => (
    <BarChart
      data={monthlySales()}
      index="month"
      series={["revenue", "cost"]}
      title="Revenue and cost per month, 2024"
      locale="en-US"
      height={300}
      animate={false}
      annotations={annotate([
        { at: "2024-05-01", to: "2024-06-01", label: "TV campaign" },
        { at: "2024-10-01", label: "Price rise" },
      ])}
    />
  ),
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelectorAll(".seed-chart-annotation")).toHaveLength(2),
      WAIT,
    );
    const band = (
      canvasElement.querySelector(".seed-chart-annotation rect") as SVGRectElement
    ).getBoundingClientRect();
    const plot = boxes(canvasElement).plot;
    // two of twelve months: a sixth of the plot
    await expect(band.width).toBeGreaterThan(plot.width / 6 - 2);
    await expect(band.width).toBeLessThan(plot.width / 6 + 2);
  },
};

/** Horizontal bars: the index is vertical, so a marker lies across the plot. */
export const OnHorizontalBars: StoryObj = {
  render: () => (
    <BarChart
      data={regionSales()}
      index="region"
      series={["online", "retail"]}
      title="Sales by region and channel"
      locale="en-US"
      height={300}
      horizontal
      animate={false}
      annotations={annotate([{ at: "East", label: "New warehouse" }])}
    />
  ),
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelector(".seed-chart-annotation line")).not.toBeNull(),
      WAIT,
    );
    const line = canvasElement.querySelector(".seed-chart-annotation line") as SVGLineElement;
    await expect(line.getAttribute("y1")).toBe(line.getAttribute("y2"));
  },
};

/**
 * On a phone (343 px of chart in a 375 px window): long labels are cut to the room they have,
 * nothing leaves the plot, and the page does not scroll sideways.
 */
export const OnAPhone: StoryObj = {
  render: () => (
    <div style={{ width: 343 }}>
      <AreaChart
        data={dailyTraffic(30)}
        index="day"
        series={["web"]}
        title="Daily web visits, May 2024"
        locale="en-US"
        height={220}
        animate={false}
        annotations={annotate([
          { at: "2024-05-06", label: "Newsletter sent to every subscriber in Europe" },
          { at: "2024-05-12", to: "2024-05-30", label: "The longest spring sale we ever ran" },
        ])}
      />
    </div>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelectorAll(".seed-chart-annotation")).toHaveLength(2),
      WAIT,
    );
    const { plot, labels } = boxes(canvasElement);
    for (const label of labels) {
      await expect(label.right).toBeLessThanOrEqual(plot.right + 0.5);
    }
    const texts = [...canvasElement.querySelectorAll(".seed-chart-annotation text")].map(
      (text) => text.textContent ?? "",
    );
    await expect(texts.some((text) => text.endsWith("…"))).toBe(true);
    await expect(canvasElement.scrollWidth).toBeLessThanOrEqual(canvasElement.clientWidth);
  },
};
