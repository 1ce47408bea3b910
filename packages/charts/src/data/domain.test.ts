import { describe, expect, it } from "vitest";
import { collapsedSpanTicks, drawableBound, drawableValue, isDrawableTime } from "./domain";
import { timeTicks } from "./format";
import { prepareCartesianFrame } from "./rows";

describe("drawableValue", () => {
  it("keeps ordinary values, drops magnitudes past 1e300 and draws subnormals as 0", () => {
    expect(drawableValue(42)).toEqual({ value: 42, reason: null });
    expect(drawableValue(-1e300)).toEqual({ value: -1e300, reason: null });
    expect(drawableValue(1e-300)).toEqual({ value: 1e-300, reason: null });
    expect(drawableValue(-0)).toEqual({ value: 0, reason: null });
    expect(drawableValue(Number.MAX_VALUE)).toEqual({
      value: Number.NaN,
      reason: "1.7976931348623157e+308 is beyond ±1e300, too large to draw",
    });
    expect(drawableValue(-Number.MAX_VALUE).value).toBeNaN();
    expect(drawableValue(5e-324)).toEqual({
      value: 0,
      reason: "5e-324 is nearer to 0 than 1e-300, drawn as 0",
    });
    expect(drawableValue(-2.2e-308).value).toBe(0);
  });

  it("brings axis bounds into the same range", () => {
    expect(drawableBound(undefined, "auto")).toBe("auto");
    expect(drawableBound("dataMin", 0)).toBe("dataMin");
    expect(drawableBound(Number.MAX_VALUE, "auto")).toBe(1e300);
    expect(drawableBound(-Number.MAX_VALUE, "auto")).toBe(-1e300);
    expect(drawableBound(Number.NaN, 0)).toBe(0);
    expect(drawableBound(5e-324, "auto")).toBe(0);
    expect(drawableBound(12, "auto")).toBe(12);
  });

  it("knows the Date range", () => {
    expect(isDrawableTime(8.64e15)).toBe(true);
    expect(isDrawableTime(-8.64e15)).toBe(true);
    expect(isDrawableTime(8.64e15 + 1)).toBe(false);
    expect(isDrawableTime(Number.NaN)).toBe(false);
  });

  it("gives explicit ticks only where Recharts' own would repeat", () => {
    expect(collapsedSpanTicks(0, 10)).toBeUndefined();
    expect(collapsedSpanTicks(1, 1 + 2 ** -52)).toEqual([1, 1 + 2 ** -52]);
    expect(collapsedSpanTicks(3, 3)).toBeUndefined();
    expect(collapsedSpanTicks(0, 0)).toBeUndefined();
    expect(collapsedSpanTicks(-9060450964641506, -9060450964641506)).toEqual([-9060450964641506]);
  });
});

describe("prepareCartesianFrame at the edges of the number and date ranges", () => {
  it("reports values it drops or draws as 0", () => {
    const frame = prepareCartesianFrame(
      [
        { x: 1, a: Number.MAX_VALUE },
        { x: 2, a: 5e-324 },
        { x: 3, a: 7 },
      ],
      { index: "x", keys: ["a"], sortByIndex: true },
    );

    expect(Array.from(frame.values[0] ?? [])).toEqual([Number.NaN, 0, 7]);
    expect(frame.issues.map((issue) => [issue.row, issue.key])).toEqual([
      [0, "a"],
      [1, "a"],
    ]);
    expect(frame.emptyReason).toBeNull();
  });

  it("drops index values too large to place and says why nothing is left", () => {
    const frame = prepareCartesianFrame(
      [
        { x: -Number.MAX_VALUE, a: 1 },
        { x: 1, a: Number.MAX_VALUE },
      ],
      { index: "x", keys: ["a"], sortByIndex: true },
    );

    expect(Array.from(frame.xs)).toEqual([1]);
    expect(frame.issues[0]?.reason).toBe(
      "index -1.7976931348623157e+308 is beyond ±1e300, too large to draw",
    );
    expect(frame.emptyReason).toBe("Values are too large to draw");
  });

  it("keeps dates at the ends of the Date range and drops times past them", () => {
    const frame = prepareCartesianFrame(
      [
        { t: new Date(-8.64e15), a: 1 },
        { t: new Date(8.64e15), a: 2 },
        { t: new Date(8.64e15 + 1), a: 3 },
        { t: 9e15, a: 4 },
      ],
      { index: "t", keys: ["a"], sortByIndex: true, indexKind: "time" },
    );

    expect(Array.from(frame.xs)).toEqual([-8.64e15, 8.64e15]);
    expect(frame.issues.map((issue) => issue.reason)).toEqual([
      "index is an invalid Date",
      "index 9000000000000000 is outside the date range (±8.64e15 ms)",
    ]);
  });

  it("reads yyyy-mm-dd strings and ISO instants as times", () => {
    const frame = prepareCartesianFrame(
      [
        { t: "2024-03-01", a: 1 },
        { t: "2024-03-01T12:30:00Z", a: 2 },
        { t: "2024-03-02T00:00:00.000+01:00", a: 3 },
      ],
      { index: "t", keys: ["a"], sortByIndex: true },
    );

    expect(frame.kind).toBe("time");
    expect(Array.from(frame.xs)).toEqual([
      Date.UTC(2024, 2, 1),
      Date.UTC(2024, 2, 1, 12, 30),
      Date.UTC(2024, 2, 1, 23),
    ]);
  });
});

describe("timeTicks across the whole Date range", () => {
  it("keeps to a few round years and never leaves the range", () => {
    const ticks = timeTicks(-8.64e15, 8.64e15, 8);

    expect(ticks.length).toBeGreaterThan(1);
    expect(ticks.length).toBeLessThanOrEqual(9);
    for (const t of ticks) {
      expect(isDrawableTime(t)).toBe(true);
      expect(Math.abs(new Date(t).getUTCFullYear() % 100_000)).toBe(0);
    }
  });

  it("puts year ticks on multiples of the step, even from an odd year", () => {
    const ticks = timeTicks(Date.UTC(2023, 5, 1), Date.UTC(2039, 0, 1), 6);

    expect(ticks.map((t) => new Date(t).getUTCFullYear())).toEqual([2025, 2030, 2035]);
  });

  it("reads years below 100 as they are", () => {
    const min = new Date(0).setUTCFullYear(10, 0, 1);
    const max = new Date(0).setUTCFullYear(90, 0, 1);

    const years = timeTicks(min, max, 8).map((t) => new Date(t).getUTCFullYear());

    expect(years[0]).toBeGreaterThanOrEqual(10);
    expect(years[years.length - 1]).toBeLessThanOrEqual(90);
  });
});
