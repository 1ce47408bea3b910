import { walkSeries } from "@seed/sample-data";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  downsampleLttb,
  downsampleMinMax,
  selectDrawnPositions,
  selectLttbIndices,
  selectMinMaxIndices,
  selectMinMaxLttbIndices,
} from "./downsample";

function range(length: number): number[] {
  return Array.from({ length }, (_, i) => i);
}

/** The picked positions start at 0, end at `last`, hold every one of `kept`, and are at most `most`. */
function expectEndsAndKept(picked: readonly number[], last: number, kept: number[], most: number) {
  expect(picked[0]).toBe(0);
  expect(picked[picked.length - 1]).toBe(last);
  for (const position of kept) expect(picked).toContain(position);
  expect(picked.length).toBeLessThanOrEqual(most);
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

    expectEndsAndKept(picked, 999, [500, 501], 52);
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

    expectEndsAndKept(picked, 9999, [1234, 8765], 100);
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

/** FC_SEED or the fixed seed, printed under `label` so a failing run can be repeated. */
function fastCheckSeed(label: string): number {
  const seed = Number(process.env.FC_SEED ?? 20_261_123);
  console.log(`[@seed/charts ${label}] fast-check seed ${seed} (FC_SEED=${seed} repeats it)`);
  return seed;
}

/** The values as ys over x = 0, 1, 2, … */
function atPositions(values: readonly number[]) {
  return { xs: Float64Array.from(values, (_, i) => i), ys: Float64Array.from(values) };
}

describe("selectMinMaxLttbIndices (the default of line and area charts)", () => {
  it("keeps a one-point spike and a one-point dip among 1,000,000 random-walk points", () => {
    const seed = Number(process.env.FC_SEED ?? 20261123);
    console.log(`[@seed/charts minmax-lttb] random-walk seed ${seed}`);
    const length = 1_000_000;
    const xs = Float64Array.from({ length }, (_, i) => 1.7e12 + i * 60_000);
    const ys = walkSeries(length, seed);
    const spike = 123_457 + (seed % 500_000);
    const dip = 876_543 - (seed % 300_000);
    ys[spike] = (ys[spike] as number) + 500;
    ys[dip] = (ys[dip] as number) - 500;

    const kept = selectMinMaxLttbIndices(xs, ys, 2_000);

    expect(kept).toContain(spike);
    expect(kept).toContain(dip);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(length - 1);
    expect(kept.length).toBeLessThanOrEqual(2_004);
    expect(kept.length).toBeGreaterThan(1_900);
    for (let i = 1; i < kept.length; i++) {
      expect((kept[i] as number) > (kept[i - 1] as number)).toBe(true);
    }
  });

  it("returns ascending unique positions within the input for any series, gaps kept", () => {
    const seed = fastCheckSeed("minmax-lttb");
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ noNaN: false }), fc.constant(Number.NaN)), {
          minLength: 0,
          maxLength: 400,
        }),
        fc.integer({ min: 0, max: 100 }),
        (values, threshold) => {
          const { xs, ys } = atPositions(values);
          const kept = selectMinMaxLttbIndices(xs, ys, threshold);
          for (let i = 0; i < kept.length; i++) {
            expect(kept[i]).toBeGreaterThanOrEqual(0);
            expect(kept[i]).toBeLessThan(values.length);
            if (i > 0) expect((kept[i] as number) > (kept[i - 1] as number)).toBe(true);
          }
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it("picks the same points in one pass over a series without gaps as the general path", () => {
    const seed = fastCheckSeed("min-max one pass");
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), {
          minLength: 1,
          maxLength: 400,
        }),
        fc.integer({ min: 0, max: 120 }),
        (values, threshold) => {
          const { xs, ys } = atPositions(values);
          // a gap at the end sends the same series down the general path, which keeps its start
          const gapped = Float64Array.from([...values, Number.NaN]);
          const gappedXs = Float64Array.from(gapped, (_, i) => i);
          const n = values.length;
          expect(selectMinMaxIndices(gapped, threshold)).toEqual([
            ...selectMinMaxIndices(ys, threshold),
            n,
          ]);
          expect(selectMinMaxLttbIndices(gappedXs, gapped, threshold)).toEqual([
            ...selectMinMaxLttbIndices(xs, ys, threshold),
            n,
          ]);
        },
      ),
      { seed, numRuns: 500 },
    );
  });

  it("is what selectDrawnPositions uses for the minmax-lttb method", () => {
    const ys = walkSeries(50_000, 7);
    const xs = Float64Array.from(ys, (_, i) => i);
    expect(selectDrawnPositions(xs, [ys], 500, "minmax-lttb")).toEqual(
      selectMinMaxLttbIndices(xs, ys, 500),
    );
  });
});
