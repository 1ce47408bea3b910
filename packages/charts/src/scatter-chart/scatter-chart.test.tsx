import { act, fireEvent, render, screen, within } from "@testing-library/react";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { PALETTE_SIZE } from "../data/series";
import { exportChartCsv } from "../export/export-chart";
import { assertSeeded } from "../testing/property";
import { type Car, vegaCars } from "../testing/vega-cars";
import { NO_GROUP, niceDomain, OTHER_GROUP, prepareScatterFrame, thinScatter } from "./prepare";
import { ScatterChart } from "./scatter-chart";

/** Circles drawn, counted from the point paths (one "M" per point). */
function drawnPoints(container: HTMLElement): number {
  return [...container.querySelectorAll(".seed-scatter-points path")].reduce(
    (sum, path) => sum + (path.getAttribute("d")?.match(/M/g)?.length ?? 0),
    0,
  );
}

function carsChart(extra: Partial<Parameters<typeof ScatterChart<Car>>[0]> = {}) {
  return (
    <ScatterChart
      data={vegaCars()}
      x="Horsepower"
      y="Miles_per_Gallon"
      color="Origin"
      size="Weight_in_lbs"
      label="Name"
      xLabel="Horsepower"
      yLabel="Miles per gallon"
      sizeLabel="Weight (lbs)"
      locale="en-US"
      width={640}
      animate={false}
      {...extra}
    />
  );
}

describe("ScatterChart", () => {
  it("draws every car with both values, one legend entry per origin, most cars first", () => {
    const issues = vi.fn();
    const { container } = render(carsChart({ onDataIssues: issues }));
    const cars = vegaCars();
    const complete = cars.filter((car) => car.Horsepower !== null && car.Miles_per_Gallon !== null);
    expect(drawnPoints(container)).toBe(complete.length);
    // the cars without one of the two values are named, not silently left out
    const reported = new Set(issues.mock.calls.flat(2).map((issue) => issue.row));
    expect(reported.size).toBe(cars.length - complete.length);
    const legend = screen.getAllByRole("button").map((button) => button.textContent);
    expect(legend).toEqual(["USA", "Japan", "Europe"]);
    const figure = screen.getByRole("figure");
    expect(figure).toHaveAccessibleName(
      "Scatter chart of Miles per gallon by Horsepower and Origin",
    );
    expect(figure).toHaveAccessibleDescription(
      `Scatter chart of ${complete.length} points, Horsepower from 46 to 230, Miles per gallon from 9 to 46.6; 3 Origin groups, most points in USA.`,
    );
  });

  it("moves between points with the arrow keys, tells each, and reports Enter", () => {
    const changes = vi.fn();
    const { container } = render(carsChart({ onValueChange: changes }));
    const surface = container.querySelector(".recharts-surface") as SVGElement;
    const live = container.querySelector("[aria-live=polite]") as HTMLElement;
    act(() => surface.focus());
    fireEvent.keyDown(surface, { key: "ArrowRight" });
    // the least horsepower first: the 46 hp Volkswagen 1131 Deluxe Sedan
    expect(live.textContent).toMatch(
      /^volkswagen 1131 deluxe sedan: Horsepower 46, Miles per gallon 26/,
    );
    expect(screen.getByText("volkswagen 1131 deluxe sedan")).toBeVisible();
    fireEvent.keyDown(surface, { key: "End" });
    expect(live.textContent).toMatch(/Horsepower 230/);
    fireEvent.keyDown(surface, { key: "Enter" });
    const event = changes.mock.calls.at(-1)?.[0];
    expect(event.row.Horsepower).toBe(230);
    expect(event.seriesKey).toBe("USA");
    fireEvent.keyDown(surface, { key: "Escape" });
    expect(live.textContent).toBe("");
    expect(container.querySelector(".seed-scatter-tooltip")).toBeNull();
  });

  it("hides an origin from its legend entry and draws the rest", () => {
    const { container } = render(carsChart());
    const all = drawnPoints(container);
    // a point shown before the change is not said to be there after it
    const surface = container.querySelector(".recharts-surface") as SVGElement;
    const live = container.querySelector("[aria-live=polite]") as HTMLElement;
    act(() => surface.focus());
    fireEvent.keyDown(surface, { key: "End" });
    expect(container.querySelector(".seed-scatter-active")).not.toBeNull();
    expect(live.textContent).not.toBe("");
    fireEvent.click(screen.getByRole("button", { name: /Europe/ }));
    const europe = vegaCars().filter(
      (car) => car.Origin === "Europe" && car.Horsepower !== null && car.Miles_per_Gallon !== null,
    ).length;
    expect(drawnPoints(container)).toBe(all - europe);
    expect(container.querySelector(".seed-scatter-active")).toBeNull();
    expect(live.textContent).toBe("");
  });

  it("exports the drawn points with the columns' names and raw numbers", () => {
    const { container } = render(carsChart());
    const csv = exportChartCsv(container.querySelector(".seed-chart"));
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe("Horsepower,Miles per gallon,Weight (lbs),Origin");
    expect(lines).toContain("130,18,3504,USA");
  });

  it("lists at most 200 drawn points for screen readers, the highest and lowest y kept", () => {
    render(carsChart());
    const table = screen.getByTestId("seed-chart-table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(200);
    const ys = rows.map((row) => Number(row.querySelector("td")?.textContent));
    expect(Math.max(...ys)).toBe(46.6);
    expect(Math.min(...ys)).toBe(9);
  });

  it("past maxPoints thins by cell and says how many points a drawn one stands for", () => {
    const walk: { t: number; v: number; k: string }[] = [];
    let v = 0;
    for (let i = 0; i < 50_000; i++) {
      v += Math.sin(i * 12.9898) * 0.5;
      walk.push({ t: i, v, k: i % 7 === 0 ? "rare" : "common" });
    }
    const { container } = render(
      <ScatterChart data={walk} x="t" y="v" color="k" maxPoints={400} width={640} />,
    );
    const drawn = drawnPoints(container);
    expect(drawn).toBeGreaterThan(100);
    expect(drawn).toBeLessThan(2 * 400 * 1.2);
    const csv = exportChartCsv(container.querySelector(".seed-chart")).trim().split(/\r?\n/);
    expect(csv[0]).toBe("t,v,k,Points here");
    const total = csv.slice(1).reduce((sum, line) => sum + Number(line.split(",")[3]), 0);
    expect(total).toBe(walk.length);
  });

  it("shows why nothing is drawn when no row has both values", () => {
    render(
      <ScatterChart
        data={[
          { a: "x", b: 1 },
          { a: null, b: 2 },
        ]}
        x="a"
        y="b"
        width={400}
      />,
    );
    expect(screen.getByTestId("seed-chart-empty")).toHaveTextContent(
      "No row has a valid number for a and number for b",
    );
  });
});

describe("prepareScatterFrame", () => {
  it("folds colour values past the palette into Other, least common first, names kept apart", () => {
    // "Other" is the commonest value, then missing ones, then a..h ever fewer (20 down to 13)
    const values: (string | null)[] = [
      ...Array<string>(50).fill("Other"),
      ...Array<null>(30).fill(null),
      ..."abcdefgh".split("").flatMap((letter, k) => Array<string>(20 - k).fill(letter)),
    ];
    const rows = values.map((c, i) => ({ x: i, y: i, c }));
    const frame = prepareScatterFrame(rows, { x: "x", y: "y", color: "c" });
    expect(frame.groups).toHaveLength(PALETTE_SIZE);
    expect(new Set(frame.groups).size).toBe(PALETTE_SIZE);
    expect(frame.groups).toEqual(["Other", NO_GROUP, "a", "b", "c", "d", "e", `${OTHER_GROUP} 2`]);
    expect(frame.groupCounts).toEqual([50, 30, 20, 19, 18, 17, 16, 15 + 14 + 13]);
    // "(none)" only when values are missing, and never merged with a value of that name
    const blank = prepareScatterFrame([{ x: 1, y: 1, c: null }], { x: "x", y: "y", color: "c" });
    expect(blank.groups).toEqual([NO_GROUP]);
  });
});

describe("niceDomain", () => {
  it("widens an axis to a caller's bound but never cuts points off", () => {
    expect(niceDomain([12, 47])).toEqual({ domain: [10, 50], ticks: [10, 20, 30, 40, 50] });
    expect(niceDomain([12, 47], { min: 0 }).domain[0]).toBe(0);
    // a bound inside the data is ignored: every point stays drawn
    expect(niceDomain([12, 47], { min: 30, max: 20 }).domain).toEqual([10, 50]);
    expect(niceDomain([12, 47], { min: "dataMin", max: "dataMax" }).domain).toEqual([12, 47]);
    // one value: an axis around it, not a zero-width one
    const single = niceDomain([5, 5]);
    expect(single.domain[0]).toBeLessThan(5);
    expect(single.domain[1]).toBeGreaterThan(5);
  });
});

describe("thinScatter", () => {
  it("keeps one point per group and cell, counts every shown point, and draws no hidden group", () => {
    assertSeeded(
      "thinScatter keeps one point per group and cell",
      fc.property(
        fc.array(
          fc.record({
            x: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
            y: fc.oneof(fc.constant(0), fc.double({ min: -1e3, max: 1e3, noNaN: true })),
            g: fc.integer({ min: 0, max: 3 }),
          }),
          { maxLength: 400 },
        ),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 900 }),
        fc.integer({ min: 1, max: 500 }),
        fc.subarray([0, 1, 2, 3]),
        (points, limit, width, height, hidden) => {
          const frame = prepareScatterFrame(
            points.map((p) => ({ ...p, g: `g${p.g}` })),
            { x: "x", y: "y", color: "g" },
          );
          const hiddenGroups = new Set(
            hidden.map((g) => frame.groups.indexOf(`g${g}`)).filter((k) => k >= 0),
          );
          const sample = thinScatter(frame, width, height, limit, hiddenGroups);
          let shown = 0;
          for (const g of frame.group) if (!hiddenGroups.has(g)) shown++;
          const counted = sample.counts.reduce((sum, count) => sum + count, 0);
          expect(counted).toBe(shown);
          for (const point of sample.points) {
            expect(hiddenGroups.has(frame.group[point] as number)).toBe(false);
          }
          if (shown <= limit) {
            expect(sample.points.length).toBe(shown);
            return;
          }
          // thinned: no two drawn points of one group share a cell
          const [x0, x1] = frame.xRange ?? [0, 0];
          const [y0, y1] = frame.yRange ?? [0, 0];
          const columns = Math.ceil(width / sample.cell);
          const rows = Math.ceil(height / sample.cell);
          const cells = new Set<string>();
          for (const point of sample.points) {
            const cx =
              x1 > x0
                ? Math.floor((((frame.xs[point] as number) - x0) / (x1 - x0)) * (columns - 1e-9))
                : 0;
            const cy =
              y1 > y0
                ? Math.floor((((frame.ys[point] as number) - y0) / (y1 - y0)) * (rows - 1e-9))
                : 0;
            const key = `${frame.group[point]}:${cx}:${cy}`;
            expect(cells.has(key)).toBe(false);
            cells.add(key);
          }
        },
      ),
      300,
    );
  });
});
