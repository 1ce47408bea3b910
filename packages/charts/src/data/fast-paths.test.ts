/**
 * The one-pass readings of the usual data (ordered rows; typed-array columns sharing one x)
 * must agree with the general readings on every input: same points, values and issues.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyNumber, assertProperty, logSeed } from "../never-crash/support";
import { prepareColumnFrame } from "./columns";
import { type CartesianFrame, prepareCartesianFrame } from "./rows";

logSeed("fast paths agree with the general readings");

const keys = ["a", "b", "c", "d", "e"];
/** A series value: any number, and now and then one that is not a number at all. */
const value = fc.oneof(
  { weight: 8, arbitrary: anyNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, "7", true) },
);
/** Strictly increasing x, from a start and positive steps (the ordered rows of real data). */
const increasingX = fc
  .tuple(
    fc.double({ min: -1e12, max: 1e12, noNaN: true }),
    fc.array(fc.double({ min: 1e-3, max: 1e9, noNaN: true }), { maxLength: 40 }),
  )
  .map(([start, steps]) => {
    const xs = [start];
    for (const step of steps) xs.push((xs[xs.length - 1] as number) + step);
    return xs.filter((x, i) => i === 0 || x > (xs[i - 1] as number));
  });

/** A case: x positions, the first `minSeries` or more of the keys, and 200 values to draw from. */
function seriesCase<T>(xs: fc.Arbitrary<number[]>, minSeries: number, values: fc.Arbitrary<T>) {
  return fc.record({
    xs,
    series: fc.integer({ min: minSeries, max: keys.length }).map((n) => keys.slice(0, n)),
    pool: fc.array(values, { minLength: 200, maxLength: 200 }),
  });
}

/** Rows { x, a, b, … } at the given x, series s's value at row i from `valueAt(i, s)`. */
function rowsAt(
  xs: readonly number[],
  series: readonly string[],
  valueAt: (i: number, s: number) => unknown,
) {
  return xs.map((x, i) => ({
    x,
    ...Object.fromEntries(series.map((key, s) => [key, valueAt(i, s)])),
  }));
}

/** What a reader of the frame sees: points as caller positions, values and issues. */
function seen(frame: CartesianFrame) {
  return {
    kind: frame.kind,
    rows: Array.from(frame.xs, (_, k) => (frame.rowIndex ? frame.rowIndex[k] : k)),
    xs: Array.from(frame.xs),
    values: frame.values.map((column) => Array.from(column)),
    issues: frame.issues,
    emptyReason: frame.emptyReason,
  };
}

describe("one-pass readings", () => {
  it.each(["number", "time"] as const)(
    "ordered rows (%s index) read in one pass agree with the general path",
    (indexKind) => {
      assertProperty(
        fc.property(seriesCase(increasingX, 0, value), ({ xs, series, pool }) => {
          const rows = rowsAt(xs, series, (i, s) => pool[(i * 5 + s) % 200]);
          const options = {
            index: "x",
            keys: series,
            sortByIndex: true,
            indexKind,
          };
          const fast = seen(prepareCartesianFrame(rows, options));
          // a last row that is not an object sends the whole reading down the general path
          const general = seen(prepareCartesianFrame([...rows, null], options));
          const notObject = general.issues.pop();
          expect(notObject).toEqual({
            row: rows.length,
            key: null,
            reason: "row is null, not an object",
          });
          if (rows.length === 0) general.emptyReason = "No data";
          expect(fast).toEqual(general);
        }),
      );
    },
  );

  it("columns sharing one typed x array agree with the same data as rows", () => {
    // x drawn as given: an x the axes cannot take is reported once per series for columns
    const drawnX = increasingX.map((xs) => xs.map((x) => (Math.abs(x) < 1e-300 ? 0 : x)));
    assertProperty(
      fc.property(seriesCase(drawnX, 1, anyNumber), ({ xs, series, pool }) => {
        const x = Float64Array.from(xs);
        const ys = series.map((_, s) =>
          Float64Array.from(xs, (_, i) => pool[(i * 5 + s) % 200] as number),
        );
        const columns = Object.fromEntries(series.map((key, s) => [key, { x, y: ys[s] }]));
        const rows = rowsAt(xs, series, (i, s) => ys[s]?.[i]);
        const fromColumns = seen(prepareColumnFrame(columns, series, false));
        const fromRows = seen(
          prepareCartesianFrame(rows, {
            index: "x",
            keys: series,
            sortByIndex: true,
            indexKind: "number",
          }),
        );
        expect(fromColumns).toEqual(fromRows);
      }),
    );
  });

  it("takes the caller's arrays without a copy when every value is drawn as given", () => {
    const x = Float64Array.from({ length: 1000 }, (_, i) => i * 60_000);
    const y = Float64Array.from({ length: 1000 }, (_, i) => (i % 7) - 3);
    const frame = prepareColumnFrame({ a: { x, y }, b: { x, y } }, ["a", "b"], true);
    expect(frame.xs.buffer).toBe(x.buffer);
    expect(frame.values[0]?.buffer).toBe(y.buffer);
    // one value to change: then the series is copied, and the caller's array left alone
    y[10] = 5e-324;
    const changed = prepareColumnFrame({ a: { x, y } }, ["a"], true);
    expect(changed.values[0]?.buffer).not.toBe(y.buffer);
    expect(changed.values[0]?.[10]).toBe(0);
    expect(y[10]).toBe(5e-324);
  });
});
