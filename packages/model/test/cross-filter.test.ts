import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AppliedDashboardFilters,
  crossFiltered,
  dashboardFilterLimits,
  datePresets,
  filteredHref,
  parseDashboardFilterQuery,
  withoutCategoryValue,
} from "../src/dashboard/filters.js";
import { linkableFilterValue } from "../src/dashboard/link-value.js";

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
console.log(`cross-filter property seed: ${seed}`);

// Columns whose names in the URL differ ("Sales Region" -> "sales-region").
const columns = ["region", "Sales Region", "Ville d'été", "x"];
const config = { dateColumn: "day", categories: columns };

/** Any text a dataset may hold: every code unit, lone surrogates, URL syntax, the length limit. */
const anyValue = fc.oneof(
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 120 }),
  fc.constantFrom("a&b=c", "50%", "+1", "#x", " padded ", "x".repeat(100), "x".repeat(101)),
  fc.string({ unit: fc.constantFrom("\uD800", "\uDC00", "a", "=", "&", " "), maxLength: 6 }),
);

const linkable = anyValue.filter(linkableFilterValue);

/** Filters a link may hold: a range and distinct linkable values per column, within the limits. */
const applied: fc.Arbitrary<AppliedDashboardFilters> = fc
  .record({
    range: fc.oneof(
      fc.constant(null),
      fc.constantFrom(...datePresets.map((preset) => ({ preset: preset.id }))),
      fc.constant({ from: "2026-01-01", to: "2026-03-31" }),
    ),
    categories: fc.dictionary(
      fc.constantFrom(...columns),
      fc.uniqueArray(linkable, { minLength: 1, maxLength: 4 }),
      { maxKeys: columns.length },
    ),
  })
  .map(({ range, categories }) => ({ range, categories }) as AppliedDashboardFilters);

/** What a link's filters read back as: values sorted, as the canonical form orders them. */
function readBack(href: string): AppliedDashboardFilters {
  const query = href.includes("?") ? href.slice(href.indexOf("?") + 1) : "";
  const { applied: read, problems } = parseDashboardFilterQuery(query, config);
  expect(problems).toEqual([]);
  return normal(read);
}

function normal(filters: AppliedDashboardFilters): AppliedDashboardFilters {
  const categories = Object.fromEntries(
    Object.entries(filters.categories)
      .map(([column, values]) => [column, [...values].sort()] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return { range: filters.range, categories };
}

describe("cross-filter links", () => {
  it("a click's link reads back as that value alone for its column, the rest kept; a second click undoes it", () => {
    fc.assert(
      fc.property(applied, fc.constantFrom(...columns), anyValue, (before, column, value) => {
        const after = crossFiltered(before, column, value);
        if (!linkableFilterValue(value)) {
          expect(after).toBeNull();
          return;
        }
        expect(after).not.toBeNull();
        if (after === null) return;
        const read = readBack(filteredHref("/d/board", after));
        const { [column]: _clicked, ...others } = normal(before).categories;
        const wasOnly =
          before.categories[column]?.length === 1 && before.categories[column][0] === value;
        expect(read).toEqual(
          normal({
            range: before.range,
            categories: wasOnly ? others : { ...others, [column]: [value] },
          }),
        );
        if (!wasOnly) {
          const undone = crossFiltered(after, column, value);
          expect(undone && normal(undone)).toEqual(
            normal({ range: before.range, categories: others }),
          );
        }
      }),
      { seed, numRuns: 400 },
    );
  });

  it("a chip's link drops exactly its value", () => {
    fc.assert(
      fc.property(
        applied.filter((filters) => Object.keys(filters.categories).length > 0),
        fc.nat(),
        (before, pick) => {
          const chosen = Object.entries(before.categories).flatMap(([column, values]) =>
            values.map((value) => [column, value] as const),
          );
          const [column, value] = chosen[pick % chosen.length] as readonly [string, string];
          const read = readBack(
            filteredHref("/embed/d/board", withoutCategoryValue(before, column, value)),
          );
          const left = (before.categories[column] ?? []).filter((other) => other !== value);
          const { [column]: _removed, ...others } = before.categories;
          expect(read).toEqual(
            normal({
              range: before.range,
              categories: left.length > 0 ? { ...others, [column]: left } : others,
            }),
          );
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it("the address is the bare path when nothing is filtered, and keeps a query the path has", () => {
    expect(filteredHref("/d/board", { range: null, categories: {} })).toBe("/d/board");
    const signed = "/embed/d/board?id=1&exp=2&sig=x";
    expect(filteredHref(signed, { range: null, categories: {} })).toBe(signed);
    expect(filteredHref(signed, { range: null, categories: { region: ["A&B"] } })).toBe(
      `${signed}&region=A%26B`,
    );
    expect(
      crossFiltered({ range: null, categories: { region: ["West"] } }, "region", "West"),
    ).toEqual({ range: null, categories: {} });
  });

  it("never makes a link with more pairs than links carry", () => {
    const full: AppliedDashboardFilters = {
      range: { preset: "last-30-days" },
      categories: {
        region: Array.from({ length: dashboardFilterLimits.maxPairs - 1 }, (_, i) => `r${i}`),
      },
    };
    expect(crossFiltered(full, "x", "one more")).toBeNull();
    expect(crossFiltered(full, "region", "r0")).toEqual({
      range: full.range,
      categories: { region: ["r0"] },
    });
  });
});
