import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type DrillGrain,
  type DrillPeriod,
  describePeriod,
  drilledQuery,
  drillToken,
  drillTrail,
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
