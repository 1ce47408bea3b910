import { fireEvent, render, waitFor } from "@testing-library/react";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { expectDrawsAnyRows } from "../testing/random-rows";
import { tickTexts } from "../testing/ticks";
import { BarChart, type BarChartProps } from "./bar-chart";

interface RegionRow {
  region: string;
  online: number;
  store: number;
}

function regionRows(): RegionRow[] {
  return [
    { region: "North", online: 40, store: 60 },
    { region: "South", online: 25, store: 25 },
    { region: "East", online: 10, store: 30 },
  ];
}

/** The region rows at 600 px, both series; each test adds or overrides the props it is about. */
function renderRegions(props: Partial<BarChartProps<RegionRow>> = {}) {
  return render(
    <BarChart
      data={regionRows()}
      index="region"
      series={["online", "store"]}
      width={600}
      {...props}
    />,
  );
}

describe("BarChart", () => {
  it("draws one bar per row and series with category ticks", () => {
    const { container } = renderRegions();

    expect(container.querySelectorAll(".recharts-bar-rectangle")).toHaveLength(6);
    expect(tickTexts(container, "xAxis")).toEqual(["North", "South", "East"]);
  });

  it("lays bars out horizontally with the index on the vertical axis", () => {
    const { container } = renderRegions({ series: ["online"], horizontal: true });

    expect(tickTexts(container, "yAxis")).toEqual(["North", "South", "East"]);
    expect(tickTexts(container, "xAxis")[0]).toBe("0");
    expect(
      container.querySelectorAll(".recharts-cartesian-grid-vertical line").length,
    ).toBeGreaterThan(0);
  });

  it("stacks to 100%", () => {
    const { container } = renderRegions({ stack: "percent", locale: "en-US" });

    expect(tickTexts(container, "yAxis").at(-1)).toBe("100%");
  });

  it("formats a date index on a band axis", () => {
    const rows = [
      { month: "2024-01-01", units: 3 },
      { month: "2024-02-01", units: 5 },
      { month: "2024-03-01", units: 4 },
    ];

    const { container } = render(
      <BarChart data={rows} index="month" series={["units"]} width={600} locale="en-GB" />,
    );

    expect(tickTexts(container, "xAxis")).toEqual(["Jan 2024", "Feb 2024", "Mar 2024"]);
  });

  it("reports the clicked bar with its series and row", async () => {
    const onValueChange = vi.fn();
    const { container } = renderRegions({ animate: false, onValueChange });

    const bars = container.querySelectorAll(".recharts-bar-rectangle path");
    fireEvent.click(bars[1] as Element);

    await waitFor(() =>
      expect(onValueChange).toHaveBeenCalledWith({
        row: regionRows()[1],
        rowIndex: 1,
        seriesKey: "online",
        value: 25,
      }),
    );
  });

  it("drops repeated categories and tells the developer", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const rows = [...regionRows(), { region: "North", online: 1, store: 1 }];

    const { container } = render(
      <BarChart data={rows} index="region" series={["online"]} width={600} />,
    );

    expect(container.querySelectorAll(".recharts-bar-rectangle")).toHaveLength(3);
    expect(String(warn.mock.calls[0]?.[0])).toContain('row 3 (region): repeats index "North"');
    warn.mockRestore();
  });

  it("never throws on random rows", () => {
    const value = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.string({ maxLength: 3 }),
      fc.constant(null),
    );
    expectDrawsAnyRows(
      fc.array(fc.record({ name: fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), a: value }), {
        maxLength: 20,
      }),
      (rows) => <BarChart data={rows} index="name" series={["a"]} width={300} stack="stacked" />,
      20,
    );
  }, 60_000);
});

describe("BarChart axis labels", () => {
  const regions = [
    { region: "North", sales: 1 },
    { region: "The Southern Territories and Outlying Islands", sales: 2 },
    { region: "East", sales: 3 },
  ];

  it("cuts a long category label with an ellipsis and keeps the full text in its title", () => {
    const { container } = render(
      <BarChart data={regions} index="region" series={["sales"]} width={400} />,
    );

    const labels = tickTexts(container, "xAxis");
    expect(labels[0]).toBe("North");
    expect(labels[1]).toMatch(/^The Southern.*…$/);
    expect(labels[2]).toBe("East");
    const titles = Array.from(container.querySelectorAll(".recharts-xAxis-tick-labels title"));
    expect(titles.map((title) => title.textContent)).toEqual([
      "The Southern Territories and Outlying Islands",
    ]);
  });

  it("writes a number index by the index axis' numberFormat: y of horizontal bars, never names", () => {
    const years = [
      { year: 1990, sales: 5 },
      { year: 2000, sales: 8 },
      { year: 2010, sales: 13 },
    ];
    const plain = { numberFormat: { useGrouping: false } };
    const horizontal = render(
      <BarChart
        data={years}
        index="year"
        series={["sales"]}
        width={600}
        horizontal
        yAxis={plain}
      />,
    );
    // on upright bars the y axis holds values, so its numberFormat leaves the years alone
    const upright = render(
      <BarChart
        data={years}
        index="year"
        series={["sales"]}
        width={600}
        locale="en-US"
        yAxis={plain}
      />,
    );
    const names = render(
      <BarChart
        data={regionRows()}
        index="region"
        series={["online"]}
        width={600}
        xAxis={{ numberFormat: { style: "percent" } }}
      />,
    );

    expect(tickTexts(horizontal.container, "yAxis")).toEqual(["1990", "2000", "2010"]);
    expect(tickTexts(upright.container, "xAxis")).toEqual(["1,990", "2,000", "2,010"]);
    expect(tickTexts(names.container, "xAxis")).toEqual(["North", "South", "East"]);
  });

  it("cuts long labels of horizontal bars to the index axis width", () => {
    const { container } = render(
      <BarChart data={regions} index="region" series={["sales"]} width={400} horizontal />,
    );

    const labels = tickTexts(container, "yAxis");
    expect(labels).toContain("North");
    expect(labels.every((label) => label.length <= 12)).toBe(true);
  });
});
