import { describe, expect, it } from "vitest";
import {
  randomWalk,
  salesCsvChunks,
  salesCsvHeader,
  salesRegions,
  seededRandom,
  skewedIndex,
} from "../src/index.js";

describe("seededRandom", () => {
  it("repeats for a seed, differs between seeds, stays in [0, 1)", () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const first = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(first);
    expect(Array.from({ length: 10 }, () => c())).not.toEqual(first.slice(0, 10));
    expect(Math.min(...first)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...first)).toBeLessThan(1);
    // Roughly uniform: each tenth holds 8–12 % of draws.
    const tenths = new Array(10).fill(0);
    for (const value of first) tenths[Math.floor(value * 10)]++;
    for (const count of tenths) {
      expect(count).toBeGreaterThan(800);
      expect(count).toBeLessThan(1_200);
    }
  });

  it("keeps the demo's sequence: mulberry32 of 20,250,101", () => {
    const random = seededRandom(20_250_101);
    expect([random(), random(), random()]).toEqual([
      0.829803925473243, 0.010385046247392893, 0.3234810051508248,
    ]);
  });
});

describe("skewedIndex and randomWalk", () => {
  it("puts most draws on the first categories and every index in range", () => {
    const random = seededRandom(1);
    const counts = new Array(8).fill(0);
    for (let index = 0; index < 100_000; index++) counts[skewedIndex(random, 8)]++;
    expect(counts[0]).toBeGreaterThan(counts[3] * 4);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(100_000);
    expect(counts[7]).toBeGreaterThan(0);
  });

  it("walks in bounded steps and never leaves its range", () => {
    const next = randomWalk(seededRandom(3), { start: 1, step: 0.5, min: 0.6, max: 1.4 });
    let previous = 1;
    for (let index = 0; index < 10_000; index++) {
      const value = next();
      expect(Math.abs(value - previous)).toBeLessThanOrEqual(0.25);
      expect(value).toBeGreaterThanOrEqual(0.6);
      expect(value).toBeLessThanOrEqual(1.4);
      previous = value;
    }
  });
});

describe("salesCsvChunks", () => {
  it("writes exactly the rows asked, dates in order over the days asked", () => {
    const text = [...salesCsvChunks(50_000, { days: 100 })].join("");
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe(salesCsvHeader);
    expect(lines).toHaveLength(50_001);
    const days = lines.slice(1).map((line) => line.split(",")[0] ?? "");
    expect(days[0]).toBe("2020-01-01");
    expect(new Set(days).size).toBe(100);
    expect([...days].sort()).toEqual(days);
    for (const line of lines.slice(1, 2_000)) {
      const [, region, revenue, orders, price] = line.split(",");
      expect(salesRegions).toContain(region);
      expect(Number(revenue)).toBeGreaterThanOrEqual(0);
      expect(Number.isInteger(Number(orders))).toBe(true);
      expect(Number(price)).toBeGreaterThanOrEqual(1);
    }
  });

  it("is the same text for the same seed and chunks under 64 KiB plus a row", () => {
    const a = [...salesCsvChunks(5_000, { seed: 9 })];
    expect([...salesCsvChunks(5_000, { seed: 9 })].join("")).toBe(a.join(""));
    expect([...salesCsvChunks(5_000, { seed: 10 })].join("")).not.toBe(a.join(""));
    for (const chunk of a) expect(chunk.length).toBeLessThan((1 << 16) + 200);
  });
});
