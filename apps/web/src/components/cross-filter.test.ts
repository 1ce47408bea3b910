import { linkableFilterValue, parseDashboardFilterQuery } from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CrossFilterLink, legendHref, valueClickHref } from "./cross-filter";

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
console.log(`cross-filter clicks property seed: ${seed}`);

const config = { dateColumn: "day", categories: ["region", "Sales Channel"] };

function link(
  on: CrossFilterLink["on"],
  categories: Record<string, string[]> = {},
): CrossFilterLink {
  return { action: "/d/sales", applied: { range: { preset: "last-30-days" }, categories }, on };
}

/** The filters a link leads to, as the page reads them. */
function readBack(href: string) {
  const url = new URL(href, "http://seed.test");
  expect(url.origin).toBe("http://seed.test");
  expect(url.pathname).toBe("/d/sales");
  const { applied, problems } = parseDashboardFilterQuery(url.search.slice(1), config);
  expect(problems).toEqual([]);
  return applied;
}

/** An x value as results carry it: text of any kind, true/false as words, numbers, null. */
const xValue: fc.Arbitrary<string | number | null> = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 110 }),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.constantFrom("true", "false"),
  fc.double(),
  fc.constant(null),
);

describe("cross-filter clicks", () => {
  it("a click on row i chooses exactly its x value, kept with the range, or nothing it cannot carry", () => {
    fc.assert(
      fc.property(
        fc.array(xValue, { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.option(fc.nat(), { nil: null }),
        (xs, pick, otherPick) => {
          const rows = xs.map((x) => ({ x, m0: 1 }));
          const rowIndex = pick % rows.length;
          const otherRow = otherPick === null ? null : otherPick % rows.length;
          const on = { x: { column: "region", otherRow }, series: null };
          const href = valueClickHref(link(on), { rows }, { rowIndex, seriesKey: "m0" });
          const text = rows[rowIndex]?.x;
          if (rowIndex === otherRow || typeof text !== "string" || !linkableFilterValue(text)) {
            expect(href).toBeNull();
            return;
          }
          expect(href).not.toBeNull();
          expect(readBack(href as string)).toEqual({
            range: { preset: "last-30-days" },
            categories: { region: [text] },
          });
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it("a pie's grouped Other slice filters nothing; a second click on the chosen value undoes it", () => {
    const rows = [
      { x: "North", m0: 5 },
      { x: "South", m0: 1 },
    ];
    const on = { x: { column: "region", otherRow: null }, series: null };
    expect(valueClickHref(link(on), { rows }, { rowIndex: 1, rowIndexes: [1, 0] })).toBeNull();
    expect(valueClickHref(link(on, { region: ["North"] }), { rows }, { rowIndex: 0 })).toBe(
      "/d/sales?range=last-30-days",
    );
    expect(
      valueClickHref(link(on, { region: ["North", "South"] }), { rows }, { rowIndex: 0 }),
    ).toBe("/d/sales?range=last-30-days&region=North");
  });

  it("a bar of a series and its legend entry choose the series' value; unknown keys choose nothing", () => {
    const on = {
      x: null,
      series: { column: "Sales Channel", values: { s0: "Web & App", s1: "Shop" } },
    };
    const rows = [{ x: "2026-01-01", s0: 1, s1: 2, other: 3 }];
    expect(
      readBack(valueClickHref(link(on), { rows }, { rowIndex: 0, seriesKey: "s0" }) ?? ""),
    ).toEqual({
      range: { preset: "last-30-days" },
      categories: { "Sales Channel": ["Web & App"] },
    });
    expect(valueClickHref(link(on), { rows }, { rowIndex: 0, seriesKey: "other" })).toBeNull();
    expect(valueClickHref(link(on), { rows }, { rowIndex: 0 })).toBeNull();
    expect(readBack(legendHref(link(on), { rows }, false, "s1") ?? "")).toEqual({
      range: { preset: "last-30-days" },
      categories: { "Sales Channel": ["Shop"] },
    });
    expect(legendHref(link(on), { rows }, false, "other")).toBeNull();
  });

  it("a pie's legend entry chooses the slice it names, not the Other row", () => {
    const rows = [
      { x: "North", m0: 5 },
      { x: "Other", m0: 1 },
    ];
    const on = { x: { column: "region", otherRow: 1 }, series: null };
    expect(readBack(legendHref(link(on), { rows }, true, "North") ?? "")).toEqual({
      range: { preset: "last-30-days" },
      categories: { region: ["North"] },
    });
    expect(legendHref(link(on), { rows }, true, "Other")).toBeNull();
  });
});
