import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { preparePieFrame } from "./pie";

const options = { index: "name", value: "v", otherThreshold: 0.05, otherLabel: "Other" };

describe("preparePieFrame", () => {
  it("groups slices below the threshold into Other", () => {
    const rows = [
      { name: "A", v: 60 },
      { name: "B", v: 36 },
      { name: "C", v: 2 },
      { name: "D", v: 2 },
    ];

    const frame = preparePieFrame(rows, options);

    expect(frame.slices.map((s) => [s.name, s.value])).toEqual([
      ["A", 60],
      ["B", 36],
      ["Other", 4],
    ]);
    expect(frame.slices[2]?.rows).toEqual([2, 3]);
    expect(frame.total).toBe(100);
  });

  it("does not make an Other slice out of a single small slice", () => {
    const frame = preparePieFrame(
      [
        { name: "A", v: 99 },
        { name: "B", v: 1 },
      ],
      options,
    );

    expect(frame.slices.map((s) => s.name)).toEqual(["A", "B"]);
  });

  it("drops negative, non-numeric and repeated rows and names them", () => {
    const rows = [
      { name: "A", v: 5 },
      { name: "B", v: -3 },
      { name: "C", v: "7" },
      { name: "A", v: 1 },
      { v: 2 },
      { name: "D", v: Number.NaN },
    ];

    const frame = preparePieFrame(rows, options);

    expect(frame.slices.map((s) => s.name)).toEqual(["A"]);
    expect(frame.issues.map((i) => i.row)).toEqual([1, 2, 3, 4, 5]);
  });

  it("is empty with a reason when the total is zero", () => {
    const frame = preparePieFrame(
      [
        { name: "A", v: 0 },
        { name: "B", v: 0 },
      ],
      options,
    );

    expect(frame.slices).toEqual([]);
    expect(frame.emptyReason).toBe("All values are zero");
  });

  it("skips values too large to draw, so finite values never add up past the largest number", () => {
    const frame = preparePieFrame(
      [
        { name: "a", v: Number.MAX_VALUE },
        { name: "b", v: Number.MAX_VALUE },
      ],
      options,
    );

    expect(frame.slices).toEqual([]);
    expect(frame.emptyReason).toBe("Values are too large to draw");
    expect(frame.issues.map((issue) => issue.reason)).toEqual([
      "1.7976931348623157e+308 is beyond ±1e300, too large to draw",
      "1.7976931348623157e+308 is beyond ±1e300, too large to draw",
    ]);
  });

  it("draws values nearer to 0 than 1e-300 as 0 and says so", () => {
    const frame = preparePieFrame(
      [
        { name: "a", v: 5e-324 },
        { name: "b", v: 1e300 },
      ],
      options,
    );

    expect(frame.slices.map((slice) => slice.value)).toEqual([0, 1e300]);
    expect(frame.issues).toEqual([
      { row: 0, key: "v", reason: "5e-324 is nearer to 0 than 1e-300, drawn as 0" },
    ]);
  });

  it("never throws and its slices always sum to the total", () => {
    const value = fc.oneof(fc.double(), fc.string(), fc.constant(null), fc.integer());
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.oneof(fc.string(), fc.integer()), v: value })),
        (rows) => {
          const frame = preparePieFrame(rows, options);
          const sum = frame.slices.reduce((s, slice) => s + slice.value, 0);
          if (frame.emptyReason === null) {
            expect(Math.abs(sum - frame.total)).toBeLessThanOrEqual(Math.abs(frame.total) * 1e-9);
          }
          for (const slice of frame.slices) expect(slice.value).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
