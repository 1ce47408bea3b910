import type { DatasetColumnType } from "@seed/model";
import {
  type ChartQuery,
  columnTypeSpecs,
  emptyValueLabel,
  measureLabel,
  previousBucket,
  subDayGrains,
  type TimeGrain,
  yearBeforeBucket,
} from "@seed/model";
import type { TableColumn } from "../db/dataset-table.js";

// What a chart query returns, and how values read from either engine become the same result
// values (shared by the aggregate paths in execute.ts and raw series in raw.ts).

export type Value = string | number | null;

export interface QueryResultColumn {
  key: string;
  label: string;
  /**
   * "share": fractions of a total (0.25 is 25%); "change": changes from the period before
   * (-0.12 is a 12% fall). Both are drawn as percentages.
   */
  unit?: "share" | "change";
}

/** What a chart draws: one row per x value, one number per series; nothing else of the dataset. */
export interface QueryResult {
  x: QueryResultColumn & { type: DatasetColumnType };
  series: QueryResultColumn[];
  rows: Array<Record<string, Value>>;
  /** Sentences for the viewer, e.g. that a series was downsampled. */
  notes: string[];
  /** Raw series only: rows that share an x value with an earlier row. */
  duplicateX?: number;
  /**
   * Events read from the dataset the chart's options name (annotationSource), within the days the
   * rows show: drawn like typed annotations (src/repo/chart-events.ts).
   */
  annotations?: Array<{ at: string; to?: string; label: string }>;
}

export function toNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** An x value as results carry it, the same from both engines. */
export function toX(type: DatasetColumnType, grain: TimeGrain | undefined, value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (grain !== undefined) return String(value);
  return columnTypeSpecs[type].fromRead(value);
}

export function compareX(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/**
 * A breakdown's series: its top groups by rank, keyed s0, s1, ... (an empty value named as such),
 * then the rest as "other" when there is one ("Other (rest)" where a group is itself "Other").
 */
export function breakdownSeries(
  tops: ReadonlyArray<string | null>,
  hasRest: boolean,
): QueryResultColumn[] {
  const series = tops.map((value, index) => ({
    key: `s${index}`,
    label: value === null || value === "" ? emptyValueLabel : value,
  }));
  if (hasRest) {
    const taken = new Set(series.map((entry) => entry.label));
    series.push({ key: "other", label: otherLabel(taken) });
  }
  return series;
}

/** "Other", or "Other (rest)" where a shown group is itself called "Other". */
export function otherLabel(taken: ReadonlySet<unknown>): string {
  return taken.has("Other") ? "Other (rest)" : "Other";
}

/** The series key of a breakdown's rank (-1 for the rest). */
export function rankKey(rank: number): string {
  return rank < 0 ? "other" : `s${rank}`;
}

/** One series per measure, keyed m0, m1, ... */
export function measureSeries(query: ChartQuery): QueryResultColumn[] {
  return query.measures.map((measure, index) => {
    const label = measureLabel(measure);
    const key = `m${index}`;
    // A label the query gives is the whole label; otherwise it says what is shown.
    if (measure.show === "share_of_total") {
      return { key, label: measure.label ? label : `${label} (share of total)`, unit: "share" };
    }
    if (measure.show === "running_total") {
      return { key, label: measure.label ? label : `${label} (running total)` };
    }
    if (measure.show === "change_from_previous") {
      return {
        key,
        label: measure.label ? label : `${label} (change from the period before)`,
        unit: "change",
      };
    }
    if (measure.show === "change_from_year_before") {
      return {
        key,
        label: measure.label ? label : `${label} (change from a year before)`,
        unit: "change",
      };
    }
    return { key, label };
  });
}

/**
 * A running total down the rows (in x order) of each key, in place: each value becomes the sum
 * of it and every value before it; rows before the first value stay empty, and an empty value
 * after it keeps the total so far.
 */
export function runningTotals(rows: Array<Record<string, Value>>, keys: readonly string[]): void {
  for (const key of keys) {
    let total: number | null = null;
    for (const row of rows) {
      const value = row[key];
      if (typeof value === "number") total = (total ?? 0) + value;
      if (total !== null) row[key] = total;
    }
  }
}

/**
 * The change from `previous` to `value` as a fraction of the previous (-0.12 = a 12% fall);
 * null from nothing or from zero, which have no meaningful percentage.
 */
export function relativeChange(value: number | null, previous: number | null): number | null {
  if (value === null || previous === null || previous === 0) return null;
  return (value - previous) / Math.abs(previous);
}

/**
 * Each value of each key as its change from the bucket one grain before (looked up by label, so
 * a gap or a group past the limit leaves no change, never one against another period), in place.
 */
export function changesFromPrevious(
  rows: Array<Record<string, Value>>,
  keys: readonly string[],
  grain: TimeGrain,
): void {
  const before = new Map(rows.map((row) => [row.x, { ...row }]));
  for (const row of rows) {
    const previous =
      typeof row.x === "string" ? before.get(previousBucket(row.x, grain)) : undefined;
    for (const key of keys) {
      const value = before.get(row.x)?.[key];
      const then = previous?.[key];
      row[key] = relativeChange(
        typeof value === "number" ? value : null,
        typeof then === "number" ? then : null,
      );
    }
  }
}

/**
 * Each value of `key` as its change from the same period a year before, in place: `before` holds
 * the values of the year-earlier buckets by label (measured apart, as their rows may lie outside
 * the query's own range); a bucket whose year-before has no value gets no change.
 */
export function changesFromYearBefore(
  rows: Array<Record<string, Value>>,
  key: string,
  grain: TimeGrain,
  before: ReadonlyMap<string, number | null>,
): void {
  for (const row of rows) {
    const value = row[key];
    const then = typeof row.x === "string" ? before.get(yearBeforeBucket(row.x, grain)) : undefined;
    row[key] = relativeChange(typeof value === "number" ? value : null, then ?? null);
  }
}

/** Each value of `key` as a share of `total` (null where the total is empty or zero), in place. */
export function sharesOf(
  rows: Array<Record<string, Value>>,
  key: string,
  total: number | null,
): void {
  for (const row of rows) {
    const value = row[key];
    row[key] = typeof value === "number" && total !== null && total !== 0 ? value / total : null;
  }
}

/** The type of x in results: the column's, or a bucket's (a timestamp below a day, else a date). */
export function xType(query: ChartQuery, column: TableColumn): DatasetColumnType {
  if (query.x.grain === undefined) return column.type;
  return subDayGrains.includes(query.x.grain) ? "timestamp" : "date";
}

/** At most `limit` groups; when the query set no limit of its own, a note says some were left out. */
export function firstGroups<T>(rows: T[], query: ChartQuery, limit: number, notes: string[]): T[] {
  if (rows.length <= limit) return rows;
  if (query.limit === undefined) {
    notes.push(
      `Showing the first ${limit.toLocaleString("en-US")} groups; filter or choose a coarser grain to see all.`,
    );
  }
  return rows.slice(0, limit);
}
