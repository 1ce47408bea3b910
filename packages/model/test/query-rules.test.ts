import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  breakdownColumnTypes,
  chartTypeSpecs,
  chartTypes,
  checkQuery,
  datasetColumnTypes,
  type FilterOperator,
  filterOperators,
  filterOperatorsByType,
  measureShows,
  type QueryFilter,
  queryAggregates,
  timeGrains,
} from "../src/index.js";

const seed = Number(process.env.SEED ?? 20261125);
console.log(`query-rules property seed: ${seed}`);

function filterFor(op: FilterOperator): QueryFilter {
  switch (op) {
    case "in":
      return { column: "c", op, values: ["1"] };
    case "between":
      return { column: "c", op, from: "1", to: "2" };
    case "empty":
    case "not_empty":
      return { column: "c", op };
    case "relative":
      return { column: "c", op, unit: "day", which: "last_n", n: 7 };
    default:
      return { column: "c", op, value: "1" };
  }
}

describe("the query rules per column type (one table for the editor and the store)", () => {
  it("accepts an operator on a column exactly when the type's table lists it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...datasetColumnTypes),
        fc.constantFrom(...filterOperators),
        (type, op) => {
          const errors = checkQuery(
            {
              x: { column: "x" },
              measures: [{ column: null, aggregate: "count" }],
              filters: [filterFor(op)],
            },
            [
              { name: "x", type: "string" },
              { name: "c", type },
            ],
          );
          expect("filters.0.op" in errors).toBe(!filterOperatorsByType[type].includes(op));
        },
      ),
      { seed, numRuns: 500 },
    );
  });

  it("checks a measure's own conditions by the same rules as the query's filters, under its path", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...datasetColumnTypes),
        fc.constantFrom(...filterOperators),
        fc.constantFrom(...queryAggregates),
        (type, op, aggregate) => {
          const columns = [
            { name: "x", type: "string" as const },
            { name: "n", type: "number" as const },
            { name: "c", type },
          ];
          const measure = { column: "n", aggregate, where: [filterFor(op)] };
          const errors = checkQuery(
            { x: { column: "x" }, measures: [measure], filters: [] },
            columns,
          );
          const asFilter = checkQuery(
            {
              x: { column: "x" },
              measures: [{ column: null, aggregate: "count" }],
              filters: [filterFor(op)],
            },
            columns,
          );
          expect("measures.0.where.0.op" in errors).toBe("filters.0.op" in asFilter);
          expect("measures.0.where.0.value" in errors).toBe("filters.0.value" in asFilter);
          // Raw values are not combined, so no condition can pick their rows.
          expect("measures.0.where" in errors).toBe(aggregate === "none");
        },
      ),
      { seed, numRuns: 500 },
    );
    const unknown = checkQuery(
      {
        x: { column: "x" },
        measures: [{ column: null, aggregate: "count", where: [{ column: "gone", op: "empty" }] }],
        filters: [],
      },
      [{ name: "x", type: "string" }],
    );
    expect(unknown["measures.0.where.0.column"]).toEqual(['The dataset has no column "gone".']);
  });

  it("orders text (by bytes) but not true/false, and takes relative ranges on dates only", () => {
    for (const op of ["lt", "lte", "gt", "gte", "between"] as const) {
      expect(filterOperatorsByType.string).toContain(op);
      expect(filterOperatorsByType.boolean).not.toContain(op);
    }
    for (const type of datasetColumnTypes) {
      const dated = type === "date" || type === "timestamp";
      expect(filterOperatorsByType[type].includes("relative"), type).toBe(dated);
    }
  });

  it("breaks down exactly by the breakdown column types", () => {
    for (const type of datasetColumnTypes) {
      const errors = checkQuery(
        {
          x: { column: "x" },
          measures: [{ column: null, aggregate: "count" }],
          breakdown: { column: "b", top: 5 },
          filters: [],
        },
        [
          { name: "x", type: "date" },
          { name: "b", type },
        ],
        "bar",
      );
      expect("breakdown.column" in errors, type).toBe(!breakdownColumnTypes.includes(type));
    }
  });

  it("groups the rest into Other exactly for a limited, aggregated category x without a breakdown", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...datasetColumnTypes),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (type, limited, brokenDown, raw) => {
          const errors = checkQuery(
            {
              x: { column: "x" },
              measures: [{ column: raw ? "n" : null, aggregate: raw ? "none" : "count" }],
              ...(brokenDown ? { breakdown: { column: "b", top: 3 } } : {}),
              ...(limited ? { limit: 5 } : {}),
              other: true,
              filters: [],
            },
            [
              { name: "x", type },
              { name: "b", type: "string" },
              { name: "n", type: "number" },
            ],
          );
          const fits = limited && !brokenDown && !raw && breakdownColumnTypes.includes(type);
          expect("other" in errors, JSON.stringify({ type, limited, brokenDown, raw })).toBe(!fits);
        },
      ),
      { seed, numRuns: 200 },
    );
  });

  it("shows shares and running totals exactly for sums and counts, where they mean something", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...queryAggregates.filter((aggregate) => aggregate !== "none")),
        fc.constantFrom(...measureShows),
        fc.boolean(),
        fc.constantFrom("x_asc", "x_desc", "value_desc", undefined),
        fc.boolean(),
        (aggregate, show, brokenDown, sort, other) => {
          const errors = checkQuery(
            {
              x: { column: "x" },
              measures: [{ column: "n", aggregate, show }],
              ...(brokenDown ? { breakdown: { column: "b", top: 3 } } : {}),
              ...(sort
                ? {
                    sort: {
                      by: sort.startsWith("x") ? "x" : "value",
                      direction: sort.endsWith("asc") ? "asc" : "desc",
                    },
                  }
                : {}),
              ...(other && !brokenDown ? { other: true, limit: 3 } : {}),
              filters: [],
            },
            [
              { name: "x", type: "string" },
              { name: "b", type: "string" },
              { name: "n", type: "number" },
            ],
          );
          const additive = aggregate === "sum" || aggregate === "count";
          const fits =
            show === "value" ||
            (show === "share_of_total" && additive && !brokenDown) ||
            (show === "running_total" &&
              additive &&
              (sort === undefined || sort === "x_asc") &&
              !(other && !brokenDown));
          expect(
            "measures.0.show" in errors,
            JSON.stringify({ aggregate, show, brokenDown, sort, other }),
          ).toBe(!fits);
        },
      ),
      { seed, numRuns: 500 },
    );
  });

  it("orders by value by one of the query's own measures", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 7 }),
        (count, measure) => {
          const errors = checkQuery(
            {
              x: { column: "x" },
              measures: Array.from({ length: count }, () => ({
                column: null,
                aggregate: "count" as const,
              })),
              sort: { by: "value", direction: "desc", measure },
              filters: [],
            },
            [{ name: "x", type: "string" }],
          );
          expect("sort.measure" in errors).toBe(measure >= count);
        },
      ),
      { seed, numRuns: 200 },
    );
  });

  it("shows a change from the period before only where x is grouped by a grain", () => {
    for (const grain of [undefined, "day", "month", "year"] as const) {
      const errors = checkQuery(
        {
          x: { column: "d", ...(grain ? { grain } : {}) },
          measures: [{ column: "n", aggregate: "avg", show: "change_from_previous" }],
          filters: [],
        },
        [
          { name: "d", type: "date" },
          { name: "n", type: "number" },
        ],
      );
      expect("measures.0.show" in errors, String(grain)).toBe(grain === undefined);
    }
  });
});

/** An x column of every type (x_number, x_date, …), three numbers and a category: the chart types' queries. */
const typeColumns = [
  ...datasetColumnTypes.map((type) => ({ name: `x_${type}`, type })),
  { name: "a", type: "number" as const },
  { name: "b", type: "number" as const },
  { name: "c", type: "number" as const },
  { name: "group", type: "string" as const },
];

describe("a scatter chart's query (issue 27)", () => {
  it("takes an x of numbers or dates, one or two measures, a breakdown colouring one measure, and no grain", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...datasetColumnTypes),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom("none" as const, "sum" as const, "avg" as const),
        fc.boolean(),
        fc.boolean(),
        (xType, measureCount, aggregate, split, grained) => {
          const grain = grained && (xType === "date" || xType === "timestamp");
          const errors = checkQuery(
            {
              x: { column: `x_${xType}`, ...(grain ? { grain: "month" as const } : {}) },
              measures: ["a", "b", "c", "a"]
                .slice(0, measureCount)
                .map((column) => ({ column, aggregate })),
              filters: [],
              ...(split ? { breakdown: { column: "group", top: 5 } } : {}),
            },
            typeColumns,
            "scatter",
          );
          // x is a position: numbers, dates or instants; text and true/false are refused at x
          expect("x.column" in errors).toBe(!["number", "date", "timestamp"].includes(xType));
          if ("x.column" in errors) {
            expect(errors["x.column"]?.join(" ")).toContain("holds numbers or dates");
          }
          // y, then the size: a third measure is refused, named at the measures
          const tooMany = (errors.measures ?? []).some((message) =>
            message.includes("sizes its points by a second"),
          );
          expect(tooMany).toBe(measureCount > 2);
          // a period's label is no position
          expect("x.grain" in errors).toBe(grain);
          // a breakdown colours one measure, raw (a point per row) or aggregated
          expect("breakdown.column" in errors).toBe(split && measureCount > 1);
        },
      ),
      { seed, numRuns: 400 },
    );
  });

  it("is the one type whose raw values a breakdown splits; others say to aggregate", () => {
    fc.assert(
      fc.property(fc.constantFrom(...chartTypes), (type) => {
        const errors = checkQuery(
          {
            x: { column: "x_number" },
            measures: [{ column: "a", aggregate: "none" }],
            filters: [],
            breakdown: { column: "group", top: 5 },
          },
          typeColumns,
          type,
        );
        const messages = (errors["breakdown.column"] ?? []).join(" ");
        if (type === "scatter") expect(messages).toBe("");
        else if (chartTypeSpecs[type].accepts.breakdown) {
          expect(messages).toContain("splits aggregates only; choose an aggregate");
        } else expect(messages).toContain("has no breakdown");
      }),
      { seed },
    );
  });
});

describe("a combo chart's query (issue 27)", () => {
  it("takes two or more measures over any x, with or without a grain, and no breakdown", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...datasetColumnTypes),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom("sum" as const, "avg" as const, "max" as const),
        fc.boolean(),
        fc.boolean(),
        (xType, measureCount, aggregate, split, grained) => {
          const grain = grained && (xType === "date" || xType === "timestamp");
          const errors = checkQuery(
            {
              x: { column: `x_${xType}`, ...(grain ? { grain: "month" as const } : {}) },
              measures: Array.from({ length: measureCount }, (_, k) => ({
                column: k % 2 === 0 ? "a" : "b",
                aggregate,
              })),
              filters: [],
              ...(split ? { breakdown: { column: "group", top: 5 } } : {}),
            },
            typeColumns,
            "combo",
          );
          // bars and a line: one measure alone is refused at the measures, saying what to do
          const tooFew = (errors.measures ?? []).some((message) =>
            message.includes("A combo chart draws at least 2 measures"),
          );
          expect(tooFew).toBe(measureCount < 2);
          if (tooFew) expect(errors.measures?.join(" ")).toContain("add another measure");
          // measures are its series: no breakdown, named at the breakdown
          if (split) {
            expect(errors["breakdown.column"]?.join(" ")).toContain(
              "A combo chart has no breakdown.",
            );
          }
          expect("x.grain" in errors).toBe(false);
          expect("x.column" in errors).toBe(false);
        },
      ),
      { seed, numRuns: 300 },
    );
  });
});

describe("a calendar heatmap's query (issue 27)", () => {
  it("takes a date x as it is or by day, one measure and no breakdown", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...datasetColumnTypes),
        fc.constantFrom(undefined, ...timeGrains),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom("none" as const, "sum" as const, "max" as const),
        fc.boolean(),
        (xType, grain, measureCount, aggregate, split) => {
          const errors = checkQuery(
            {
              x: { column: `x_${xType}`, ...(grain ? { grain } : {}) },
              measures: Array.from({ length: measureCount }, () => ({ column: "a", aggregate })),
              filters: [],
              ...(split ? { breakdown: { column: "group", top: 5 } } : {}),
            },
            typeColumns,
            "calendar",
          );
          const dated = xType === "date" || xType === "timestamp";
          // days: a date or an instant; anything else refused at x, saying dates
          expect("x.column" in errors).toBe(!dated);
          if (!dated) {
            expect(errors["x.column"]?.join(" ")).toContain(
              "calendar heatmap chart's x holds dates.",
            );
          }
          // grouped by day or not at all
          const grainRefused = (errors["x.grain"] ?? []).some((message) =>
            message.includes("groups dates by day or not at all"),
          );
          expect(grainRefused).toBe(grain !== undefined && grain !== "day");
          expect((errors.measures ?? []).some((m) => m.includes("exactly one measure"))).toBe(
            measureCount > 1,
          );
          if (split) expect(errors["breakdown.column"]?.join(" ")).toContain("has no breakdown");
        },
      ),
      { seed, numRuns: 400 },
    );
  });
});
