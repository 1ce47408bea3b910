import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeIssues, prepareCartesianFrame } from "./rows";

/** Rows with series a and b (or only `keys`), sorted by the index as the cartesian charts ask. */
function prepare(rows: unknown, index: string, keys: string[] = ["a", "b"]) {
  return prepareCartesianFrame(rows, { index, keys, sortByIndex: true });
}

describe("prepareCartesianFrame", () => {
  it("converts ISO dates to timestamps and keeps valid values", () => {
    const rows = [
      { day: "2024-01-01", a: 1, b: 2 },
      { day: "2024-01-02", a: 3, b: 4 },
    ];

    const frame = prepare(rows, "day");

    expect(frame.kind).toBe("time");
    expect(Array.from(frame.xs)).toEqual([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2)]);
    expect(Array.from(frame.values[0] ?? [])).toEqual([1, 3]);
    expect(frame.issues).toEqual([]);
    expect(frame.emptyReason).toBeNull();
  });

  it("turns NaN, Infinity and strings into gaps and names each row", () => {
    const rows = [
      { x: 1, a: Number.NaN, b: 1 },
      { x: 2, a: Number.POSITIVE_INFINITY, b: "12" },
      { x: 3, a: null, b: 3 },
    ];

    const frame = prepare(rows, "x");

    expect(Array.from(frame.values[0] ?? []).every(Number.isNaN)).toBe(true);
    expect(Array.from(frame.values[1] ?? [])).toEqual([1, Number.NaN, 3]);
    expect(frame.issues.map((i) => [i.row, i.key])).toEqual([
      [0, "a"],
      [1, "a"],
      [1, "b"],
    ]);
  });

  it("sorts by index, drops repeated index values and rows without an index", () => {
    const rows = [
      { x: 3, a: 30, b: 0 },
      { x: 1, a: 10, b: 0 },
      { x: 3, a: 99, b: 0 },
      { x: "oops", a: 5, b: 0 },
      { a: 5, b: 0 },
    ];

    const frame = prepare(rows, "x");

    expect(Array.from(frame.xs)).toEqual([1, 3]);
    expect(Array.from(frame.rowIndex ?? [])).toEqual([1, 0]);
    expect(frame.issues.map((i) => i.row)).toEqual([2, 3, 4]);
  });

  it("keeps category order and drops repeated categories", () => {
    const rows = [
      { name: "b", a: 1, b: 1 },
      { name: "a", a: 2, b: 2 },
      { name: "b", a: 3, b: 3 },
    ];

    const frame = prepare(rows, "name");

    expect(frame.kind).toBe("category");
    expect(frame.categories).toEqual(["b", "a"]);
    expect(frame.issues).toEqual([{ row: 2, key: "name", reason: 'repeats index "b"' }]);
  });

  it("gives a reason when nothing can be drawn", () => {
    const keys = ["a"];

    expect(prepare([], "x", keys).emptyReason).toBe("No data");
    expect(prepare([{ x: 1, a: "no" }], "x", keys).emptyReason).toBe("No valid values to show");
    expect(prepare("not an array", "x", keys).emptyReason).toBe("No data");
  });

  it("never throws on random rows and keeps only finite values", () => {
    const value = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.string(),
      fc.constant(null),
      fc.constant(undefined),
      fc.date({ noInvalidDate: false }),
      fc.boolean(),
    );
    const row = fc.oneof(fc.record({ x: value, a: value, b: value }), value);
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), (rows) => {
        const frame = prepare(rows, "x");
        expect((frame.rowIndex ?? frame.xs).length).toBe(frame.xs.length);
        for (const column of frame.values) {
          for (const v of column) expect(Number.isNaN(v) || Number.isFinite(v)).toBe(true);
        }
      }),
    );
  });
});

describe("describeIssues", () => {
  it("names rows and says how many more were left out", () => {
    const issues = Array.from({ length: 12 }, (_, row) => ({ row, key: "a", reason: "bad" }));

    const message = describeIssues("LineChart", issues, 2);

    expect(message).toContain("row 0 (a): bad");
    expect(message).toContain("row 1 (a): bad");
    expect(message).not.toContain("row 2");
    expect(message).toContain("…and 10 more");
  });
});
