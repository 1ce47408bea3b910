import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { type SeattleDay, seattleDays } from "../testing/vega-seattle";
import { CalendarHeatmap } from "./calendar-heatmap";
import { binOf, binsOf, layoutCalendar, MAX_YEARS, prepareCalendarFrame } from "./prepare";

/** vega-datasets' Seattle weather: a row a day, 2012-2015. */
const seattle = seattleDays;

function renderRain(props: Partial<Parameters<typeof CalendarHeatmap<SeattleDay>>[0]> = {}) {
  return render(
    <CalendarHeatmap
      data={seattle()}
      date="date"
      value="precipitation"
      title="Seattle rain"
      locale="en-US"
      width={800}
      {...props}
    />,
  );
}

/** The drawn cells: their top left corner ("x,y") and bin ("none": an outline). */
function cellsOf(container: ParentNode): Map<string, string> {
  const cells = new Map<string, string>();
  for (const path of container.querySelectorAll("path.seed-calendar-cells")) {
    const bin = path.getAttribute("data-bin") ?? "";
    for (const [, x, y] of (path.getAttribute("d") ?? "").matchAll(/M([\d.]+),([\d.]+)/g)) {
      const shift = bin === "none" ? 0.5 : 0;
      cells.set(`${Number(x) - shift},${Number(y) - shift}`, bin);
    }
  }
  return cells;
}

/** The bin drawn for a day (an ISO day) of `rows` at `width`. */
function binOfDay(
  container: ParentNode,
  rows: unknown[],
  iso: string,
  width: number,
  weekStart: 0 | 1 = 1,
) {
  const frame = prepareCalendarFrame(rows, {
    date: "d" in (rows[0] as object) ? "d" : "date",
    value: "v" in (rows[0] as object) ? "v" : "precipitation",
  });
  const layout = layoutCalendar(frame, binsOf(frame.range, 5), width, weekStart);
  const cell = layout.cells.find((c) => c.day === Date.parse(iso) / 86_400_000);
  return cell ? cellsOf(container).get(`${cell.x},${cell.y}`) : undefined;
}

describe("CalendarHeatmap on Seattle's daily precipitation", () => {
  it("draws a cell per day, every day with a value, the wettest in the top bin", () => {
    const rows = seattle();
    expect(rows).toHaveLength(1461);
    const { container } = renderRain();
    const cells = [...cellsOf(container).values()];
    expect(cells).toHaveLength(1461);
    expect(cells.filter((bin) => bin !== "none")).toHaveLength(1461);
    const wettest = rows.reduce((a, b) => (b.precipitation > a.precipitation ? b : a));
    expect(wettest.precipitation).toBe(55.9);
    expect(binOfDay(container, rows, wettest.date, 800)).toBe("4");
    // the top bin holds the days from 44.72 mm (4/5 of the way to the wettest)
    expect(cells.filter((bin) => bin === "4")).toHaveLength(
      rows.filter((row) => row.precipitation >= 44.72).length,
    );
    // dry days are in the lowest bin, drawn filled (a day without a row is an outline)
    expect(binOfDay(container, rows, "2012-01-01", 800)).toBe("0");
    expect(container.querySelector('path[data-bin="0"]')?.getAttribute("fill")).not.toBe("none");
    // four years, stacked, each with a heading
    expect(
      within(container.querySelector("svg.seed-calendar") as HTMLElement).getByText("2015"),
    ).toBeTruthy();
    expect(screen.getAllByText(/^201[2-5]$/)).toHaveLength(4);
  });

  it("names the figure and summarises it", () => {
    renderRain({ title: undefined });
    const figure = screen.getByRole("figure", { name: "Calendar heatmap of precipitation" });
    const summary = document.getElementById(figure.getAttribute("aria-describedby") ?? "");
    expect(summary?.textContent).toBe(
      "Calendar heatmap of precipitation, 1,461 days from Jan 1, 2012 to Dec 31, 2015; from 0 to 55.9.",
    );
  });

  it("lists the bins with their ranges in text, and the look of a missing day", () => {
    renderRain();
    const legend = screen.getByRole("list", { name: /Legend/ });
    expect(
      within(legend)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "0 – 11.18",
      "11.18 – 22.36",
      "22.36 – 33.54",
      "33.54 – 44.72",
      "44.72 – 55.9",
      "No data",
    ]);
  });

  it("has no legend when legend is false", () => {
    renderRain({ legend: false });
    expect(screen.queryByRole("list", { name: /Legend/ })).toBeNull();
  });

  it("moves by day, week, month and year with the keyboard, tells it, and reports Enter", () => {
    const onValueChange = vi.fn();
    const { container } = renderRain({ onValueChange });
    const grid = screen.getByRole("application");
    const live = container.querySelector("[aria-live=polite]") as HTMLElement;
    grid.focus();
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    expect(live.textContent).toBe("Sun, Jan 1, 2012: 0");
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    expect(live.textContent).toBe("Mon, Jan 2, 2012: 10.9");
    fireEvent.keyDown(grid, { key: "ArrowRight" });
    expect(live.textContent).toMatch(/^Mon, Jan 9, 2012: /);
    fireEvent.keyDown(grid, { key: "ArrowLeft" });
    fireEvent.keyDown(grid, { key: "ArrowUp" });
    expect(live.textContent).toBe("Sun, Jan 1, 2012: 0");
    fireEvent.keyDown(grid, { key: "PageDown" });
    expect(live.textContent).toMatch(/^Wed, Feb 1, 2012: /);
    fireEvent.keyDown(grid, { key: "PageDown", shiftKey: true });
    expect(live.textContent).toMatch(/^Fri, Feb 1, 2013: /);
    fireEvent.keyDown(grid, { key: "PageUp" });
    expect(live.textContent).toMatch(/^Tue, Jan 1, 2013: /);
    fireEvent.keyDown(grid, { key: "End" });
    expect(live.textContent).toMatch(/^Thu, Dec 31, 2015: /);
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    expect(live.textContent).toMatch(/^Thu, Dec 31, 2015: /);
    fireEvent.keyDown(grid, { key: "Home" });
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    fireEvent.keyDown(grid, { key: "Enter" });
    expect(onValueChange).toHaveBeenLastCalledWith({
      row: expect.objectContaining({ date: "2012-01-02" }),
      rowIndex: 1,
      seriesKey: "precipitation",
      value: 10.9,
    });
    // the tooltip names the day and the value
    expect(container.querySelector(".seed-chart-tooltip")?.textContent).toContain(
      "Mon, Jan 2, 2012",
    );
    fireEvent.keyDown(grid, { key: "Escape" });
    expect(live.textContent).toBe("");
    expect(container.querySelector(".seed-chart-tooltip")).toBeNull();
  });

  it("hands a custom tooltip the day's row, and draws none when tooltip is false", () => {
    const tooltip = vi.fn(() => <p className="custom-tip">custom</p>);
    const { container, unmount } = renderRain({ tooltip });
    const grid = screen.getByRole("application");
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    expect(tooltip).toHaveBeenLastCalledWith(
      expect.objectContaining({ label: "Sun, Jan 1, 2012", rowIndex: 0 }),
    );
    expect(container.querySelector(".custom-tip")).not.toBeNull();
    unmount();
    const plain = renderRain({ tooltip: false });
    fireEvent.keyDown(within(plain.container).getByRole("application"), { key: "ArrowDown" });
    expect(plain.container.querySelector(".seed-chart-tooltip")).toBeNull();
    expect(plain.container.querySelector("[aria-live=polite]")?.textContent).toBe(
      "Sun, Jan 1, 2012: 0",
    );
  });

  it("starts weeks on Sunday when asked", () => {
    const at = (weekStart: 0 | 1, iso: string) => {
      const frame = prepareCalendarFrame(seattle(), { date: "date", value: "precipitation" });
      const layout = layoutCalendar(frame, binsOf(frame.range, 5), 800, weekStart);
      return layout.cells.find((c) => c.day === Date.parse(iso) / 86_400_000);
    };
    // 2012-01-01 was a Sunday: the top of the first column, or the bottom of it from Monday
    expect(at(0, "2012-01-01")?.y).toBeLessThan(at(0, "2012-01-02")?.y as number);
    expect(at(0, "2012-01-01")?.x).toBe(at(0, "2012-01-02")?.x);
    expect(at(1, "2012-01-01")?.x).toBeLessThan(at(1, "2012-01-02")?.x as number);
    const { container } = renderRain({ weekStart: 0 });
    expect(cellsOf(container).get(`${at(0, "2012-01-01")?.x},${at(0, "2012-01-01")?.y}`)).toBe("0");
    expect(screen.queryAllByText("Sun")).toHaveLength(0);
    expect(screen.getAllByText("Mon").length).toBe(4);
  });

  it("lists every day in the hidden data table and writes raw values to its CSV", () => {
    const { container } = renderRain();
    const table = container.querySelector("[data-testid=seed-chart-table]") as HTMLTableElement & {
      seedCsv?: () => (string | number | null)[][];
    };
    expect(table.querySelectorAll("tbody tr")).toHaveLength(1461);
    expect(table.querySelector("thead")?.textContent).toBe("dateprecipitation");
    expect(table.querySelector("tbody tr")?.textContent).toBe("Jan 1, 2012" + "0");
    const csv = table.seedCsv?.() ?? [];
    expect(csv[0]).toEqual(["date", "precipitation"]);
    expect(csv[2]).toEqual(["2012-01-02", 10.9]);
    expect(csv).toHaveLength(1462);
  });

  it("fits cells to a 343 px container without drawing past its box", () => {
    const { container } = renderRain({ width: 343 });
    const svg = container.querySelector("svg.seed-calendar") as SVGSVGElement;
    expect(Number(svg.getAttribute("width"))).toBeLessThanOrEqual(343);
    for (const key of cellsOf(container).keys()) {
      expect(Number(key.split(",")[0]) + 5).toBeLessThanOrEqual(343);
    }
  });

  it("reports a clicked day", () => {
    const onValueChange = vi.fn();
    const { container } = renderRain({ onValueChange });
    const svg = container.querySelector("svg.seed-calendar") as SVGSVGElement;
    const frame = prepareCalendarFrame(seattle(), { date: "date", value: "precipitation" });
    const layout = layoutCalendar(frame, binsOf(frame.range, 5), 800, 1);
    const cell = layout.cells.find((c) => c.day === Date.parse("2012-01-02") / 86_400_000);
    const x = (cell?.x ?? 0) + 1;
    const y = (cell?.y ?? 0) + 1;
    fireEvent.click(svg, { clientX: x, clientY: y });
    expect(onValueChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ rowIndex: 1, value: 10.9 }),
    );
    fireEvent.click(svg, { clientX: 1, clientY: 1 });
    expect(onValueChange).toHaveBeenLastCalledWith(null);
  });
});

describe("CalendarHeatmap on awkward data", () => {
  it("shows the empty state with its reason for no rows", () => {
    render(<CalendarHeatmap data={[]} date="d" value="v" title="Nothing" />);
    expect(screen.getByTestId("seed-chart-empty").textContent).toContain("No data");
  });

  it("shows why nothing is drawn when no date is valid", () => {
    render(
      <CalendarHeatmap
        data={[{ d: "soon", v: 1 }]}
        date="d"
        value="v"
        emptyMessage="Nothing here"
      />,
    );
    expect(screen.getByTestId("seed-chart-empty").textContent).toBe(
      "Nothing hereNo row has a valid date",
    );
  });

  it("sums rows of one day, reports them, and tells it in the summary", () => {
    const onDataIssues = vi.fn();
    const { container } = render(
      <CalendarHeatmap
        data={[
          { d: "2024-03-01", v: 2 },
          { d: "2024-03-01T10:00:00Z", v: 3 },
          { d: "2024-03-02", v: 0 },
          { d: "2024-03-04", v: Number.NaN },
        ]}
        date="d"
        value="v"
        locale="en-US"
        width={700}
        onDataIssues={onDataIssues}
      />,
    );
    expect(onDataIssues).toHaveBeenCalledWith([
      { row: 1, key: "d", reason: "same day as row 0: values summed" },
      { row: 3, key: "v", reason: "NaN is not a finite number" },
    ]);
    expect(screen.getByRole("figure").getAttribute("aria-describedby")).toBeTruthy();
    expect(container.textContent).toContain("1 day has several rows, summed.");
    const rows = [
      { d: "2024-03-01", v: 5 },
      { d: "2024-03-02", v: 0 },
    ];
    expect(binOfDay(container, rows, "2024-03-01", 700)).toBe("4");
    // 0 is a value (lowest bin); a row without a value and a day without a row are outlines
    expect(binOfDay(container, rows, "2024-03-02", 700)).toBe("0");
    expect(binOfDay(container, rows, "2024-03-04", 700)).toBe("none");
    expect(binOfDay(container, rows, "2024-03-03", 700)).toBe("none");
    expect(container.querySelector('path[data-bin="none"]')?.getAttribute("fill")).toBe("none");
    expect(cellsOf(container).size).toBe(366);
  });

  it("draws at most the latest ten years with data and tells of the rest", () => {
    const data = [
      { d: "1066-10-14", v: 1 },
      ...Array.from({ length: 12 }, (_, k) => ({ d: `${2000 + k}-06-01`, v: k })),
    ];
    const frame = prepareCalendarFrame(data, { date: "d", value: "v" });
    expect(frame.years).toEqual(Array.from({ length: MAX_YEARS }, (_, k) => 2002 + k));
    expect(frame.hiddenDays).toBe(3);
    const { container } = render(
      <CalendarHeatmap data={data} date="d" value="v" locale="en-US" width={700} />,
    );
    expect(container.textContent).toContain(
      "Only the latest 10 years with data are drawn; 3 earlier days are not.",
    );
    expect(cellsOf(container).size).toBe(365 * 8 + 366 * 2);
  });

  it("reads days in the time zone given", () => {
    // 23:30 UTC on March 1st is March 2nd in Tokyo
    const frame = prepareCalendarFrame([{ d: Date.UTC(2024, 2, 1, 23, 30), v: 1 }], {
      date: "d",
      value: "v",
      timeZone: "Asia/Tokyo",
    });
    expect(frame.days[0]).toBe(Date.UTC(2024, 2, 2) / 86_400_000);
    const unknown = prepareCalendarFrame([{ d: new Date(Date.UTC(2024, 2, 1, 23, 30)), v: 1 }], {
      date: "d",
      value: "v",
      timeZone: "Nowhere/Else",
    });
    expect(unknown.timeZone).toBe("UTC");
    expect(unknown.days[0]).toBe(Date.UTC(2024, 2, 1) / 86_400_000);
  });

  it("bins equal values into one bin and extremes into the end bins", () => {
    expect(binOf(binsOf([3, 3], 5), 3)).toBe(0);
    const bins = binsOf([-1e300, 1e300], 5);
    expect(binOf(bins, 1e300)).toBe(4);
    expect(binOf(bins, -1e300)).toBe(0);
    expect(binOf(bins, Number.NaN)).toBe(-1);
  });

  it("lays out the first and last days a Date can hold", () => {
    const frame = prepareCalendarFrame(
      [
        { d: -8.64e15, v: 1 },
        { d: 8.64e15, v: 2 },
      ],
      { date: "d", value: "v" },
    );
    expect(frame.years).toEqual([-271821, 275760]);
    const layout = layoutCalendar(frame, binsOf(frame.range, 5), 640, 1);
    expect(layout.cells.filter((cell) => cell.bin >= 0)).toHaveLength(2);
    expect(layout.cells.length).toBeLessThanOrEqual(2 * 366);
  });
});
