import { describe, expect, it } from "vitest";
import { prepareColumnFrame } from "./columns";

describe("prepareColumnFrame", () => {
  it("takes series that share their x as they are", () => {
    const x = new Float64Array([1, 2, 3]);
    const frame = prepareColumnFrame(
      { a: { x, y: new Float64Array([10, 20, 30]) }, b: { x, y: [1, 2, 3] } },
      ["a", "b"],
      false,
    );

    expect([...frame.xs]).toEqual([1, 2, 3]);
    expect(frame.values.map((column) => [...column])).toEqual([
      [10, 20, 30],
      [1, 2, 3],
    ]);
    expect(frame.issues).toEqual([]);
    expect(frame.emptyReason).toBeNull();
  });

  it("merges series with their own x, sorted, with gaps where a series has no point", () => {
    const frame = prepareColumnFrame(
      {
        a: { x: new Float64Array([3, 1]), y: new Float64Array([30, 10]) },
        b: { x: new Float64Array([2, 3]), y: new Float64Array([200, 300]) },
      },
      ["a", "b"],
      false,
    );

    expect([...frame.xs]).toEqual([1, 2, 3]);
    expect(frame.values.map((column) => [...column])).toEqual([
      [10, Number.NaN, 30],
      [Number.NaN, 200, 300],
    ]);
  });

  it("reports invalid x and y values by point position, as rows are reported", () => {
    const frame = prepareColumnFrame(
      {
        v: {
          x: new Float64Array([0, Number.NaN, 2, 3, 4, 4, Number.MAX_VALUE]),
          y: new Float64Array([1, 1, Number.POSITIVE_INFINITY, 5e-324, -Number.MAX_VALUE, 9, 1]),
        },
      },
      ["v"],
      false,
    );

    expect(frame.issues).toEqual([
      { row: 1, key: "v", reason: "index is NaN" },
      { row: 2, key: "v", reason: "Infinity is not a finite number" },
      { row: 3, key: "v", reason: "5e-324 is nearer to 0 than 1e-300, drawn as 0" },
      { row: 4, key: "v", reason: "-1.7976931348623157e+308 is beyond ±1e300, too large to draw" },
      { row: 5, key: "v", reason: "repeats an earlier index value" },
      {
        row: 6,
        key: "v",
        reason: "index 1.7976931348623157e+308 is beyond ±1e300, too large to draw",
      },
    ]);
    expect([...frame.xs]).toEqual([0, 2, 3, 4]);
    expect([...(frame.values[0] as Float64Array)]).toEqual([1, Number.NaN, 0, Number.NaN]);
  });

  it("reports x and y of different lengths and data that is not columns", () => {
    const frame = prepareColumnFrame(
      { a: { x: [1, 2, 3], y: [1] }, b: "nope", c: { x: new Float64Array(1) } },
      ["a", "b", "c", "missing"],
      false,
    );

    expect(frame.issues.map((issue) => `${issue.key}: ${issue.reason}`)).toEqual([
      "b: series data is not { x: array, y: array }",
      "c: series data is not { x: array, y: array }",
      "a: x has 3 values and y 1: points past 1 are skipped",
    ]);
    expect([...frame.xs]).toEqual([1]);
  });

  it("checks time x values against the Date range", () => {
    const frame = prepareColumnFrame(
      { t: { x: new Float64Array([0, 8.64e15 + 1]), y: new Float64Array([1, 2]) } },
      ["t"],
      true,
    );

    expect(frame.kind).toBe("time");
    expect(frame.issues).toEqual([
      {
        row: 1,
        key: "t",
        reason: "index 8640000000000001 is outside the date range (±8.64e15 ms)",
      },
    ]);
  });

  it("says why nothing can be drawn", () => {
    const empty = new Float64Array(0);
    expect(prepareColumnFrame({}, ["a"], false).emptyReason).toBe("No data");
    expect(prepareColumnFrame({ a: { x: empty, y: empty } }, ["a"], false).emptyReason).toBe(
      "No data",
    );
    expect(prepareColumnFrame({ a: { x: [Number.NaN], y: [1] } }, ["a"], false).emptyReason).toBe(
      "No row has a valid index",
    );
    expect(prepareColumnFrame({ a: { x: [1], y: [1e308] } }, ["a"], false).emptyReason).toBe(
      "Values are too large to draw",
    );
  });

  it("prepares a million shared-x points quickly", () => {
    const n = 1_000_000;
    const x = new Float64Array(n).map((_, i) => i);
    const y = new Float64Array(n).map((_, i) => Math.sin(i / 1000));
    const started = performance.now();

    const frame = prepareColumnFrame({ a: { x, y }, b: { x, y } }, ["a", "b"], false);

    expect(frame.xs.length).toBe(n);
    // generous on a busy 2-core machine (58 ms seen under load 9)
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
