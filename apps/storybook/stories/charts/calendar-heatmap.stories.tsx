import { CalendarHeatmap } from "@seed/charts/calendar-heatmap";
import "@seed/charts/styles.css";
import type { StoryObj } from "@storybook/react-vite";
import { expect, fireEvent, userEvent, waitFor, within } from "storybook/test";
// vega-datasets' Seattle weather (a row a day, 2012-2015), from the charts package's dev
// dependency: read as text by Vite, so the story has no dependency of its own
import seattleCsv from "../../../../packages/charts/node_modules/vega-datasets/data/seattle-weather.csv?raw";

const meta = { title: "Charts/CalendarHeatmap" };
export default meta;

const WAIT = { timeout: 5000 };

interface DayRow {
  date: string;
  precipitation: number;
  weather: string;
}

function seattleRain(): DayRow[] {
  return seattleCsv
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [date = "", precipitation = "", , , , weather = ""] = line.split(",");
      return { date, precipitation: Number(precipitation), weather };
    });
}

const mm = (v: number) => `${v.toLocaleString("en-US", { maximumFractionDigits: 1 })} mm`;

/** The rain stories' chart: every day of the file, in millimetres. */
const rain = {
  data: seattleRain(),
  date: "date",
  value: "precipitation",
  valueLabel: "Rain",
  title: "Daily rain in Seattle",
  valueFormatter: mm,
  locale: "en-US",
} as const;

/** Squares drawn in the calendar's cell paths. */
function cellCount(canvasElement: HTMLElement): number {
  return [...canvasElement.querySelectorAll("path.seed-calendar-cells")].reduce(
    (sum, path) => sum + (path.getAttribute("d")?.match(/M/g)?.length ?? 0),
    0,
  );
}

/**
 * Seattle's daily rain, 2012-2015: a column per week, a row per weekday, the years stacked; five
 * bins of equal width, named with their ranges in the legend. Keyboard: arrow keys move by day
 * (up, down) and week (left, right), Page Up and Page Down by month (with Shift by year).
 */
export const SeattleRain: StoryObj = {
  render: () => <CalendarHeatmap {...rain} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(cellCount(canvasElement)).toBe(1461), WAIT);
    const legend = canvas.getByRole("list", { name: /Legend/ });
    await expect(legend).toHaveTextContent("44.7 mm – 55.9 mm");
    await expect(legend).toHaveTextContent("No data");
  },
};

/** The keyboard: focus the calendar, move through its days, and Enter reports the day. */
export const Keyboard: StoryObj = {
  render: () => (
    <CalendarHeatmap
      {...rain}
      onValueChange={(event) => {
        const said = document.getElementById("calendar-picked");
        if (said) said.textContent = event ? `Picked row ${event.rowIndex}` : "Picked nothing";
      }}
    />
  ),
  decorators: [
    (Story) => (
      <>
        <Story />
        <output id="calendar-picked" />
      </>
    ),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const grid = canvas.getByRole("application");
    const live = canvasElement.querySelector("[aria-live=polite]") as HTMLElement;
    grid.focus();
    await userEvent.keyboard("{ArrowDown}");
    await waitFor(() => expect(live.textContent).toBe("Sun, Jan 1, 2012: 0 mm"), WAIT);
    await userEvent.keyboard("{ArrowDown}");
    await waitFor(() => expect(live.textContent).toBe("Mon, Jan 2, 2012: 10.9 mm"), WAIT);
    await expect(canvasElement.querySelector(".seed-chart-tooltip")).toBeVisible();
    await userEvent.keyboard("{ArrowRight}");
    await waitFor(() => expect(live.textContent).toMatch(/^Mon, Jan 9, 2012: /), WAIT);
    await userEvent.keyboard("{PageDown}");
    await waitFor(() => expect(live.textContent).toMatch(/^Thu, Feb 9, 2012: /), WAIT);
    await userEvent.keyboard("{End}");
    await waitFor(() => expect(live.textContent).toMatch(/^Thu, Dec 31, 2015: /), WAIT);
    await userEvent.keyboard("{Home}{Enter}");
    await waitFor(() => expect(canvas.getByText("Picked row 0")).toBeTruthy(), WAIT);
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(live.textContent).toBe(""), WAIT);
    // the pointer shows a day's tooltip too
    const svg = canvasElement.querySelector("svg.seed-calendar") as SVGSVGElement;
    const box = svg.getBoundingClientRect();
    // the first row (Mondays) of 2012, half way across: a Monday in summer
    fireEvent.pointerMove(svg, {
      clientX: box.left + box.width / 2,
      clientY: box.top + 36,
      pointerType: "mouse",
    });
    await waitFor(() => expect(live.textContent).toMatch(/^Mon, [A-Z][a-z]{2} \d+, 2012: /), WAIT);
  },
};

/** In a dark section of a light page: the bins are the dark theme's hue mixed into its background. */
export const Dark: StoryObj = {
  render: () => (
    <div className="dark" style={{ background: "#0b1120", padding: 16 }}>
      <CalendarHeatmap
        data={seattleRain().filter((row) => row.date.startsWith("2015"))}
        date="date"
        value="precipitation"
        valueLabel="Rain"
        title="Daily rain in Seattle, 2015"
        valueFormatter={mm}
        locale="en-US"
      />
    </div>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(cellCount(canvasElement)).toBe(365), WAIT);
    const year = within(canvasElement).getByText("2015");
    // the year heading in the dark theme's foreground
    await expect(getComputedStyle(year).fill).toBe("rgb(241, 245, 249)");
  },
};

/** On a phone (343 px in a 375 px window): cells shrink to fit, and nothing scrolls sideways. */
export const OnAPhone: StoryObj = {
  render: () => (
    <div style={{ width: 343 }}>
      <CalendarHeatmap
        data={seattleRain()}
        date="date"
        value="precipitation"
        title="Daily rain in Seattle"
        valueFormatter={mm}
        locale="en-US"
      />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const figure = within(canvasElement).getByRole("figure");
    await waitFor(() => expect(cellCount(canvasElement)).toBe(1461), WAIT);
    await expect(figure.getBoundingClientRect().width).toBeLessThanOrEqual(343.5);
    const svg = canvasElement.querySelector("svg.seed-calendar") as SVGSVGElement;
    await expect(svg.getBoundingClientRect().width).toBeLessThanOrEqual(343.5);
    await expect(canvasElement.scrollWidth).toBeLessThanOrEqual(canvasElement.clientWidth);
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(
      document.documentElement.clientWidth,
    );
  },
};

/** No rows: the empty state says why. */
export const Empty: StoryObj = {
  render: () => (
    <CalendarHeatmap
      data={[] as DayRow[]}
      date="date"
      value="precipitation"
      title="Daily rain"
      emptyMessage="No rain recorded yet"
    />
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId("seed-chart-empty")).toHaveTextContent(
      "No rain recorded yetNo data",
    );
  },
};
