import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CategoryPath,
  categoryDrilledQuery,
  categoryPathToken,
  categoryValueOf,
  type DrillGrain,
  type DrillPeriod,
  describePeriod,
  drilledQuery,
  drillToken,
  drillTrail,
  parseCategoryPath,
  parseDrillToken,
  periodOf,
  withDrill,
} from "../src/dashboard/drill.js";
import {
  appliedFilterQuery,
  canonicalFilterQuery,
  crossFiltered,
  noAppliedFilters,
  parseDashboardFilterQuery,
} from "../src/dashboard/filters.js";
import { linkableFilterValue, maxLinkValueLength } from "../src/dashboard/link-value.js";
import { hierarchiesSchema, hierarchyBelow, hierarchyErrors } from "../src/hierarchies.js";
import { type ChartQuery, chartQuerySchema } from "../src/query/spec.js";

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
console.log(`drill-down property seed: ${seed}`);

const grain = fc.constantFrom<DrillGrain>("year", "quarter", "month", "week");
/** Any calendar day from year 1 to 9999, the ends included. */
const day = fc
  .date({
    min: new Date("0001-01-01T00:00:00Z"),
    max: new Date("9999-12-31T00:00:00Z"),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString().slice(0, 10));
const period = fc.tuple(grain, day).map(([g, d]) => periodOf(g, d) as DrillPeriod);
const tileId = fc.uuid();

const query: ChartQuery = chartQuerySchema.parse({
  x: { column: "day", grain: "year" },
  measures: [{ column: null, aggregate: "count" }],
});

/** Whether `text` (a day) lies in [from, to) of the query's filters on its x column. */
function within(filters: ChartQuery["filters"], text: string): boolean {
  return filters.every((filter) => {
    if (filter.op === "gte") return text >= String(filter.value);
    if (filter.op === "lt") return text < String(filter.value);
    if (filter.op === "lte") return text <= String(filter.value);
    return true;
  });
}

describe("drill-down periods", () => {
  it("names each period in the URL and reads it back the same (property)", () => {
    fc.assert(
      fc.property(period, (p) => {
        expect(parseDrillToken(drillToken(p))).toEqual(p);
        expect(describePeriod(p)).toContain(String(p.year).padStart(4, "0"));
      }),
      { seed, numRuns: 500 },
    );
  });

  it("reads nothing but a year, a quarter, a month or a week from Monday from the URL (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        const read = parseDrillToken(text);
        if (read !== null) expect(drillToken(read)).toBe(text);
      }),
      { seed, numRuns: 500 },
    );
    for (const text of [
      "2016-Q0",
      "2016-Q5",
      "2016-00",
      "2016-13",
      "2016-05-01",
      "16",
      "2016-W10",
      // a week is named by its Monday, a real day
      "W2016-04-05",
      "W2016-02-30",
      "W2016-4-4",
      "w2016-04-04",
    ]) {
      expect(parseDrillToken(text)).toBeNull();
    }
  });

  it("drilled into a period, a chart reads exactly the days of that period (property)", () => {
    fc.assert(
      fc.property(period, day, (p, d) => {
        // a chart of years drills down to any year, quarter or month; a chart of weeks to a week
        const base =
          p.grain === "week" ? { ...query, x: { column: "day", grain: "week" as const } } : query;
        const drilled = drilledQuery(base, "date", p, "UTC");
        expect(drilled?.x.grain).toBe(
          { year: "quarter", quarter: "month", month: "day", week: "day" }[p.grain],
        );
        const inside = drillToken(periodOf(p.grain, d) as DrillPeriod) === drillToken(p);
        expect(within(drilled?.filters ?? [], d)).toBe(inside);
        // Every bound is a real calendar day (2017-02-29 is no date to an engine).
        for (const filter of drilled?.filters ?? []) {
          const text = String("value" in filter ? filter.value : "");
          expect(new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10)).toBe(text);
        }
      }),
      { seed, numRuns: 1000 },
    );
  });

  it("names a week by its Monday, reads its seven days, and a chart of weeks drills into one only", () => {
    const week = periodOf("week", "2016-04-07") as DrillPeriod;
    expect(drillToken(week)).toBe("W2016-04-04");
    expect(parseDrillToken("W2016-04-04")).toEqual(week);
    expect(describePeriod(week)).toBe("Week of Apr 4, 2016");
    const weekly = { ...query, x: { column: "day", grain: "week" as const } };
    // a week across a year's end: its days in both years
    const turn = periodOf("week", "2016-01-01") as DrillPeriod;
    expect(drilledQuery(weekly, "date", turn, "UTC")?.filters).toEqual([
      { column: "day", op: "gte", value: "2015-12-28" },
      { column: "day", op: "lte", value: "2016-01-03" },
    ]);
    // the last week an engine writes ends at 9999-12-31
    const last = periodOf("week", "9999-12-31") as DrillPeriod;
    expect(drilledQuery(weekly, "date", last, "UTC")?.filters.at(-1)).toEqual({
      column: "day",
      op: "lte",
      value: "9999-12-31",
    });
    expect(drillTrail("week", week)?.map(describePeriod)).toEqual(["Week of Apr 4, 2016"]);
    expect(drillTrail("year", week)).toBeNull();
    expect(drillTrail("week", { grain: "month", year: 2016, month: 4 })).toBeNull();
    expect(
      drilledQuery({ ...query, x: { column: "day", grain: "month" } }, "date", week, "UTC"),
    ).toBeNull();
  });

  it("on a timestamp column, a period is its local days in the dashboard's time zone", () => {
    const drilled = drilledQuery(
      { ...query, x: { column: "at", grain: "month" } },
      "timestamp",
      { grain: "month", year: 2024, month: 3 },
      "America/New_York",
    );
    expect(drilled?.x.grain).toBe("day");
    expect(drilled?.filters).toEqual([
      { column: "at", op: "gte", value: "2024-03-01T05:00:00.000Z" },
      // Daylight saving time starts on March 10th: April 1st begins at 04:00 UTC.
      { column: "at", op: "lt", value: "2024-04-01T04:00:00.000Z" },
    ]);
  });

  it("drills only a time axis from its own grain down, never up or past days", () => {
    const month: DrillPeriod = { grain: "month", year: 2016, month: 5 };
    expect(
      drilledQuery({ ...query, x: { column: "day", grain: "quarter" } }, "date", month, "UTC"),
    ).not.toBeNull();
    expect(
      drilledQuery(
        { ...query, x: { column: "day", grain: "month" } },
        "date",
        { ...month, grain: "year", month: 1 },
        "UTC",
      ),
    ).toBeNull();
    expect(
      drilledQuery({ ...query, x: { column: "day", grain: "day" } }, "date", month, "UTC"),
    ).toBeNull();
    expect(
      drilledQuery({ ...query, x: { column: "day", grain: "week" } }, "date", month, "UTC"),
    ).toBeNull();
    expect(drilledQuery({ ...query, x: { column: "day" } }, "date", month, "UTC")).toBeNull();
    expect(drilledQuery(query, "string", month, "UTC")).toBeNull();
    expect(drillTrail("year", month)?.map(describePeriod)).toEqual(["2016", "Q2 2016", "May 2016"]);
    expect(drillTrail("quarter", month)?.map(describePeriod)).toEqual(["Q2 2016", "May 2016"]);
  });

  it("a drilled chart's link reads back the same, beside filters and other drills (property)", () => {
    const config = { dateColumn: "day", categories: ["region"] };
    fc.assert(
      fc.property(
        fc.array(fc.tuple(tileId, fc.option(period)), { maxLength: 6 }),
        fc.option(fc.constantFrom("North", "Süd & Ost")),
        (steps, region) => {
          let applied = region
            ? (crossFiltered(noAppliedFilters, "region", region) ?? noAppliedFilters)
            : noAppliedFilters;
          const expected = new Map<string, string>();
          for (const [id, p] of steps) {
            applied = withDrill(applied, id, p);
            if (p) expected.set(id, drillToken(p));
            else expected.delete(id);
          }
          const link = appliedFilterQuery(applied);
          // The link is canonical: the proxy would leave it as it is.
          expect(canonicalFilterQuery(new URLSearchParams(link))).toBe(link);
          const read = parseDashboardFilterQuery(link, config);
          expect(read.problems).toEqual([]);
          expect(read.applied.drill ?? {}).toEqual(Object.fromEntries(expected));
          expect(read.applied.categories).toEqual(applied.categories);
          // A cross-filter keeps the drills.
          const crossed = crossFiltered(read.applied, "region", "West");
          expect(crossed?.drill).toEqual(read.applied.drill);
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it("a drill parameter that names no chart and period is reported and ignored, never thrown (property)", () => {
    const config = { dateColumn: null, categories: [] };
    fc.assert(
      fc.property(fc.string({ maxLength: 90 }), (value) => {
        const read = parseDashboardFilterQuery(
          new URLSearchParams({ drill: value }).toString(),
          config,
        );
        const drilled = Object.keys(read.applied.drill ?? {}).length;
        expect(drilled + read.problems.length).toBe(1);
      }),
      { seed, numRuns: 500 },
    );
  });
});

// Values a category cell may hold, to the extremes: JSON's own characters, control characters
// that JSON escapes six characters long, dots (a drill parameter's separator), emoji, spaces at
// the ends, lone surrogates, the longest a link carries and one past it.
const cellText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom("Europe", "Côte d'Ivoire", '"]', "[", ".", "a.b", "🌍🌍", " pad ", "\ud800x"),
  fc.string({
    unit: fc.constantFrom("\u0000", "\u001f", '"', "\\", "é", "😀"),
    minLength: maxLinkValueLength,
    maxLength: maxLinkValueLength + 1,
  }),
);
const pathValue = fc.oneof(cellText, fc.constant(null));
const linkablePath = fc.array(
  pathValue.filter((value) => value === null || linkableFilterValue(value)),
  { minLength: 1, maxLength: 4 },
);

describe("drill-down through category hierarchies", () => {
  it("a path of any values a link carries reads back the same from a canonical link (property)", () => {
    const config = { dateColumn: null, categories: ["region"] };
    fc.assert(
      fc.property(
        fc.array(fc.tuple(tileId, fc.option(fc.oneof(linkablePath, period))), { maxLength: 5 }),
        (steps) => {
          let applied = noAppliedFilters;
          const expected = new Map<string, string>();
          for (const [id, to] of steps) {
            applied = withDrill(applied, id, to);
            if (to === null) expected.delete(id);
            else expected.set(id, Array.isArray(to) ? categoryPathToken(to) : drillToken(to));
          }
          const link = appliedFilterQuery(applied);
          expect(canonicalFilterQuery(new URLSearchParams(link))).toBe(link);
          const read = parseDashboardFilterQuery(link, config);
          expect(read.problems).toEqual([]);
          expect(read.applied.drill ?? {}).toEqual(Object.fromEntries(expected));
          for (const [id, token] of expected) {
            const path = parseCategoryPath(token);
            if (path) expect(categoryPathToken(path)).toBe(read.applied.drill?.[id]);
          }
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it("reads a path only as a list of one to four values a link carries, or null (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 30 }),
          fc
            .array(fc.oneof(pathValue, fc.integer(), fc.boolean()), { maxLength: 6 })
            .map((v) => JSON.stringify(v)),
        ),
        (token) => {
          const path = parseCategoryPath(token);
          if (path === null) return;
          expect(path.length).toBeGreaterThanOrEqual(1);
          expect(path.length).toBeLessThanOrEqual(4);
          for (const value of path) {
            if (value !== null) expect(linkableFilterValue(value)).toBe(true);
          }
          expect(parseCategoryPath(categoryPathToken(path))).toEqual(path);
        },
      ),
      { seed, numRuns: 500 },
    );
    for (const token of ["[]", '["a","b","c","d","e"]', "[1]", '{"a":1}', '["a"', '[" a"]']) {
      expect(parseCategoryPath(token)).toBeNull();
    }
  });

  it("a drilled chart shows the next level within exactly the values chosen", () => {
    const levels = ["region", "country", "city"];
    const query = chartQuerySchema.parse({
      x: { column: "region" },
      measures: [{ column: "sales", aggregate: "sum" }],
      filters: [{ column: "year", op: "eq", value: "2016" }],
    });
    const path: CategoryPath = ["Europe", null];
    const drilled = categoryDrilledQuery(query, levels, path) as ChartQuery;
    expect(chartQuerySchema.parse(drilled)).toEqual(drilled);
    expect(drilled.x).toEqual({ column: "city" });
    expect(drilled.filters).toEqual([
      { column: "year", op: "eq", value: "2016" },
      { column: "region", op: "eq", value: "Europe" },
      { column: "country", op: "empty" },
    ]);
    // no deeper than the last level, and only a chart of the hierarchy's first level given
    expect(categoryDrilledQuery(query, levels, ["Europe", "France", "Paris"])).toBeNull();
    expect(categoryDrilledQuery(query, ["country", "city"], ["France"])).toBeNull();
    expect(categoryDrilledQuery(query, levels, [])).toBeNull();
  });

  it("a click names its row's value; Other, a missing row and a value no link carries name none", () => {
    const rows = [{ x: "Europe" }, { x: null }, { x: "" }, { x: " pad" }, { x: "Other" }];
    expect(categoryValueOf(rows, 0, 4)).toBe("Europe");
    expect(categoryValueOf(rows, 1, 4)).toBeNull();
    expect(categoryValueOf(rows, 2, 4)).toBeNull();
    expect(categoryValueOf(rows, 3, 4)).toBeUndefined();
    expect(categoryValueOf(rows, 4, 4)).toBeUndefined();
    expect(categoryValueOf(rows, 5, null)).toBeUndefined();
    expect(categoryValueOf([{ x: true }], 0, null)).toBe("true");
  });

  it("a dataset's hierarchies name its category columns, each column once", () => {
    const columns = [
      { name: "region", type: "string" as const },
      { name: "country", type: "string" as const },
      { name: "city", type: "string" as const },
      { name: "sales", type: "number" as const },
      { name: "open", type: "boolean" as const },
    ];
    expect(
      hierarchyErrors(columns, [
        ["region", "country", "city"],
        ["open", "sales"],
      ]),
    ).toEqual({
      "hierarchies.1.1": [
        '"sales" is a number column; hierarchy levels are text or true/false columns.',
      ],
    });
    expect(
      hierarchyErrors(columns, [
        ["region", "country"],
        ["country", "town"],
      ]),
    ).toEqual({
      "hierarchies.1.0": ['"country" is in a hierarchy already; a column drills one way.'],
      "hierarchies.1.1": ['The dataset has no column "town".'],
    });
    expect(hierarchyErrors(columns, [["region", "country", "city"]])).toEqual({});
    expect(hierarchiesSchema.safeParse([["region"]]).success).toBe(false);
    expect(hierarchiesSchema.safeParse([["a", "b", "c", "d", "e", "f"]]).success).toBe(false);
    expect(hierarchyBelow([["region", "country", "city"]], "country")).toEqual(["country", "city"]);
    expect(hierarchyBelow([["region", "country", "city"]], "city")).toBeNull();
    expect(hierarchyBelow(undefined, "region")).toBeNull();
  });
});
