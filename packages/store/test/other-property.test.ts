import { type ChartQueryInput, percentileOf, type QueryAggregate } from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editor } from "./actors.js";
import { storesOnEveryEngine } from "./helpers.js";

// Property of "Other" (query.other): the whole stays whole. For random rows (skewed categories,
// the empty one and one literally called "Other" among them) and any limit, order and measures,
// on SQLite, PostgreSQL and DuckDB alike:
// - the shown groups are exactly those the same query shows without Other;
// - an Other row follows them exactly when some group is left over, and holds every measure over
//   the left-over groups' rows, computed here from the rows themselves;
// - so the shown sums and counts plus Other's are the totals over every row.
// Values are multiples of 0.25 well inside 2^53: sums are exact whatever the summing order.
const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2_147_483_647);
console.log(`other-property seed: ${seed} (rerun with SEED_PROPERTY_SEED=${seed})`);

const columns = [
  { name: "region", type: "string" },
  { name: "revenue", type: "number" },
] as const;

// A type, not an interface: rows go in as Record<string, unknown>.
type Row = {
  region: string | null;
  revenue: number | null;
};

const regions = ["North", "South", "East", "West", "Île", "Other", "", "a", "B"];
const row: fc.Arbitrary<Row> = fc.record({
  // Skewed: the first regions far more often than the last.
  region: fc.option(
    fc
      .integer({ min: 0, max: regions.length * regions.length - 1 })
      .map((n) => regions[Math.floor(Math.sqrt(n))] as string),
    { nil: null, freq: 8 },
  ),
  revenue: fc.option(
    fc.oneof(
      fc.integer({ min: -4_000_000, max: 4_000_000 }).map((n) => n / 4),
      fc.constantFrom(0, -0.25, 2 ** 40),
    ),
    { nil: null, freq: 6 },
  ),
});

const aggregates: QueryAggregate[] = [
  "sum",
  "avg",
  "median",
  "p25",
  "p90",
  "p99",
  "min",
  "max",
  "count",
  "count_distinct",
];
const query = fc.record({
  measures: fc.uniqueArray(
    fc.oneof(
      fc.record({ column: fc.constant("revenue"), aggregate: fc.constantFrom(...aggregates) }),
      fc.constant({ column: null, aggregate: "count" as const }),
    ),
    { minLength: 1, maxLength: 3, selector: (m) => `${m.column}:${m.aggregate}` },
  ),
  sort: fc.record({
    by: fc.constantFrom("x", "value"),
    direction: fc.constantFrom("asc", "desc"),
    // Which measure orders the groups by value (kept within the measures below).
    measure: fc.integer({ min: 0, max: 2 }),
  }),
  limit: fc.integer({ min: 1, max: regions.length + 1 }),
});

/** The aggregate over the rows, as SQL gives it (null over no non-empty values, but counts). */
function measure(rows: readonly Row[], column: string | null, aggregate: QueryAggregate) {
  if (column === null) return rows.length;
  const values = rows.map((r) => r.revenue).filter((v): v is number => v !== null);
  switch (aggregate) {
    case "count":
      return values.length;
    case "count_distinct":
      return new Set(values).size;
    case "sum":
      return values.length === 0 ? null : values.reduce((a, b) => a + b, 0);
    case "avg":
      return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
    case "min":
      return values.length === 0 ? null : Math.min(...values);
    case "max":
      return values.length === 0 ? null : Math.max(...values);
    case "median":
    case "p25":
    case "p90":
    case "p99": {
      // Interpolated between the values in order, written out here from the rule.
      if (values.length === 0) return null;
      const sorted = [...values].sort((a, b) => a - b);
      const h = (sorted.length - 1) * (percentileOf[aggregate] as number);
      const lo = sorted[Math.floor(h)] as number;
      const hi = sorted[Math.ceil(h)] as number;
      const d = h - Math.floor(h);
      return lo === hi ? lo : lo * (1 - d) + hi * d;
    }
    default:
      throw new Error(`not generated: ${aggregate}`);
  }
}

/** A store on each engine, opened before the describe's tests and closed after them. */
describe("Other keeps the whole: the rest measured from its rows, on every engine", () => {
  const stores = storesOnEveryEngine();

  it("shows the same groups as without Other, then Other over exactly the rest", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 0, maxLength: 60 }),
        query,
        async (given, picked) => {
          // An empty text cell is stored empty: "" and null are one group.
          const rows = given.map((r) => ({ ...r, region: r.region === "" ? null : r.region }));
          const sort = {
            ...picked.sort,
            measure: Math.min(picked.sort.measure, picked.measures.length - 1),
          };
          const base: ChartQueryInput = { x: { column: "region" }, ...picked, sort };
          const withOther: ChartQueryInput = { ...base, other: true };
          const results = await Promise.all(
            stores.map(async ({ store }) => {
              const dataset = await store.createDataset(
                { name: "Other property", columns: columns.map((c) => ({ ...c })), rows: given },
                editor,
              );
              return {
                plain: await store.runChartQuery(dataset.id, base),
                other: await store.runChartQuery(dataset.id, withOther),
              };
            }),
          );
          const groups = new Set(rows.map((r) => r.region)).size;
          for (const [index, { plain, other }] of results.entries()) {
            const engine = stores[index]?.name;
            // The shown groups: those the query shows without Other.
            expect(other.rows.slice(0, plain.rows.length), engine).toEqual(plain.rows);
            if (groups <= picked.limit) {
              expect(other.rows, engine).toEqual(plain.rows);
              continue;
            }
            expect(other.rows.length, engine).toBe(plain.rows.length + 1);
            const shown = new Set(plain.rows.map((r) => r.x));
            const rest = rows.filter((r) => !shown.has(r.region));
            const last = other.rows.at(-1) as Record<string, unknown>;
            expect(last.x, engine).toBe(shown.has("Other") ? "Other (rest)" : "Other");
            for (const [m, spec] of picked.measures.entries()) {
              expect(last[`m${m}`], `${engine} m${m} ${spec.aggregate}`).toBe(
                measure(rest, spec.column, spec.aggregate),
              );
              if (spec.aggregate === "sum" || spec.aggregate === "count") {
                // The whole: shown plus Other is the total over every row.
                const whole = other.rows.reduce(
                  (total, r) => total + ((r[`m${m}`] as number | null) ?? 0),
                  0,
                );
                expect(whole, engine).toBe(measure(rows, spec.column, spec.aggregate) ?? 0);
              }
            }
          }
          // And every engine gives the same answer.
          for (const { other } of results.slice(1)) {
            expect(other).toEqual(results[0]?.other);
          }
        },
      ),
      { seed, numRuns: 100 },
    );
  }, 180_000);

  it("shows shares of the whole and running totals of the same groups, on every engine", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 0, maxLength: 60 }),
        fc.constantFrom("sum" as const, "count" as const),
        fc.option(fc.integer({ min: 1, max: regions.length }), { nil: undefined }),
        async (rows, aggregate, limit) => {
          const measure = { column: "revenue", aggregate };
          const base: ChartQueryInput = {
            x: { column: "region" },
            measures: [measure],
            ...(limit === undefined ? {} : { limit }),
          };
          const shown: ChartQueryInput = {
            ...base,
            measures: [
              { ...measure, show: "share_of_total" },
              { ...measure, show: "running_total" },
            ],
          };
          const whole =
            measure.aggregate === "sum"
              ? rows.reduce((sum, r) => sum + (r.revenue ?? 0), 0)
              : rows.filter((r) => r.revenue !== null).length;
          const hasValue = rows.some((r) => r.revenue !== null);
          const results = [];
          for (const { name, store } of stores) {
            const dataset = await store.createDataset(
              { name: "Shown property", columns: columns.map((c) => ({ ...c })), rows },
              editor,
            );
            const plain = await store.runChartQuery(dataset.id, base);
            const result = await store.runChartQuery(dataset.id, shown);
            expect(
              result.rows.map((r) => r.x),
              name,
            ).toEqual(plain.rows.map((r) => r.x));
            let running: number | null = null;
            for (const [index, r] of result.rows.entries()) {
              const value = plain.rows[index]?.m0 as number | null;
              // The share: the group's value over the whole, every row counted (null of nothing).
              const total = measure.aggregate === "sum" && !hasValue ? null : whole;
              expect(r.m0, `${name} share`).toBe(
                value === null || total === null || total === 0 ? null : value / total,
              );
              if (value !== null) running = (running ?? 0) + value;
              expect(r.m1, `${name} running`).toBe(running);
            }
            results.push(result);
          }
          for (const result of results.slice(1)) expect(result).toEqual(results[0]);
        },
      ),
      { seed, numRuns: 60 },
    );
  }, 180_000);
});

// A measure's own conditions (measure.where, "count where"): per group, the measure over exactly
// the group's rows that pass them, computed here from the rows; every group the query shows
// without them is still shown (a count of 0, or an empty value, where none pass).
type Condition =
  | { column: "revenue"; op: "gt" | "lte"; value: number }
  | { column: "revenue"; op: "between"; from: number; to: number }
  | { column: "revenue" | "region"; op: "empty" | "not_empty" }
  | { column: "region"; op: "eq" | "neq"; value: string }
  | { column: "region"; op: "in"; values: string[] };

const quarter = fc.integer({ min: -40, max: 40 }).map((n) => n * 25_000);
const region = fc.constantFrom(...regions.filter((name) => name !== ""));
const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({
    column: fc.constant("revenue" as const),
    op: fc.constantFrom("gt" as const, "lte" as const),
    value: quarter,
  }),
  fc.tuple(quarter, quarter).map(([a, b]) => ({
    column: "revenue" as const,
    op: "between" as const,
    from: Math.min(a, b),
    to: Math.max(a, b),
  })),
  fc.record({
    column: fc.constantFrom("revenue" as const, "region" as const),
    op: fc.constantFrom("empty" as const, "not_empty" as const),
  }),
  fc.record({
    column: fc.constant("region" as const),
    op: fc.constantFrom("eq" as const, "neq" as const),
    value: region,
  }),
  fc.record({
    column: fc.constant("region" as const),
    op: fc.constant("in" as const),
    values: fc.uniqueArray(region, { minLength: 1, maxLength: 3 }),
  }),
);

/** Whether a row passes a condition, as the engines compare (an empty cell passes only "is not"). */
function passes(r: Row, c: Condition): boolean {
  const cell = c.column === "revenue" ? r.revenue : r.region;
  switch (c.op) {
    case "empty":
      return cell === null;
    case "not_empty":
      return cell !== null;
    case "gt":
      return r.revenue !== null && r.revenue > c.value;
    case "lte":
      return r.revenue !== null && r.revenue <= c.value;
    case "between":
      return r.revenue !== null && r.revenue >= c.from && r.revenue <= c.to;
    case "eq":
      return r.region === c.value;
    case "neq":
      return r.region !== c.value;
    case "in":
      return r.region !== null && c.values.includes(r.region);
  }
}

describe("a measure's own conditions count exactly its passing rows, on every engine", () => {
  const stores = storesOnEveryEngine();

  it("gives each group the measure over its rows that pass, and keeps every group", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 0, maxLength: 60 }),
        fc.oneof(
          fc.record({ column: fc.constant("revenue"), aggregate: fc.constantFrom(...aggregates) }),
          fc.constant({ column: null, aggregate: "count" as const }),
        ),
        fc.array(condition, { minLength: 1, maxLength: 3 }),
        async (given, picked, where) => {
          const rows = given.map((r) => ({ ...r, region: r.region === "" ? null : r.region }));
          const query: ChartQueryInput = {
            x: { column: "region" },
            measures: [
              { column: null, aggregate: "count" },
              { ...picked, where },
            ],
          };
          const results = await Promise.all(
            stores.map(async ({ store }) => {
              const dataset = await store.createDataset(
                { name: "Where property", columns: columns.map((c) => ({ ...c })), rows: given },
                editor,
              );
              return store.runChartQuery(dataset.id, query);
            }),
          );
          for (const [index, result] of results.entries()) {
            const engine = stores[index]?.name;
            // Every group with a row, whether or not any of its rows pass.
            expect(result.rows.length, engine).toBe(new Set(rows.map((r) => r.region)).size);
            for (const shown of result.rows) {
              const group = rows.filter((r) => r.region === shown.x);
              expect(shown.m0, engine).toBe(group.length);
              const passing = group.filter((r) => where.every((c) => passes(r, c)));
              expect(shown.m1, `${engine} ${picked.aggregate} of ${shown.x}`).toBe(
                measure(passing, picked.column, picked.aggregate),
              );
            }
          }
          for (const result of results.slice(1)) expect(result).toEqual(results[0]);
        },
      ),
      { seed, numRuns: 100 },
    );
  }, 180_000);
});
