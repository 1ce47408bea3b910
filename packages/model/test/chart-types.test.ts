import { describe, expect, it } from "vitest";
import { acceptedOptions, offeredOptions, queryShape } from "../src/chart-types.js";
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

  it("offers the x number format on line, area and bar charts over a number x only", () => {
    const offering = (numberIndex: boolean) =>
      (["line", "area", "bar", "pie"] as const).filter((type) =>
        offeredOptions(type, { series: "one", timeIndex: false, numberIndex }).includes(
          "xNumberFormat",
        ),
      );

    expect(offering(true)).toEqual(["line", "area", "bar"]);
    expect(offering(false)).toEqual([]);
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
