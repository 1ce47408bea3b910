import { describe, expect, it } from "vitest";
import { computeStat } from "../src/stats.js";

const rows = [
  { month: "2025-01-01", revenue: 100 },
  { month: "2025-02-01", revenue: null },
  { month: "2025-03-01", revenue: 80 },
  { month: "2025-04-01", revenue: 120 },
];

describe("computeStat", () => {
  it("aggregates numbers, skipping empty cells", () => {
    expect(computeStat(rows, "revenue", "sum").value).toBe(300);
    expect(computeStat(rows, "revenue", "avg").value).toBe(100);
    expect(computeStat(rows, "revenue", "min").value).toBe(80);
    expect(computeStat(rows, "revenue", "max").value).toBe(120);
    expect(computeStat(rows, "revenue", "count").value).toBe(3);
    expect(computeStat(rows, "month", "count").value).toBe(4);
  });

  it("gives the last value with its change against the previous one", () => {
    expect(computeStat(rows, "revenue", "last")).toEqual({
      value: 120,
      delta: 0.5,
      deltaLabel: "vs previous",
    });
  });

  it("returns null for no data and no delta from zero", () => {
    expect(computeStat([], "revenue", "sum")).toEqual({
      value: null,
      delta: null,
      deltaLabel: null,
    });
    expect(computeStat([{ v: 0 }, { v: 5 }], "v", "last")).toEqual({
      value: 5,
      delta: null,
      deltaLabel: null,
    });
  });

  it("handles 50,000 rows without spreading them into arguments", () => {
    const many = Array.from({ length: 50_000 }, (_, index) => ({ v: index }));

    expect(computeStat(many, "v", "max").value).toBe(49_999);
  });
});
