import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { tickTexts } from "../testing/ticks";
import { seattleDays } from "../testing/vega-seattle";
import { ComboChart, type ComboChartProps } from "./combo-chart";
import { comboSeriesKinds } from "./kinds";

interface MonthRow {
  /** The first of the month, as an ISO date. */
  month: string;
  /** Total precipitation, mm. */
  rain: number;
  /** Mean of the days' highest temperature, °C. */
  warmth: number;
}

/** vega-datasets' Seattle weather (a row a day, 2012-2015) as months: rain summed, warmth averaged. */
function seattleMonths(): MonthRow[] {
  const months = new Map<string, { rain: number; warmth: number; days: number }>();
  for (const day of seattleDays()) {
    const month = `${day.date.slice(0, 7)}-01`;
    const sum = months.get(month) ?? { rain: 0, warmth: 0, days: 0 };
    sum.rain += day.precipitation;
    sum.warmth += day.tempMax;
    sum.days += 1;
    months.set(month, sum);
  }
  return [...months].map(([month, sum]) => ({
    month,
    rain: Math.round(sum.rain * 10) / 10,
    warmth: Math.round((sum.warmth / sum.days) * 10) / 10,
  }));
}

const year2015 = seattleMonths().filter((row) => row.month.startsWith("2015"));

function renderWeather(props: Partial<ComboChartProps<MonthRow>> = {}) {
  return render(
    <ComboChart<MonthRow>
      data={year2015}
      index="month"
      series={[
        { key: "rain", label: "Rain (mm)" },
        { key: "warmth", label: "Warmth", axis: "right", formatter: (v) => `${v.toFixed(1)} °C` },
      ]}
      width={700}
      locale="en-US"
      animate={false}
      {...props}
    />,
  );
}

/** Tick labels of each value axis, left then right. */
function valueTicks(container: HTMLElement): string[][] {
  return Array.from(container.querySelectorAll(".recharts-yAxis-tick-labels")).map((axis) =>
    Array.from(axis.querySelectorAll(".recharts-cartesian-axis-tick-value")).map(
      (tick) => tick.textContent ?? "",
    ),
  );
}

function numbers(ticks: readonly string[]): number[] {
  return ticks.map((tick) => Number(tick.replace(/[^\d.-]/g, "")));
}

describe("ComboChart", () => {
  it("draws the first series as bars and the rest as lines unless told", () => {
    expect([
      ...comboSeriesKinds<MonthRow>(["rain", "warmth", { key: "rain", type: "line" }]),
    ]).toEqual([
      ["rain", { type: "bar", axis: "left" }],
      ["warmth", { type: "line", axis: "left" }],
    ]);
    expect([
      ...comboSeriesKinds<MonthRow>([
        { key: "warmth", type: "line", axis: "right" },
        { key: "rain", type: "bar" },
      ]),
    ]).toEqual([
      ["warmth", { type: "line", axis: "right" }],
      ["rain", { type: "bar", axis: "left" }],
    ]);
  });

  it("draws a month's rain as a bar and the warmth as a line, each on its own scaled axis", () => {
    const { container } = renderWeather();

    expect(container.querySelectorAll(".recharts-bar-rectangle")).toHaveLength(12);
    expect(container.querySelectorAll(".recharts-line-curve")).toHaveLength(1);
    expect(tickTexts(container, "xAxis")[0]).toBe("Jan 2015");
    const [left = [], right = []] = valueTicks(container);
    // the left axis reaches the wettest month, the right one the warmest, each from 0
    const wettest = Math.max(...year2015.map((row) => row.rain));
    const warmest = Math.max(...year2015.map((row) => row.warmth));
    expect(numbers(left)[0]).toBe(0);
    expect(Math.max(...numbers(left))).toBeGreaterThanOrEqual(wettest);
    expect(Math.max(...numbers(right))).toBeGreaterThanOrEqual(warmest);
    // the right axis is scaled to the warmth, not to the rain (well over 100 mm some months)
    expect(Math.max(...numbers(right))).toBeLessThan(wettest);
    // and reads in its series' own format
    expect(right.every((tick) => tick.endsWith("°C"))).toBe(true);
  });

  it("lines sit over the bars whatever the series order", () => {
    const { container } = renderWeather({
      series: [
        { key: "warmth", type: "line", axis: "right" },
        { key: "rain", type: "bar" },
      ],
    });
    const layers = Array.from(
      container.querySelectorAll(".recharts-bar, .recharts-line"),
      (node) => (node.classList.contains("recharts-bar") ? "bar" : "line"),
    );
    expect(layers).toEqual(["bar", "line"]);
  });

  it("drops the right axis when its series is hidden, and steps the left aside when only the right is shown", async () => {
    const user = userEvent.setup();
    const { container } = renderWeather();

    await user.click(screen.getByRole("button", { name: "Warmth" }));
    expect(valueTicks(container)).toHaveLength(1);
    await user.click(screen.getByRole("button", { name: "Warmth" }));
    await user.click(screen.getByRole("button", { name: "Rain (mm)" }));
    const shown = valueTicks(container).filter((ticks) => ticks.length > 0);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.every((tick) => tick.endsWith("°C"))).toBe(true);
  });

  it("titles the second axis, and takes its bounds and tick format", () => {
    const { container } = renderWeather({
      yAxis: { label: "Rain" },
      y2Axis: { label: "Warmth", min: -10, max: 40, tickFormatter: (v) => `${v}°` },
    });
    const [, right = []] = valueTicks(container);
    expect(numbers(right)[0]).toBe(-10);
    expect(numbers(right).at(-1)).toBe(40);
    expect(right.every((tick) => tick.endsWith("°"))).toBe(true);
    const titles = Array.from(container.querySelectorAll(".recharts-label"), (n) => n.textContent);
    expect(titles).toEqual(expect.arrayContaining(["Rain", "Warmth"]));
  });

  it("names both series in its summary and data table, with their own formats and the file's numbers", () => {
    renderWeather({ title: "Seattle, 2015" });
    const figure = screen.getByRole("figure", { name: "Seattle, 2015" });
    expect(figure).toHaveAccessibleDescription(
      /^Combo chart of Rain \(mm\) and Warmth by month, 12 points from Jan 1, 2015 to Dec 1, 2015;/,
    );
    const table = screen.getByRole("table", { name: "Seattle, 2015" });
    const june = year2015[5] as MonthRow;
    const row = within(table).getByRole("row", { name: /Jun 1, 2015/ });
    expect(row).toHaveTextContent(june.rain.toLocaleString("en-US"));
    expect(row).toHaveTextContent(`${june.warmth.toFixed(1)} °C`);
  });

  it("tells a point by keyboard with both values, and Enter reports its row", async () => {
    const onValueChange = vi.fn();
    const { container } = renderWeather({ onValueChange });
    const svg = container.querySelector("svg.recharts-surface") as SVGElement;
    const live = container.querySelector("[aria-live=polite]") as HTMLElement;

    act(() => svg.focus());
    fireEvent.keyDown(svg, { key: "ArrowRight" });
    const feb = year2015[1] as MonthRow;
    await waitFor(() =>
      expect(live).toHaveTextContent(
        `Feb 1, 2015: Rain (mm) ${feb.rain.toLocaleString("en-US")}, Warmth ${feb.warmth.toFixed(1)} °C`,
      ),
    );
    fireEvent.keyDown(svg, { key: "Enter" });
    expect(onValueChange).toHaveBeenCalledWith({ row: feb, rowIndex: 1 });
  });

  it("reports a clicked bar with its series and value", async () => {
    const onValueChange = vi.fn();
    const { container } = renderWeather({ onValueChange });
    const bars = container.querySelectorAll(".recharts-bar-rectangle path");
    fireEvent.click(bars[2] as Element);
    const march = year2015[2] as MonthRow;
    await waitFor(() =>
      expect(onValueChange).toHaveBeenCalledWith(
        expect.objectContaining({ row: march, rowIndex: 2, seriesKey: "rain", value: march.rain }),
      ),
    );
  });

  it("shows the empty state with its reason for rows with nothing to draw", () => {
    render(
      <ComboChart<MonthRow>
        data={[]}
        index="month"
        series={["rain", { key: "warmth", axis: "right" }]}
        width={400}
      />,
    );
    expect(screen.getByRole("figure")).toHaveTextContent(/no data/i);
  });
});
