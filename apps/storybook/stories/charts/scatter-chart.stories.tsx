import { ScatterChart } from "@seed/charts/scatter-chart";
import "@seed/charts/styles.css";
import type { StoryObj } from "@storybook/react-vite";
import { expect, fireEvent, userEvent, waitFor, within } from "storybook/test";
import { cityIncomes, dailyTraffic, taxiTrips } from "./data";
import { toggleLegendItem } from "./play-helpers";

const meta = { title: "Charts/ScatterChart" };
export default meta;

const WAIT = { timeout: 5000 };
const usd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});

/**
 * Income against degree share: points sized by population (by area), coloured by region, one
 * legend entry per region. Keyboard: arrows move between points, the tooltip and the live region
 * follow; the pointer finds the nearest point.
 */
export const SizedAndColoured: StoryObj = {
  render: () => (
    <ScatterChart
      data={cityIncomes()}
      x="degree"
      y="income"
      size="population"
      color="region"
      label="city"
      xLabel="Adults with a degree"
      yLabel="Median income"
      sizeLabel="Population"
      colorLabel="Region"
      xFormatter={(v) => `${Math.round(v * 100)}%`}
      xAxis={{ tickFormatter: (v) => `${Math.round(+v * 100)}%`, label: "Adults with a degree" }}
      valueFormatter={(v) => usd.format(v)}
      locale="en-US"
    />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const chart = canvas.getByRole("application");
    const live = canvasElement.querySelector("[aria-live=polite]") as HTMLElement;
    chart.focus();
    await userEvent.keyboard("{ArrowRight}");
    await waitFor(() => expect(live.textContent).toMatch(/^City \d\d: Adults with a degree/), WAIT);
    const tooltip = canvasElement.querySelector(".seed-scatter-tooltip") as HTMLElement;
    await expect(tooltip).toBeVisible();
    const first = live.textContent;
    await userEvent.keyboard("{ArrowRight}");
    await waitFor(() => expect(live.textContent).not.toBe(first), WAIT);
    // the pointer on the ringed point shows the same point
    const ring = (
      canvasElement.querySelector(".seed-scatter-active") as SVGElement
    ).getBoundingClientRect();
    const said = live.textContent;
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(live.textContent).toBe(""), WAIT);
    const hit = canvasElement.querySelector(".seed-scatter-hit") as SVGElement;
    fireEvent.pointerMove(hit, {
      clientX: ring.left + ring.width / 2,
      clientY: ring.top + ring.height / 2,
      pointerType: "mouse",
    });
    await waitFor(() => expect(live.textContent).toBe(said), WAIT);
    // the tooltip stays inside the plot
    const plot = (
      canvasElement.querySelector(".seed-chart-plot") as HTMLElement
    ).getBoundingClientRect();
    const box = (
      canvasElement.querySelector(".seed-scatter-tooltip") as HTMLElement
    ).getBoundingClientRect();
    await expect(box.left).toBeGreaterThanOrEqual(plot.left);
    await expect(box.right).toBeLessThanOrEqual(plot.right + 0.5);
    await toggleLegendItem(canvasElement, "Northeast", ".seed-scatter-points path");
  },
};

/**
 * 200,000 trips: past `maxPoints` the plot is cut into cells and each kind keeps one point per
 * cell, shaded by how many trips it stands for (the tooltip says how many).
 */
export const ThinnedByDensity: StoryObj = {
  render: () => (
    <ScatterChart
      data={taxiTrips(200_000)}
      x="distance"
      y="minutes"
      color="kind"
      xLabel="Distance (km)"
      yLabel="Minutes"
      colorLabel="Trip"
      locale="en-US"
    />
  ),
  play: async ({ canvasElement }) => {
    const live = canvasElement.querySelector("[aria-live=polite]") as HTMLElement;
    within(canvasElement).getByRole("application").focus();
    await userEvent.keyboard("{Home}");
    await waitFor(() => expect(live.textContent).toMatch(/Points here \d/), WAIT);
    const drawn = [...canvasElement.querySelectorAll(".seed-scatter-points path")].reduce(
      (sum, path) => sum + (path.getAttribute("d")?.match(/M/g)?.length ?? 0),
      0,
    );
    await expect(drawn).toBeLessThan(3 * 2_000 * 1.5);
  },
};

/** Dates on x: web visits by day, sized by iOS visits; ninety days tick on month starts. */
export const OverTime: StoryObj = {
  render: () => (
    <ScatterChart
      data={dailyTraffic(90)}
      x="day"
      y="web"
      size="ios"
      xLabel="Day"
      yLabel="Web visits"
      sizeLabel="iOS visits"
      locale="en-US"
    />
  ),
  play: async ({ canvasElement }) => {
    const ticks = () => [
      ...canvasElement.querySelectorAll(
        ".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value",
      ),
    ];
    await waitFor(() => expect(ticks().length).toBeGreaterThan(1), WAIT);
    await expect(ticks()[0]?.textContent).toMatch(/^[A-Z][a-z]{2} 2024$/);
  },
};

/** On a phone (343 px in a 375 px window): the chart fits and nothing scrolls sideways. */
export const OnAPhone: StoryObj = {
  render: () => (
    <div style={{ width: 343 }}>
      <ScatterChart
        data={cityIncomes()}
        x="degree"
        y="income"
        color="region"
        label="city"
        valueFormatter={(v) => usd.format(v)}
        locale="en-US"
      />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const figure = within(canvasElement).getByRole("figure");
    await expect(figure.getBoundingClientRect().width).toBeLessThanOrEqual(343.5);
    await expect(canvasElement.scrollWidth).toBeLessThanOrEqual(canvasElement.clientWidth);
  },
};

/** No row with both values: the empty state says why. */
export const NothingToDraw: StoryObj = {
  render: () => (
    <ScatterChart
      data={[
        { a: "n/a", b: 1 },
        { a: null, b: 2 },
      ]}
      x="a"
      y="b"
      title="Nothing"
    />
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId("seed-chart-empty")).toHaveTextContent(
      "No row has a valid number for a and number for b",
    );
  },
};
