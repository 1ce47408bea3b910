import type { Aggregation, DatasetRow } from "./validation.js";

export interface StatValue {
  value: number | null;
  /** Fraction of change (-0.12 = -12%), only for "last", against the previous value. */
  delta: number | null;
  deltaLabel: string | null;
}

/** Aggregates one column of a dataset in row order; non-numbers are skipped except by count. */
export function computeStat(
  rows: readonly DatasetRow[],
  column: string,
  aggregation: Aggregation,
): StatValue {
  const none: StatValue = { value: null, delta: null, deltaLabel: null };
  if (aggregation === "count") {
    const count = rows.filter((row) => row[column] !== null && row[column] !== undefined).length;
    return { ...none, value: count };
  }
  const numbers: number[] = [];
  for (const row of rows) {
    const value = row[column];
    if (typeof value === "number" && Number.isFinite(value)) numbers.push(value);
  }
  if (numbers.length === 0) return none;
  switch (aggregation) {
    case "sum":
      return { ...none, value: sum(numbers) };
    case "avg":
      return { ...none, value: sum(numbers) / numbers.length };
    case "min":
      return { ...none, value: numbers.reduce((a, b) => Math.min(a, b)) };
    case "max":
      return { ...none, value: numbers.reduce((a, b) => Math.max(a, b)) };
    case "last": {
      const last = numbers[numbers.length - 1] ?? null;
      const previous = numbers.length > 1 ? (numbers[numbers.length - 2] ?? null) : null;
      // A change from zero has no meaningful percentage, so no delta is shown.
      const delta =
        last !== null && previous !== null && previous !== 0
          ? (last - previous) / Math.abs(previous)
          : null;
      return { value: last, delta, deltaLabel: delta === null ? null : "vs previous" };
    }
  }
}

function sum(numbers: readonly number[]): number {
  let total = 0;
  for (const value of numbers) total += value;
  return total;
}
