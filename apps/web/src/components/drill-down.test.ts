import {
  categoryDrilledQuery,
  type DrillGrain,
  drillToken,
  linkableFilterValue,
  maxLinkValueLength,
  parseCategoryPath,
  parseDashboardFilterQuery,
  periodOf,
} from "@seed/model";
import type { TileDrill } from "@seed/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type DrillLink,
  drillClickHref,
  drillCrumbs,
  drillLegendHref,
  drillTarget,
} from "./drill-down";

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
console.log(`drill-down clicks property seed: ${seed}`);

const config = { dateColumn: "day", categories: ["region"] };
const tileId = "6f1c0a3e-8d2b-4a51-9b7e-0c2d4e6f8a10";
const other = "0b7d2e44-1c3a-4f5e-8a9b-2c4d6e8f0a12";

function link(drill: TileDrill, action = "/d/sales"): DrillLink {
  return {
    action,
    applied: {
      range: { preset: "last-30-days" },
      categories: { region: ["North"] },
      drill: { [other]: "2020" },
    },
    tileId,
    drill,
  };
}

/** The filters a link leads to, as the page reads them (same origin, same path, no problem). */
function readBack(href: string, path = "/d/sales") {
  const url = new URL(href, "http://seed.test");
  expect(url.origin).toBe("http://seed.test");
  expect(url.pathname).toBe(path);
  // A signed embed's page reads its filters from the rest of its query.
  const filters = new URLSearchParams(url.search);
  for (const name of ["id", "exp", "sig"]) filters.delete(name);
  const { applied, problems } = parseDashboardFilterQuery(filters.toString(), config);
  expect(problems).toEqual([]);
  return { applied, params: url.searchParams };
}

const grain = fc.constantFrom<DrillGrain>("year", "quarter", "month", "week");
const bucket = fc
  .date({
    min: new Date("0001-01-01T00:00:00Z"),
    max: new Date("9999-12-31T00:00:00Z"),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString().slice(0, 10));

describe("drill-down clicks", () => {
  it("a click on a period drills that chart into it, keeping the filters and other drills (property)", () => {
    fc.assert(
      fc.property(
        grain,
        fc.array(fc.oneof(bucket, fc.constant(null)), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        (shown, xs, pick) => {
          const rows = xs.map((x) => ({ x, m0: 1 }));
          const index = pick % rows.length;
          const drill: TileDrill = {
            kind: "time",
            base: shown,
            trail: [],
            shown,
            drillsInto: shown,
          };
          const href = drillClickHref(link(drill), { rows }, index);
          const x = xs[index];
          if (x === null || x === undefined) {
            expect(href).toBeNull();
            return;
          }
          const { applied } = readBack(href as string);
          expect(applied.drill).toEqual({
            [other]: "2020",
            [tileId]: drillToken(periodOf(shown, x) ?? { grain: shown, year: 0, month: 1 }),
          });
          expect(applied.categories).toEqual({ region: ["North"] });
          expect(applied.range).toEqual({ preset: "last-30-days" });
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it("at days a click drills no further, and a row past the end is nothing", () => {
    const days: TileDrill = {
      kind: "time",
      base: "year",
      trail: [
        { grain: "year", year: 2016, month: 1 },
        { grain: "quarter", year: 2016, month: 4 },
        { grain: "month", year: 2016, month: 5 },
      ],
      shown: "day",
      drillsInto: null,
    };
    expect(drillClickHref(link(days), { rows: [{ x: "2016-05-03" }] }, 0)).toBeNull();
    expect(drillTarget(days)).toBeNull();
    const years: TileDrill = {
      kind: "time",
      base: "year",
      trail: [],
      shown: "year",
      drillsInto: "year",
    };
    expect(drillClickHref(link(years), { rows: [{ x: "2016-01-01" }] }, 3)).toBeNull();
    expect(drillTarget(years)).toBe("its quarters");
  });

  it("the breadcrumb leads back level by level, the last crumb being the period shown", () => {
    const drill: TileDrill = {
      kind: "time",
      base: "year",
      trail: [
        { grain: "year", year: 2016, month: 1 },
        { grain: "quarter", year: 2016, month: 4 },
      ],
      shown: "month",
      drillsInto: "month",
    };
    // A signed embed's path keeps its signature in every link.
    const action = "/embed/signed/d/abc?id=abc&exp=1999999999&sig=s1";
    const crumbs = drillCrumbs(link(drill, action));
    expect(crumbs.map((crumb) => crumb.label)).toEqual(["All years", "2016", "Q2 2016"]);
    expect(crumbs[2]?.href).toBeNull();
    const top = readBack(crumbs[0]?.href as string, "/embed/signed/d/abc");
    expect(top.applied.drill).toEqual({ [other]: "2020" });
    expect(top.params.get("sig")).toBe("s1");
    const year = readBack(crumbs[1]?.href as string, "/embed/signed/d/abc");
    expect(year.applied.drill).toEqual({ [other]: "2020", [tileId]: "2016" });
    expect(drillCrumbs(link({ ...drill, trail: [] }))).toEqual([]);
  });
});

// Any text a cell may hold: quotes, brackets, dots, commas, ampersands, emoji, lone surrogates,
// the empty text, and the longest a filter takes.
const categoryValue = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom(
    "",
    ".",
    "Europe.West",
    '["x"]',
    "a&drill=b.2016",
    "null",
    "Ünïcødé 🌍",
    "\ud800",
  ),
  fc.string({ minLength: maxLinkValueLength, maxLength: maxLinkValueLength + 1 }),
  fc.string({ unit: fc.constantFrom("\u0001", '"', "\\"), minLength: 100, maxLength: 100 }),
  fc.constant(null),
);
// What a breadcrumb carries: values clicked before (linkable, or the empty value).
const linkableValue = categoryValue.filter(
  (value): value is string | null => value === null || linkableFilterValue(value),
);
const levels = ["region", "country", "city", "district", "street"];

describe("category drill clicks", () => {
  it("a click on a value drills down the hierarchy to exactly that value, keeping the rest (property)", () => {
    fc.assert(
      fc.property(
        fc.array(linkableValue, { maxLength: 3 }),
        fc.array(categoryValue, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.option(fc.nat({ max: 5 }), { nil: null }),
        (trail, xs, pick, otherRow) => {
          const rows = xs.map((x) => ({ x, m0: 1 }));
          const index = pick % rows.length;
          const drill: TileDrill = {
            kind: "category",
            levels,
            trail,
            shown: levels[trail.length] as string,
            next: levels[trail.length + 1] ?? null,
            otherRow,
          };
          const href = drillClickHref(link(drill), { rows }, index);
          const x = xs[index];
          // Other stands for no value, and a value a link cannot carry is no link (never a cut one)
          if (
            index === otherRow ||
            (typeof x === "string" && x !== "" && !linkableFilterValue(x))
          ) {
            expect(href).toBeNull();
            return;
          }
          const { applied } = readBack(href as string);
          const token = applied.drill?.[tileId] as string;
          expect(applied.drill?.[other]).toBe("2020");
          // the path read back is the path clicked, value for value (null the empty value)
          expect(parseCategoryPath(token)).toEqual([...trail, x === "" ? null : x]);
          expect(applied.categories).toEqual({ region: ["North"] });
          // and the chart then shows the next level within each value chosen
          const query = categoryDrilledQuery(
            {
              x: { column: "region" },
              measures: [{ column: null, aggregate: "count" }],
              filters: [],
            },
            levels,
            [...trail, x ?? null],
          );
          expect(query?.x.column).toBe(levels[trail.length + 1]);
          expect(query?.filters).toHaveLength(trail.length + 1);
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it("at the last level a click drills no further; Other and rows past the end are nothing", () => {
    const last: TileDrill = {
      kind: "category",
      levels: ["region", "country"],
      trail: ["Europe"],
      shown: "country",
      next: null,
      otherRow: null,
    };
    expect(drillClickHref(link(last), { rows: [{ x: "France" }] }, 0)).toBeNull();
    expect(drillTarget(last)).toBeNull();
    const top: TileDrill = { ...last, trail: [], shown: "region", next: "country", otherRow: 1 };
    expect(drillTarget(top)).toBe("it by country");
    const rows = [{ x: "Europe" }, { x: "Other" }];
    expect(drillClickHref(link(top), { rows }, 1)).toBeNull();
    expect(drillClickHref(link(top), { rows }, 2)).toBeNull();
    expect(drillLegendHref(link(top), { rows }, "Other")).toBeNull();
    const legend = readBack(drillLegendHref(link(top), { rows }, "Europe") as string);
    expect(parseCategoryPath(legend.applied.drill?.[tileId] as string)).toEqual(["Europe"]);
  });

  it("the breadcrumb names each value chosen and leads back level by level", () => {
    const drill: TileDrill = {
      kind: "category",
      levels: ["region", "country", "city"],
      trail: ["Europe", null],
      shown: "city",
      next: null,
      otherRow: null,
    };
    const crumbs = drillCrumbs(link(drill));
    expect(crumbs.map((crumb) => crumb.label)).toEqual(["All region", "Europe", "(empty)"]);
    expect(crumbs[2]?.href).toBeNull();
    expect(readBack(crumbs[0]?.href as string).applied.drill).toEqual({ [other]: "2020" });
    const europe = readBack(crumbs[1]?.href as string).applied.drill?.[tileId] as string;
    expect(parseCategoryPath(europe)).toEqual(["Europe"]);
  });
});
