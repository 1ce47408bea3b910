import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  acceptedOptions,
  offeredOptions,
  percentileOf,
  percentileOfSorted,
  queryShape,
} from "../src/chart-types.js";
import type { DatasetColumnType } from "../src/vocabulary.js";

const columns: { name: string; type: DatasetColumnType }[] = [
  { name: "month", type: "date" },
  { name: "region", type: "string" },
  { name: "revenue", type: "number" },
  { name: "orders", type: "number" },
];

describe("the chart types table", () => {
  it("offers Other grouping on pies only and value labels on bars and pies", () => {
    const offering = (name: string) =>
      (["line", "area", "bar", "pie"] as const).filter((type) =>
        offeredOptions(type, { series: "one", timeIndex: true, numberIndex: false }).includes(
          name as never,
        ),
      );

    expect(offering("otherThreshold")).toEqual(["pie"]);
    expect(offering("valueLabels")).toEqual(["bar", "pie"]);
    expect(offering("locale")).toEqual(["line", "area", "bar", "pie"]);
    expect(offering("legendPosition")).toEqual(["line", "area", "bar", "pie"]);
  });

  it("offers a table how its numbers, dates and locale read, and nothing of axes or legends", () => {
    expect(offeredOptions("table", { series: "many", timeIndex: true, numberIndex: true })).toEqual(
      ["numberFormat", "locale", "dateFormat", "xNumberFormat", "colorRules", "pageSize"],
    );
    expect(
      offeredOptions("table", { series: "one", timeIndex: false, numberIndex: false }),
    ).toEqual(["numberFormat", "locale", "colorRules", "pageSize"]);
  });

  it("offers the x number format on line, area and bar charts over a number x only", () => {
    const offering = (numberIndex: boolean) =>
      (["line", "area", "bar", "pie"] as const).filter((type) =>
        offeredOptions(type, { series: "one", timeIndex: false, numberIndex }).includes(
          "xNumberFormat",
        ),
      );

    expect(offering(true)).toEqual(["line", "area", "bar"]);
    expect(offering(false)).toEqual([]);
    expect(
      offeredOptions("table", { series: "one", timeIndex: false, numberIndex: true }),
    ).toContain("xNumberFormat");
    // A bare series shape leaves the index open.
    expect(offeredOptions("line", "one")).toContain("xNumberFormat");
    expect(
      queryShape("line", { x: { column: "orders" }, measures: [{ column: "revenue" }] }, columns),
    ).toEqual({ series: "one", timeIndex: false, numberIndex: true });
  });

  it("reads the query's shape: several measures or a breakdown make many series, a date x a time index", () => {
    const sum = { column: "revenue", aggregate: "sum" };

    expect(queryShape("bar", { x: { column: "month" }, measures: [sum] }, columns)).toEqual({
      series: "one",
      timeIndex: true,
      numberIndex: false,
    });
    expect(
      queryShape(
        "bar",
        { x: { column: "region" }, measures: [sum], breakdown: { column: "region" } },
        columns,
      ),
    ).toEqual({ series: "many", timeIndex: false, numberIndex: false });
    // A pie takes no breakdown, so one stays one.
    expect(
      queryShape("pie", { x: { column: "x" }, measures: [sum], breakdown: {} }, columns),
    ).toEqual({ series: "one", timeIndex: false, numberIndex: false });
  });

  it("offers what a line does across periods without data on lines and areas over dates only", () => {
    const offering = (timeIndex: boolean) =>
      (["line", "area", "bar", "pie"] as const).filter((type) =>
        offeredOptions(type, { series: "one", timeIndex, numberIndex: false }).includes("gaps"),
      );
    expect(offering(true)).toEqual(["line", "area"]);
    expect(offering(false)).toEqual([]);
  });

  it("keeps only what applies: no stacking of one series, no date or number format of names, labels the type draws", () => {
    const options = {
      stack: "stacked",
      dateFormat: "day",
      xNumberFormat: "plain",
      valueLabels: "percent",
      locale: "fr-FR",
    } as const;

    expect(
      acceptedOptions("bar", options, { series: "one", timeIndex: false, numberIndex: false }),
    ).toEqual({
      locale: "fr-FR",
    });
    expect(
      acceptedOptions("bar", options, { series: "many", timeIndex: true, numberIndex: false }),
    ).toEqual({
      stack: "stacked",
      dateFormat: "day",
      locale: "fr-FR",
    });
    expect(
      acceptedOptions("pie", options, { series: "one", timeIndex: true, numberIndex: false }),
    ).toEqual({
      dateFormat: "day",
      valueLabels: "percent",
      locale: "fr-FR",
    });
    expect(
      acceptedOptions("bar", options, { series: "one", timeIndex: false, numberIndex: true }),
    ).toEqual({
      xNumberFormat: "plain",
      locale: "fr-FR",
    });
    expect(
      acceptedOptions("pie", options, { series: "one", timeIndex: false, numberIndex: true }),
    ).toEqual({
      valueLabels: "percent",
      locale: "fr-FR",
    });
  });
});

describe("percentiles read between the values in order", () => {
  it("stay within the two values they read, and are one of them where the position is whole", () => {
    const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
    console.log(`percentile property seed: ${seed}`);
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), {
          minLength: 1,
          maxLength: 50,
        }),
        fc.constantFrom(...Object.values(percentileOf)),
        (values, p) => {
          const sorted = [...values].sort((a, b) => a - b);
          const value = percentileOfSorted(sorted, p) as number;
          const h = (sorted.length - 1) * p;
          const lo = sorted[Math.floor(h)] as number;
          const hi = sorted[Math.ceil(h)] as number;
          expect(value).toBeGreaterThanOrEqual(Math.min(lo, hi) - Math.abs(lo) * 1e-15);
          expect(value).toBeLessThanOrEqual(Math.max(lo, hi) + Math.abs(hi) * 1e-15);
          if (Number.isInteger(h) || lo === hi) expect(value).toBe(lo);
          if (sorted.length % 2 === 1 && p === 0.5) {
            expect(value).toBe(sorted[(sorted.length - 1) / 2]);
          }
        },
      ),
      { seed, numRuns: 2_000 },
    );
    expect(percentileOfSorted([], 0.5)).toBeNull();
  });
});
