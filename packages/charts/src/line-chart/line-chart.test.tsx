// Over 500 lines on purpose: the line chart is the reference for the shared cartesian parts, so its
// suites (axes, legend, tooltip, states, large data, columns) cover them once for all charts.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { expectDrawsAnyRows } from "../testing/random-rows";
import { tickTexts } from "../testing/ticks";
import { LineChart, type LineChartProps } from "./line-chart";

interface SalesRow {
  date: string;
  revenue: number | null;
  cost: number;
}

function salesRows(): SalesRow[] {
  return [
    { date: "2024-01-01", revenue: 1200, cost: 500 },
    { date: "2024-02-01", revenue: 2000, cost: 800 },
    { date: "2024-03-01", revenue: 1500, cost: 900 },
  ];
}

/** The sales rows by date at 600 px, revenue only; each test adds or overrides the props it is about. */
function renderSales(props: Partial<LineChartProps<SalesRow>> = {}) {
  return render(
    <LineChart data={salesRows()} index="date" series={["revenue"]} width={600} {...props} />,
  );
}

function hover(container: HTMLElement, clientX: number) {
  const wrapper = container.querySelector(".recharts-wrapper") as HTMLElement;
  fireEvent.mouseMove(wrapper, { clientX, clientY: 100 });
}

/** A 600 px plot draws about its width in points, and the table still has the peak's row. */
function expectDownsampledKeepingPeak(
  container: HTMLElement,
  peakIndex: string,
  peakValue: string,
) {
  const path = container.querySelector(".recharts-line-curve")?.getAttribute("d") ?? "";
  const drawnPoints = (path.match(/[MLC]/g) ?? []).length;
  expect(drawnPoints).toBeLessThanOrEqual(600);
  expect(drawnPoints).toBeGreaterThan(200);
  const peak = Array.from(screen.getByRole("table").querySelectorAll("tbody tr")).find((tr) =>
    tr.querySelector("th")?.textContent?.includes(peakIndex),
  );
  expect(peak).toHaveTextContent(peakValue);
}

describe("LineChart axes and grid", () => {
  it("formats a date index with Intl in the given locale", () => {
    const { container } = renderSales({ locale: "de-DE" });

    expect(tickTexts(container, "xAxis")).toEqual(["Jan. 2024", "Feb. 2024", "März 2024"]);
    expect(tickTexts(container, "yAxis")).toContain("2000");
  });

  it("accepts Date objects and numbers as the index", () => {
    const dates = [
      { at: new Date(Date.UTC(2024, 0, 1)), v: 1 },
      { at: new Date(Date.UTC(2024, 0, 3)), v: 2 },
    ];
    const numbers = [
      { x: 1000, v: 1 },
      { x: 2000, v: 2 },
    ];

    const first = render(<LineChart data={dates} index="at" series={["v"]} width={600} />);
    const dateTicks = tickTexts(first.container, "xAxis");
    first.unmount();
    const second = render(<LineChart data={numbers} index="x" series={["v"]} width={600} />);

    expect(dateTicks[0]).toBe("Jan 1");
    expect(tickTexts(second.container, "xAxis")).toContain("1,000");
  });

  it("writes a number index by xAxis.numberFormat in ticks, tooltip, table and summary", async () => {
    const years = Array.from({ length: 13 }, (_, i) => ({ year: 1900 + i * 10, people: 10 + i }));
    const grouped = render(
      <LineChart data={years} index="year" series={["people"]} width={600} locale="en-US" />,
    );
    const groupedTicks = tickTexts(grouped.container, "xAxis");
    grouped.unmount();

    const { container } = render(
      <LineChart
        data={years}
        index="year"
        series={["people"]}
        width={600}
        locale="en-US"
        title="People"
        xAxis={{ numberFormat: { useGrouping: false } }}
      />,
    );

    // without the option the locale's grouping stays
    expect(groupedTicks).toContain("1,900");
    const ticks = tickTexts(container, "xAxis");
    expect(ticks).toContain("1900");
    expect(ticks).toContain("2020");
    expect(ticks.filter((tick) => tick.includes(","))).toEqual([]);
    expect(screen.getByRole("figure", { name: "People" })).toHaveAccessibleDescription(
      /13 points from 1900 to 2020/,
    );
    const table = screen.getByRole("table", { name: "People" });
    expect(within(table).getByRole("row", { name: /^1900/ })).toHaveTextContent("10");
    hover(container, 60);
    await waitFor(() => expect(container.querySelector(".seed-chart-tooltip")).not.toBeNull());
    expect(container.querySelector(".seed-chart-tooltip")).toHaveTextContent(/^19[0-9]0people/);
  });

  it("applies axis min/max, labels and a custom tick formatter", () => {
    const { container } = renderSales({
      yAxis: { min: 0, max: 4000, label: "Euros", tickFormatter: (v) => `€${v}` },
    });

    const ticks = tickTexts(container, "yAxis");
    expect(ticks[0]).toBe("€0");
    expect(ticks[ticks.length - 1]).toBe("€4000");
    expect(container.querySelector(".recharts-label")?.textContent).toBe("Euros");
  });

  it("hides an axis when asked", () => {
    const { container } = renderSales({ xAxis: { show: false } });

    expect(tickTexts(container, "xAxis")).toEqual([]);
    expect(tickTexts(container, "yAxis").length).toBeGreaterThan(0);
  });

  it("draws horizontal, vertical, both or no grid lines", () => {
    const count = (grid: "horizontal" | "vertical" | "both" | "none") => {
      const { container, unmount } = renderSales({ grid });
      const h = container.querySelectorAll(".recharts-cartesian-grid-horizontal line").length;
      const v = container.querySelectorAll(".recharts-cartesian-grid-vertical line").length;
      unmount();
      return [h > 0, v > 0];
    };

    expect(count("horizontal")).toEqual([true, false]);
    expect(count("vertical")).toEqual([false, true]);
    expect(count("both")).toEqual([true, true]);
    expect(count("none")).toEqual([false, false]);
  });
});

describe("LineChart legend", () => {
  it("lists each series once with its label", () => {
    renderSales({ series: ["revenue", { key: "cost", label: "Cost of goods" }] });

    const legend = screen.getByRole("list", { name: /legend/i });
    expect(
      within(legend)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["revenue", "Cost of goods"]);
  });

  it("hides and shows a series on click", async () => {
    const user = userEvent.setup();
    const { container } = renderSales({ series: ["revenue", "cost"] });
    const button = screen.getByRole("button", { name: "cost" });

    await user.click(button);

    expect(button).toHaveAttribute("aria-pressed", "false");
    expect(container.querySelectorAll(".recharts-line-curve")).toHaveLength(1);
    await user.click(button);
    expect(container.querySelectorAll(".recharts-line-curve")).toHaveLength(2);
  });

  it("toggles with Enter and Space", async () => {
    const user = userEvent.setup();
    const { container } = renderSales({ series: ["revenue", "cost"] });
    const button = screen.getByRole("button", { name: "revenue" });
    button.focus();

    await user.keyboard("{Enter}");
    expect(button).toHaveAttribute("aria-pressed", "false");
    expect(container.querySelectorAll(".recharts-line-curve")).toHaveLength(1);
    await user.keyboard(" ");
    expect(button).toHaveAttribute("aria-pressed", "true");
  });

  it("with onLegendSelect, pressing an entry selects its series instead of hiding it", async () => {
    const user = userEvent.setup();
    const onLegendSelect = vi.fn();
    const { container } = renderSales({ series: ["revenue", "cost"], onLegendSelect });
    expect(
      screen.getByRole("list", { name: "Legend: press a series to select it" }),
    ).toBeInTheDocument();
    const button = screen.getByRole("button", { name: "cost" });

    await user.click(button);
    screen.getByRole("button", { name: "revenue" }).focus();
    await user.keyboard("{Enter}");

    expect(onLegendSelect.mock.calls).toEqual([["cost"], ["revenue"]]);
    // a plain button, not a toggle, and every series still drawn
    expect(button).not.toHaveAttribute("aria-pressed");
    expect(container.querySelectorAll(".recharts-line-curve")).toHaveLength(2);
  });

  it("dims the other series while one legend item is hovered", async () => {
    const user = userEvent.setup();
    const { container } = renderSales({ series: ["revenue", "cost"] });

    await user.hover(screen.getByRole("button", { name: "revenue" }));

    const opacities = Array.from(container.querySelectorAll(".recharts-line-curve")).map((path) =>
      path.getAttribute("stroke-opacity"),
    );
    expect(opacities).toEqual(["1", "0.2"]);
  });

  it("puts a full-name tooltip on long legend names", () => {
    const label = "Revenue from annual enterprise subscriptions";
    renderSales({ series: [{ key: "revenue", label }] });

    expect(screen.getByRole("tooltip", { hidden: true })).toHaveTextContent(label);
  });

  it("can sit at the top, left or right, or be turned off", () => {
    const { container, rerender } = renderSales({ legend: "right" });
    expect(container.querySelector("figure")).toHaveAttribute("data-legend", "right");

    rerender(
      <LineChart data={salesRows()} index="date" series={["revenue"]} width={600} legend={false} />,
    );
    expect(screen.queryByRole("list", { name: /legend/i })).toBeNull();
  });
});

describe("LineChart tooltip", () => {
  it("shows formatted values of the hovered point", async () => {
    const { container } = renderSales({
      series: ["revenue", { key: "cost", label: "Cost", formatter: (v) => `$${v.toFixed(2)}` }],
      locale: "en-US",
    });

    hover(container, 330);

    await waitFor(() => expect(container.querySelector(".seed-chart-tooltip")).not.toBeNull());
    const tooltip = container.querySelector(".seed-chart-tooltip") as HTMLElement;
    expect(tooltip).toHaveTextContent("Feb 1, 2024");
    expect(tooltip).toHaveTextContent("revenue2,000");
    expect(tooltip).toHaveTextContent("Cost$800.00");
  });

  it("renders custom content from a render prop with the typed row", async () => {
    const { container } = renderSales({
      tooltip: ({ row, items }) => (
        <div data-testid="custom">
          {row.date} / {items[0]?.formattedValue}
        </div>
      ),
    });

    hover(container, 60);

    await waitFor(() =>
      expect(screen.getByTestId("custom")).toHaveTextContent("2024-01-01 / 1,200"),
    );
  });

  it("moves between points with the arrow keys and announces them", async () => {
    const { container } = renderSales();
    const svg = container.querySelector("svg.recharts-surface") as SVGElement;

    act(() => svg.focus());
    fireEvent.keyDown(svg, { key: "ArrowRight" });

    const live = container.querySelector("[aria-live=polite]") as HTMLElement;
    await waitFor(() => expect(live).toHaveTextContent("Feb 1, 2024: revenue 2,000"));
    fireEvent.keyDown(svg, { key: "ArrowRight" });
    await waitFor(() => expect(live).toHaveTextContent("Mar 1, 2024: revenue 1,500"));
  });
});

describe("LineChart typing", () => {
  it("checks index and series keys against the row type (verified by tsc)", () => {
    const rows = salesRows();

    const charts = [
      // @ts-expect-error "day" is not a key of SalesRow
      <LineChart key="index" data={rows} index="day" series={["revenue"]} width={600} />,
      // @ts-expect-error "profit" is not a key of SalesRow
      <LineChart key="series" data={rows} index="date" series={["profit"]} width={600} />,
      <LineChart
        key="config"
        data={rows}
        index="date"
        // @ts-expect-error a series config's key is checked too
        series={[{ key: "margin", label: "Margin" }]}
        width={600}
      />,
    ];

    expect(charts).toHaveLength(3);
  });
});

describe("LineChart accessibility", () => {
  it("has an accessible name, a summary and a hidden data table", () => {
    renderSales({ series: ["revenue", "cost"], title: "Monthly sales", locale: "en-US" });

    const figure = screen.getByRole("figure", { name: "Monthly sales" });
    expect(figure).toHaveAccessibleDescription(
      "Line chart of revenue and cost by date, 3 points from Jan 1, 2024 to Mar 1, 2024; revenue from 1,200 to 2,000, cost from 500 to 900.",
    );
    const table = screen.getByRole("table", { name: "Monthly sales" });
    expect(within(table).getAllByRole("row")).toHaveLength(4);
    expect(within(table).getByRole("row", { name: /Feb 1, 2024/ })).toHaveTextContent("2,000");
    expect(screen.getByRole("application")).toHaveAttribute("tabindex", "0");
  });
});

describe("LineChart states and bad data", () => {
  it("shows the empty state for no rows", () => {
    render(<LineChart data={[] as SalesRow[]} index="date" series={["revenue"]} width={600} />);

    expect(screen.getByTestId("seed-chart-empty")).toHaveTextContent("No data to display");
    expect(screen.queryByRole("application")).toBeNull();
  });

  it("shows a same-size skeleton while loading", () => {
    const { container } = render(
      <LineChart data={salesRows()} index="date" series={["revenue"]} height={240} loading />,
    );

    expect(screen.getByTestId("seed-chart-skeleton")).toBeInTheDocument();
    expect(container.querySelector(".seed-chart-plot")).toHaveStyle({ height: "240px" });
    expect(screen.getByRole("figure")).toHaveAttribute("aria-busy", "true");
  });

  it("draws the valid rows of bad data and warns naming the dropped ones", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const rows = [
      { date: "2024-01-01", revenue: 10 },
      { date: "2024-01-02", revenue: Number.NaN },
      { date: "2024-01-03", revenue: Number.POSITIVE_INFINITY },
      { date: "2024-01-04", revenue: "12" },
      { date: "2024-01-01", revenue: 99 },
      { date: "not a date", revenue: 3 },
      { date: "2024-01-06", revenue: 20 },
    ] as unknown as { date: string; revenue: number }[];

    render(<LineChart data={rows} index="date" series={["revenue"]} width={600} />);

    expect(screen.getByRole("application")).toBeInTheDocument();
    const message = String(warn.mock.calls[0]?.[0]);
    for (const row of [1, 2, 3, 4, 5]) expect(message).toContain(`row ${row} `);
    expect(message).not.toContain("row 0 ");
    warn.mockRestore();
  });

  it("shows the empty state with a reason when no value is valid", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const rows = [{ date: "2024-01-01", revenue: "n/a" }] as unknown as SalesRow[];

    render(<LineChart data={rows} index="date" series={["revenue"]} width={600} />);

    expect(screen.getByTestId("seed-chart-empty")).toHaveTextContent("No valid values to show");
    warn.mockRestore();
  });

  it("breaks the line at nulls unless connectNulls is set", () => {
    const rows = salesRows().map((row, i) => (i === 1 ? { ...row, revenue: null } : row));
    const pathOf = (connectNulls: boolean) => {
      const { container, unmount } = renderSales({ data: rows, connectNulls });
      const d = container.querySelector(".recharts-line-curve")?.getAttribute("d") ?? "";
      unmount();
      return d;
    };

    expect(pathOf(false).match(/M/g)).toHaveLength(2);
    expect(pathOf(true).match(/M/g)).toHaveLength(1);
  });

  it("never throws on random rows", () => {
    const value = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.string({ maxLength: 4 }),
      fc.constant(null),
      fc.constant(undefined),
    );
    const index = fc.oneof(
      fc.date({ noInvalidDate: false }),
      fc.integer(),
      fc.string({ maxLength: 4 }),
    );
    expectDrawsAnyRows(
      fc.array(fc.record({ x: index, a: value, b: value }), { maxLength: 30 }),
      (rows) => <LineChart data={rows} index="x" series={["a", "b"]} width={400} height={200} />,
      25,
    );
  }, 60_000);
});

describe("LineChart large data and events", () => {
  it("downsamples a long series to about the plot width and keeps its peak", () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ x: i, v: Math.sin(i / 50) }));
    rows[12_345] = { x: 12_345, v: 42 };

    const { container } = render(<LineChart data={rows} index="x" series={["v"]} width={600} />);

    expectDownsampledKeepingPeak(container, "12,345", "42");
    expect(screen.getByRole("table").querySelector("caption")?.textContent).toMatch(
      /of \d+ drawn points, peaks kept/,
    );
  });

  it("draws every point when downsampling is off", () => {
    const rows = Array.from({ length: 1500 }, (_, i) => ({ x: i, v: i % 7 }));

    render(<LineChart data={rows} index="x" series={["v"]} width={600} downsample="none" />);

    const caption = screen.getByRole("table").querySelector("caption");
    expect(caption?.textContent).toMatch(/of 1500 drawn points/);
  });

  it("lists every drawn point in the table when there are few", () => {
    renderSales();

    expect(screen.getByRole("table").querySelectorAll("tbody tr")).toHaveLength(3);
  });

  it("reports the keyboard-selected point on Enter", async () => {
    const onValueChange = vi.fn();
    const { container } = renderSales({ onValueChange });
    const svg = container.querySelector("svg.recharts-surface") as SVGElement;
    const live = container.querySelector("[aria-live=polite]") as HTMLElement;

    act(() => svg.focus());
    fireEvent.keyDown(svg, { key: "ArrowRight" });
    await waitFor(() => expect(live).toHaveTextContent("Feb 1, 2024"));
    fireEvent.keyDown(svg, { key: "Enter" });

    expect(onValueChange).toHaveBeenCalledWith({ row: salesRows()[1], rowIndex: 1 });
  });

  it("reports the clicked point with its row", async () => {
    const onValueChange = vi.fn();
    const { container } = renderSales({ onValueChange });
    const wrapper = container.querySelector(".recharts-wrapper") as HTMLElement;

    hover(container, 330);
    await waitFor(() => expect(container.querySelector(".seed-chart-tooltip")).not.toBeNull());
    fireEvent.click(wrapper, { clientX: 330, clientY: 100 });

    await waitFor(() =>
      expect(onValueChange).toHaveBeenCalledWith({ row: salesRows()[1], rowIndex: 1 }),
    );
  });
});

describe("LineChart with typed-array columns", () => {
  type Metrics = { time: number; cpu: number; memory: number };

  it("downsamples a million points given as Float64Arrays and keeps the spike", () => {
    const n = 1_000_000;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = i;
      y[i] = Math.sin(i / 5000);
    }
    y[654_321] = 50;

    const { container } = render(
      <LineChart<Metrics> data={{ cpu: { x, y } }} index="time" series={["cpu"]} width={600} />,
    );

    expectDownsampledKeepingPeak(container, "654,321", "50");
  });

  it("reports invalid values, hands tooltips a row built from the point, and reads time", async () => {
    const onDataIssues = vi.fn();
    const day = 86_400_000;
    const { container } = render(
      <LineChart<Metrics>
        data={{
          cpu: { x: new Float64Array([0, day, 2 * day]), y: new Float64Array([1, Number.NaN, 3]) },
          memory: { x: new Float64Array([0, 2 * day]), y: new Float64Array([5, 7]) },
        }}
        index="time"
        indexType="time"
        series={["cpu", "memory"]}
        width={600}
        locale="en-US"
        onDataIssues={onDataIssues}
        tooltip={({ row, rowIndex }) => (
          <div data-testid="custom">{`${rowIndex}: ${row.time} ${row.cpu} ${row.memory}`}</div>
        )}
      />,
    );

    expect(onDataIssues).toHaveBeenCalledWith([
      { row: 1, key: "cpu", reason: "NaN is not a finite number" },
    ]);
    expect(tickTexts(container, "xAxis")[0]).toBe("Jan 1");
    hover(container, 70);
    await waitFor(() => expect(screen.getByTestId("custom")).toHaveTextContent("0: 0 1 5"));
  });

  it("checks column keys against the row type (verified by tsc)", () => {
    const x = new Float64Array(1);
    const charts = [
      // @ts-expect-error "disk" is not a key of Metrics
      <LineChart<Metrics> key="data" data={{ disk: { x, y: x } }} index="time" series={["cpu"]} />,
      <LineChart<Metrics> key="ok" data={{ cpu: { x, y: x } }} index="time" series={["cpu"]} />,
    ];

    expect(charts).toHaveLength(2);
  });
});

describe("LineChart syncId", () => {
  it("moves the other chart's tooltip to the nearest x, though each is downsampled differently", async () => {
    const dense = Array.from({ length: 20_000 }, (_, i) => ({ x: i, v: Math.sin(i / 100) }));
    const sparse = Array.from({ length: 21 }, (_, i) => ({ x: i * 1000, w: i }));
    const { container } = render(
      <>
        <LineChart data={dense} index="x" series={["v"]} width={600} syncId="sync-test" />
        <LineChart data={sparse} index="x" series={["w"]} width={600} syncId="sync-test" />
      </>,
    );
    const [first, second] = Array.from(container.querySelectorAll("figure.seed-chart"));

    hover(first as HTMLElement, 330);

    await waitFor(() =>
      expect((second as HTMLElement).querySelector(".seed-chart-tooltip")).not.toBeNull(),
    );
    const shown = (first as HTMLElement).querySelector(".seed-chart-tooltip")?.textContent ?? "";
    const x = Number(/^([\d,]+)/.exec(shown)?.[1]?.replaceAll(",", ""));
    const other = (second as HTMLElement).querySelector(".seed-chart-tooltip")?.textContent ?? "";
    // the sparse chart shows its point nearest to the hovered x
    expect(other.startsWith((Math.round(x / 1000) * 1000).toLocaleString("en-US"))).toBe(true);
  });
});

describe("LineChart value axis width", () => {
  type Point = { m: number; v: number };

  /** Left edge of the plot: where the horizontal grid lines start. */
  function plotLeft(container: HTMLElement): number {
    const line = container.querySelector(".recharts-cartesian-grid-horizontal line");
    return Number(line?.getAttribute("x1") ?? line?.getAttribute("x"));
  }

  it("is as wide as its longest tick label from the first drawing, narrow for short labels", () => {
    /** Two points, v1 and v2, at 600 px. */
    const renderValues = (v1: number, v2: number, props: Partial<LineChartProps<Point>> = {}) =>
      render(
        <LineChart
          data={[
            { m: 1, v: v1 },
            { m: 2, v: v2 },
          ]}
          index="m"
          series={["v"]}
          width={600}
          {...props}
        />,
      );
    const wide = renderValues(48_250.5, 52_000, {
      locale: "en-US",
      valueFormatter: (v) =>
        v.toLocaleString("en-US", {
          style: "currency",
          currency: "USD",
          minimumFractionDigits: 2,
        }),
    });
    // "$52,000.00" is 10 characters: at least 7 px each plus the tick line
    expect(plotLeft(wide.container)).toBeGreaterThanOrEqual(4 + 70 + 8);
    wide.unmount();

    // ticks 0, 1, 2, 3, 4: one character each (1 and 2 would tick by 0.25: "1.25" is four)
    const narrow = renderValues(0, 4);
    expect(plotLeft(narrow.container)).toBeLessThan(45);
  });
});
