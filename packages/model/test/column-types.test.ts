import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cellProblem, columnTypeSpecs, isTimeType, timeGrains } from "../src/column-types.js";
import { readCell } from "../src/readers/index.js";
import { datasetColumnTypes } from "../src/vocabulary.js";

const seed = Number(process.env.FC_SEED ?? 20_261_126);
console.log(`[@seed/model column types] fast-check seed ${seed} (FC_SEED=${seed} repeats it)`);

describe("the column type table", () => {
  it("has one row per column type; time types have grains, others none", () => {
    expect(Object.keys(columnTypeSpecs).sort()).toEqual([...datasetColumnTypes].sort());
    for (const type of datasetColumnTypes) {
      expect(columnTypeSpecs[type].grains.length > 0).toBe(isTimeType(type));
    }
    expect(columnTypeSpecs.timestamp.grains).toEqual(timeGrains);
    expect(columnTypeSpecs.date.grains).not.toContain("hour");
    expect(isTimeType(undefined)).toBe(false);
  });

  it("reads the text of a value back as the value, and what a cell of text gives fits as JSON", () => {
    const cases = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => ["number", n] as const),
      fc
        .date({ min: new Date("0001-01-01"), max: new Date("9999-12-31"), noInvalidDate: true })
        .map((d) => ["date", d.toISOString().slice(0, 10)] as const),
      fc
        .date({ min: new Date("0001-01-01"), max: new Date("9999-12-31"), noInvalidDate: true })
        .map((d) => ["timestamp", d.toISOString()] as const),
      fc.string({ minLength: 1, maxLength: 50 }).map((s) => ["string", s] as const),
    );
    fc.assert(
      fc.property(cases, ([type, value]) => {
        const spec = columnTypeSpecs[type];
        const fromText = readCell(type, null, String(value));
        expect(fromText).toEqual(type === "number" ? Number(String(value)) : value);
        expect(spec.cellFits(fromText)).toBe(true);
        expect(cellProblem(type, fromText)).toBeNull();
      }),
      { seed, numRuns: 2_000 },
    );
  });

  it("refuses text that is not of the type, saying what it expected", () => {
    expect(readCell("number", null, "12abc")).toBeUndefined();
    expect(readCell("date", null, "2024-02-30")).toBeUndefined();
    expect(readCell("timestamp", null, "yesterday")).toBeUndefined();
    expect(readCell("boolean", null, "maybe")).toBeUndefined();
    expect(readCell("boolean", null, "true")).toBe(true);
    expect(cellProblem("date", "2024-13-01")).toBe(
      'expected a date (yyyy-mm-dd), got "2024-13-01".',
    );
    expect(cellProblem("number", Number.POSITIVE_INFINITY)).toBe(
      "expected a number, got Infinity.",
    );
  });

  it("turns what engines read into cells, never an invalid date", () => {
    expect(columnTypeSpecs.timestamp.fromRead(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(columnTypeSpecs.timestamp.fromRead(9e15)).toBeNull();
    expect(columnTypeSpecs.boolean.fromRead(1)).toBe("true");
    expect(columnTypeSpecs.boolean.fromRead(false)).toBe("false");
    expect(columnTypeSpecs.number.fromRead("2.5")).toBe(2.5);
    expect(columnTypeSpecs.number.fromRead("abc")).toBeNull();
  });
});
