import type { ChartQueryInput } from "@seed/model";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../src/index.js";
import { editor } from "./actors.js";
import { openSuiteStore } from "./helpers.js";

// Property: for random datasets and random queries, SQLite, PostgreSQL and DuckDB (the data file)
// return the same result. Days and instants reach back to 1900 (before the epoch, where integer
// bucket keys must floor) and forward to 2100; grains go down to the minute.
// Values are multiples of 0.25 well inside 2^53, so sums are exact whatever the summing order.
const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2_147_483_647);
console.log(`query-property seed: ${seed} (rerun with SEED_PROPERTY_SEED=${seed})`);

const columns = [
  { name: "day", type: "date" },
  { name: "at", type: "timestamp" },
  { name: "region", type: "string" },
  { name: "revenue", type: "number" },
] as const;

const dayMs = 86_400_000;
const row = fc.record({
  // 1900-01-01 .. 2100-12-31, with leap days, year ends and the epoch reachable.
  day: fc
    .integer({ min: -25_567, max: 47_846 })
    .map((n) => new Date(n * dayMs).toISOString().slice(0, 10)),
  // 1900 .. 2100, or 2019 .. 2027: a few years cross few offset changes, so DuckDB's buckets
  // take the zone's offset spans; a wider range leaves the zone to ICU.
  at: fc
    .oneof(
      fc.integer({ min: -2_208_988_800, max: 4_102_444_799 }),
      fc.integer({ min: 1_546_300_800, max: 1_830_297_599 }),
    )
    .map((s) => new Date(s * 1_000).toISOString()),
  region: fc.option(fc.constantFrom("North", "South", "East", "West", "Île", ""), { nil: null }),
  revenue: fc.option(
    fc.integer({ min: -4_000_000, max: 4_000_000 }).map((n) => n / 4),
    { nil: null },
  ),
});

const query: fc.Arbitrary<ChartQueryInput> = fc.record(
  {
    x: fc.oneof(
      fc.record({
        column: fc.constantFrom("day", "at"),
        grain: fc.constantFrom("day", "week", "month", "quarter", "year"),
      }),
      fc.record({ column: fc.constant("at"), grain: fc.constantFrom("minute", "hour") }),
      fc.constant({ column: "region" }),
    ),
    measures: fc.uniqueArray(
      fc.oneof(
        fc.record({
          column: fc.constant("revenue"),
          aggregate: fc.constantFrom("sum", "min", "max", "count", "count_distinct"),
        }),
        fc.constant({ column: null, aggregate: "count" }),
      ),
      { minLength: 1, maxLength: 3, selector: (m) => `${m.column}:${m.aggregate}` },
    ),
    breakdown: fc.record({ column: fc.constant("region"), top: fc.integer({ min: 1, max: 4 }) }),
    sort: fc.record({ by: fc.constant("x"), direction: fc.constantFrom("asc", "desc") }),
    // A period counted back from today or from the column's newest value (in the zone).
    filters: fc.tuple(
      fc.record(
        {
          column: fc.constantFrom("day", "at"),
          op: fc.constant("relative"),
          unit: fc.constantFrom("day", "week", "month", "quarter", "year"),
          which: fc.constantFrom("last_n", "this", "previous"),
          n: fc.integer({ min: 1, max: 400 }),
          shift: fc.integer({ min: 0, max: 3 }),
          anchor: fc.constantFrom("today", "latest"),
        },
        { requiredKeys: ["column", "op", "unit", "which", "n", "anchor"] },
      ),
    ),
  },
  { requiredKeys: ["x", "measures"] },
) as fc.Arbitrary<ChartQueryInput>;

const timeZone = fc.constantFrom(
  undefined,
  "UTC",
  "Europe/Paris",
  "America/New_York",
  "Asia/Kolkata",
);

describe("query engine property: SQLite, PostgreSQL and DuckDB agree", () => {
  let sqlite: Store;
  let postgres: Store;
  let duckdb: Store;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    const a = await openSuiteStore("sqlite", { seedDemo: false });
    const b = await openSuiteStore("postgres", { seedDemo: false });
    const c = await openSuiteStore("duckdb", { seedDemo: false });
    sqlite = a.store;
    postgres = b.store;
    duckdb = c.store;
    closers.push(a.close, b.close, c.close);
  });
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("gives identical results for random datasets and queries", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 0, maxLength: 40 }),
        query,
        timeZone,
        async (rows, chartQuery, zone) => {
          // A breakdown must differ from the x column and splits one measure.
          if (chartQuery.x.column === "region") delete chartQuery.breakdown;
          if (chartQuery.breakdown) chartQuery.measures = chartQuery.measures.slice(0, 1);
          const run = async (store: Store) => {
            const dataset = await store.createDataset(
              { name: "Property", columns: columns.map((c) => ({ ...c })), rows },
              editor,
            );
            return store.runChartQuery(dataset.id, chartQuery, { timeZone: zone });
          };
          const [left, right, data] = await Promise.all([run(sqlite), run(postgres), run(duckdb)]);
          expect(right).toEqual(left);
          expect(data).toEqual(left);
        },
      ),
      { seed, numRuns: 80 },
    );
  }, 120_000);

  it("shows each bucket's change from the bucket one grain before, on every engine", async () => {
    /** The bucket before, by calendar arithmetic written out here. */
    const before = (label: string, grain: string): string => {
      const date = new Date(grain === "minute" || grain === "hour" ? label : `${label}T00:00:00Z`);
      if (grain === "minute") date.setUTCMinutes(date.getUTCMinutes() - 1);
      if (grain === "hour") date.setUTCHours(date.getUTCHours() - 1);
      if (grain === "day") date.setUTCDate(date.getUTCDate() - 1);
      if (grain === "week") date.setUTCDate(date.getUTCDate() - 7);
      if (grain === "month") date.setUTCMonth(date.getUTCMonth() - 1);
      if (grain === "quarter") date.setUTCMonth(date.getUTCMonth() - 3);
      if (grain === "year") date.setUTCFullYear(date.getUTCFullYear() - 1);
      const iso = date.toISOString();
      return grain === "minute" || grain === "hour" ? iso : iso.slice(0, 10);
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 0, maxLength: 40 }),
        fc.oneof(
          fc.record({
            column: fc.constantFrom("day", "at"),
            grain: fc.constantFrom("day", "week", "month", "quarter", "year"),
          }),
          fc.record({ column: fc.constant("at"), grain: fc.constantFrom("minute", "hour") }),
        ),
        fc.constantFrom("sum", "avg", "max", "count"),
        timeZone,
        async (rows, x, aggregate, zone) => {
          const measure = { column: "revenue", aggregate } as const;
          const plainQuery: ChartQueryInput = { x, measures: [measure] };
          const changeQuery: ChartQueryInput = {
            x,
            measures: [{ ...measure, show: "change_from_previous" }],
          };
          const answers = [];
          for (const store of [sqlite, postgres, duckdb]) {
            const dataset = await store.createDataset(
              { name: "Changes", columns: columns.map((c) => ({ ...c })), rows },
              editor,
            );
            const options = { timeZone: zone };
            const plain = await store.runChartQuery(dataset.id, plainQuery, options);
            const changed = await store.runChartQuery(dataset.id, changeQuery, options);
            const byX = new Map(plain.rows.map((r) => [r.x, r.m0 as number | null]));
            expect(changed.rows.map((r) => r.x)).toEqual(plain.rows.map((r) => r.x));
            for (const r of changed.rows) {
              const value = byX.get(r.x) ?? null;
              const previous = byX.get(before(String(r.x), x.grain)) ?? null;
              const expected =
                value === null || previous === null || previous === 0
                  ? null
                  : (value - previous) / Math.abs(previous);
              expect(r.m0).toBe(expected);
            }
            answers.push(changed);
          }
          expect(answers[1]).toEqual(answers[0]);
          expect(answers[2]).toEqual(answers[0]);
        },
      ),
      { seed, numRuns: 60 },
    );
  }, 120_000);

  it("counts the last n days of the data back from the newest day, on every engine", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 0, maxLength: 40 }),
        fc.integer({ min: 1, max: 10_000 }),
        async (rows, n) => {
          // The oracle: rows whose day is within n days up to the newest day, by date arithmetic.
          const days = rows.map((r) => Date.parse(`${r.day}T00:00:00Z`));
          const newest = Math.max(...days);
          const expected = days.filter((ms) => ms > newest - n * dayMs).length;
          const chartQuery: ChartQueryInput = {
            x: { column: "region" },
            measures: [{ column: null, aggregate: "count" }],
            filters: [
              { column: "day", op: "relative", unit: "day", which: "last_n", n, anchor: "latest" },
            ],
          };
          for (const store of [sqlite, postgres, duckdb]) {
            const dataset = await store.createDataset(
              { name: "Anchored", columns: columns.map((c) => ({ ...c })), rows },
              editor,
            );
            // Whatever today is: the range counts from the data.
            const result = await store.runChartQuery(dataset.id, chartQuery, {
              now: new Date(Date.UTC(1850, 0, 1)),
            });
            const counted = result.rows.reduce((sum, r) => sum + ((r.m0 as number | null) ?? 0), 0);
            expect(counted).toBe(expected);
          }
        },
      ),
      { seed, numRuns: 60 },
    );
  }, 120_000);
});
