import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  downsampleLttb,
  downsampleMinMax,
  selectDrawnPositions,
  selectLttbIndices,
  selectMinMaxIndices,
} from "./downsample";

function range(length: number): number[] {
  return Array.from({ length }, (_, i) => i);
}

describe("selectLttbIndices", () => {
  it("returns every position when the series already fits", () => {
    const ys = [3, 1, 4, 1, 5];

    const picked = selectLttbIndices(range(5), ys, 10);

    expect(picked).toEqual([0, 1, 2, 3, 4]);
  });

  it("picks the known LTTB points of a small series", () => {
    const xs = range(10);
    const ys = [0, 1, 0, 5, 0, 1, 0, -4, 0, 1];

    const picked = selectLttbIndices(xs, ys, 4);

    // bucket 1 covers positions 1..4 (peak at 3), bucket 2 covers 5..8 (trough at 7)
    expect(picked).toEqual([0, 3, 7, 9]);
  });

  it("keeps first, last, the global maximum and minimum", () => {
    const xs = range(1000);
    const ys = xs.map((x) => Math.sin(x / 30));
    ys[500] = 99;
    ys[501] = -99;

    const picked = selectLttbIndices(xs, ys, 50);

    expect(picked[0]).toBe(0);
    expect(picked[picked.length - 1]).toBe(999);
    expect(picked).toContain(500);
    expect(picked).toContain(501);
    expect(picked.length).toBeLessThanOrEqual(52);
  });

  it("keeps a gap so a line still breaks at missing values", () => {
    const xs = range(100);
    const ys = xs.map((x) => (x >= 40 && x < 60 ? Number.NaN : x % 7));

    const picked = selectLttbIndices(xs, ys, 20);

    expect(picked).toContain(40);
    expect(picked.filter((p) => p > 40 && p < 60)).toEqual([]);
  });

  it("returns ascending unique positions for any input", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double(), fc.constant(Number.NaN)), { maxLength: 300 }),
        fc.integer({ min: 0, max: 120 }),
        (ys, threshold) => {
          const picked = selectLttbIndices(range(ys.length), ys, threshold);
          for (let i = 1; i < picked.length; i++) {
            expect(picked[i] as number).toBeGreaterThan(picked[i - 1] as number);
          }
          for (const p of picked) expect(p).toBeLessThan(ys.length);
        },
      ),
    );
  });
});

describe("selectMinMaxIndices", () => {
  it("keeps the lowest and highest point of each bucket in order", () => {
    const ys = [5, 9, 1, 4, 8, 2, 7, 3, 6, 0];

    const picked = selectMinMaxIndices(ys, 6);

    // two buckets: positions 0..4 (max 1, min 2) and 5..9 (max 6, min 9)
    expect(picked).toEqual([0, 1, 2, 6, 9]);
  });

  it("keeps first, last and extremes of a long series", () => {
    const ys = range(10_000).map((x) => Math.cos(x / 100));
    ys[1234] = 50;
    ys[8765] = -50;

    const picked = selectMinMaxIndices(ys, 100);

    expect(picked[0]).toBe(0);
    expect(picked[picked.length - 1]).toBe(9999);
    expect(picked).toContain(1234);
    expect(picked).toContain(8765);
    expect(picked.length).toBeLessThanOrEqual(100);
  });
});

describe("downsampleLttb and downsampleMinMax", () => {
  it("return original point objects, first and last included", () => {
    const points = range(500).map((x) => ({ x, y: (x * 37) % 101 }));

    const lttb = downsampleLttb(points, 40);
    const minMax = downsampleMinMax(points, 40);

    expect(lttb[0]).toBe(points[0]);
    expect(lttb[lttb.length - 1]).toBe(points[499]);
    expect(minMax[0]).toBe(points[0]);
    expect(minMax[minMax.length - 1]).toBe(points[499]);
    expect(lttb.every((p) => points.includes(p))).toBe(true);
  });
});

describe("selectDrawnPositions", () => {
  it("returns null when nothing needs dropping or downsampling is off", () => {
    expect(selectDrawnPositions(range(10), [range(10)], 100, "lttb")).toBeNull();
    expect(selectDrawnPositions(range(1000), [range(1000)], 100, "none")).toBeNull();
  });

  it("unions the picks of several series so each keeps its own peak", () => {
    const xs = range(2000);
    const a = xs.map(() => 0);
    const b = xs.map(() => 0);
    a[300] = 10;
    b[1700] = -10;

    const picked = selectDrawnPositions(xs, [a, b], 100, "lttb") ?? [];

    expect(picked).toContain(300);
    expect(picked).toContain(1700);
  });
});
