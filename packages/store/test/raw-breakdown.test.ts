import { createReadStream, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ChartQueryInput } from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { QueryResult, Store } from "../src/index.js";
import { editor } from "./actors.js";
import { engines, openTestStore } from "./helpers.js";

// Raw values split by a breakdown (issue 27: a scatter's points coloured by group): every row is a
// point of its group's series; the groups with the most points are the series and the rest is
// Other; past the point budget each group keeps its lowest and highest value per step of x.

const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2_147_483_647);
console.log(`raw breakdown seed: ${seed} (rerun with SEED_PROPERTY_SEED=${seed})`);

const dataDir = join(
  dirname(createRequire(import.meta.url).resolve("vega-datasets")),
  "..",
  "data",
);

/** The columns of the point datasets made here: x, y and the group that colours them. */
const pointColumns = [
  { name: "x", type: "number" },
  { name: "y", type: "number" },
  { name: "group", type: "string" },
] as const;

/** A result's points: (x, series label, value) for every series value, sorted for comparison. */
function pointsOf(result: QueryResult): string[] {
  const labels = new Map(result.series.map((entry) => [entry.key, entry.label]));
  return result.rows
    .flatMap((row) =>
      result.series.flatMap((entry) => {
        const value = row[entry.key];
        return value === null || value === undefined
          ? []
          : [JSON.stringify([row.x ?? null, labels.get(entry.key), value])];
      }),
    )
    .sort();
}

/** Each row has at most one value: it is one point of one group. */
function onePointPerRow(result: QueryResult): boolean {
  return result.rows.every(
    (row) => result.series.filter((entry) => row[entry.key] !== null).length <= 1,
  );
}

/** Groups ranked by how many values they have (most first, then in byte order), the rest as Other. */
function expectedSeries(
  rows: ReadonlyArray<{ group: string | null; y: number | null }>,
  top: number,
): string[] {
  // A blank cell is stored empty: "" and null are one group.
  const counts = new Map<string | null, number>();
  for (const row of rows) {
    const group = row.group === "" ? null : row.group;
    counts.set(group, (counts.get(group) ?? 0) + (row.y === null ? 0 : 1));
  }
  const ranked = [...counts.entries()].sort(([a, countA], [b, countB]) => {
    if (countA !== countB) return countB - countA;
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    return Buffer.compare(Buffer.from(a), Buffer.from(b));
  });
  const labels = ranked.slice(0, top).map(([group]) => (group === null ? "(empty)" : group));
  return ranked.length > top
    ? [...labels, labels.includes("Other") ? "Other (rest)" : "Other"]
    : labels;
}

describe("raw values split by a breakdown", () => {
  it("cars.json: every car is a point of its origin, the same on every engine", async () => {
    const cars = JSON.parse(readFileSync(join(dataDir, "cars.json"), "utf8")) as Array<{
      Horsepower: number | null;
      Miles_per_Gallon: number | null;
      Origin: string;
    }>;
    const query: ChartQueryInput = {
      x: { column: "Horsepower" },
      measures: [{ column: "Miles_per_Gallon", aggregate: "none" }],
      breakdown: { column: "Origin", top: 5 },
    };
    const expected = cars
      .filter((car) => car.Miles_per_Gallon !== null)
      .map((car) => JSON.stringify([car.Horsepower, car.Origin, car.Miles_per_Gallon]))
      .sort();
    const answers: QueryResult[] = [];
    for (const engine of engines) {
      const store = await openTestStore(engine, { seedDemo: false });
      const imported = await store.importNewDataset(
        { name: "Cars", source: createReadStream(join(dataDir, "cars.json")), format: "json" },
        editor,
      );
      const result = await store.runChartQuery(imported.datasetId, query);
      expect(result.series.map((entry) => entry.label)).toEqual(["USA", "Japan", "Europe"]);
      expect(pointsOf(result)).toEqual(expected);
      expect(onePointPerRow(result)).toBe(true);
      answers.push(result);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it("on a line chart it is refused with what to do; a scatter chart keeps it", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const dataset = await store.createDataset(
      {
        name: "Points",
        columns: pointColumns.map((column) => ({ ...column })),
        rows: [
          { x: 1, y: 2, group: "a" },
          { x: 2, y: 3, group: "b" },
        ],
      },
      editor,
    );
    const query: ChartQueryInput = {
      x: { column: "x" },
      measures: [{ column: "y", aggregate: "none" }],
      breakdown: { column: "group", top: 5 },
    };
    const line = await store
      .createChart({ title: "Line", type: "line", datasetId: dataset.id, query }, editor)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(JSON.stringify(line)).toContain("splits aggregates only");
    const scatter = await store.createChart(
      { title: "Scatter", type: "scatter", datasetId: dataset.id, query },
      editor,
    );
    expect(scatter.query.breakdown).toEqual({ column: "group", top: 5 });
  });

  for (const engine of engines) {
    it(`random rows and budgets on ${engine}: every point kept, or each group's extremes (property)`, async () => {
      const store: Store = await openTestStore(engine, { seedDemo: false });
      // Skewed groups: one common, a few rare, empty values and a group called Other.
      const group = fc.oneof(
        { weight: 6, arbitrary: fc.constant("North") },
        { weight: 3, arbitrary: fc.constantFrom("South", "Île", "Other") },
        { weight: 1, arbitrary: fc.constantFrom("", null) },
      );
      const row = fc.record({
        x: fc.option(fc.integer({ min: -1_000_000, max: 1_000_000 }), { nil: null, freq: 10 }),
        y: fc.option(
          fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(0, -0.5, 1e15)),
          { nil: null, freq: 8 },
        ),
        group,
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(row, { minLength: 0, maxLength: 120 }),
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 2, max: 150 }),
          async (rows, top, maxPoints) => {
            const dataset = await store.createDataset(
              {
                name: "Random points",
                columns: pointColumns.map((column) => ({ ...column })),
                rows,
              },
              editor,
            );
            const result = await store.runChartQuery(
              dataset.id,
              {
                x: { column: "x" },
                measures: [{ column: "y", aggregate: "none" }],
                breakdown: { column: "group", top },
              },
              { maxPoints },
            );
            const series = expectedSeries(rows, top);
            expect(result.series.map((entry) => entry.label)).toEqual(series);
            expect(onePointPerRow(result)).toBe(true);
            const shown = new Set(series.slice(0, top));
            const labelOf = (value: string | null) => {
              const label = value === null || value === "" ? "(empty)" : value;
              return shown.has(label) ? label : (series[top] as string);
            };
            const points = rows
              .filter((entry) => entry.y !== null)
              .map((entry) => ({ x: entry.x, label: labelOf(entry.group), y: entry.y as number }));
            if (rows.length <= maxPoints) {
              expect(pointsOf(result)).toEqual(
                points.map((point) => JSON.stringify([point.x, point.label, point.y])).sort(),
              );
              return;
            }
            // Downsampled: within the budget (or two points a group, where the budget is smaller),
            // and each group's lowest and highest value (of rows with an x) is still its point.
            expect(result.rows.length).toBeLessThanOrEqual(Math.max(maxPoints, 2 * series.length));
            expect(result.notes.join(" ")).toMatch(/Downsampled \d/);
            const drawn = new Set(
              pointsOf(result).map((point) => JSON.parse(point).slice(1).join()),
            );
            for (const label of new Set(points.map((point) => point.label))) {
              const ys = points
                .filter((point) => point.label === label && point.x !== null)
                .map((point) => point.y);
              if (ys.length === 0) continue;
              expect(drawn).toContain(`${label},${Math.min(...ys)}`);
              expect(drawn).toContain(`${label},${Math.max(...ys)}`);
            }
          },
        ),
        { seed, numRuns: 60 },
      );
    }, 120_000);
  }
});
