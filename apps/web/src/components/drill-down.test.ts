import { type DrillGrain, drillToken, parseDashboardFilterQuery, periodOf } from "@seed/model";
import type { TileDrill } from "@seed/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DrillLink, drillClickHref, drillCrumbs, drillTarget } from "./drill-down";

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
          const drill: TileDrill = { base: shown, trail: [], shown, drillsInto: shown };
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
    const years: TileDrill = { base: "year", trail: [], shown: "year", drillsInto: "year" };
    expect(drillClickHref(link(years), { rows: [{ x: "2016-01-01" }] }, 3)).toBeNull();
    expect(drillTarget(years)).toBe("quarters");
  });

  it("the breadcrumb leads back level by level, the last crumb being the period shown", () => {
    const drill: TileDrill = {
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
