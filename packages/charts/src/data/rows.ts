import { drawableValue, isDrawableTime, isPlainDrawable } from "./domain";
import { detectIndexKind, type IndexKind, toTimestamp } from "./format";

/** The smallest and largest of some values, or null when there is none. */
export type ValueRange = readonly [number, number] | null;

function rangeOf(min: number, max: number): ValueRange {
  return min <= max ? [min, max] : null;
}

/** Smallest and largest value of a column (NaN is no value). */
export function columnRange(column: Float64Array): ValueRange {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < column.length; i++) {
    const v = column[i] as number;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return rangeOf(min, max);
}

/** One problem found in the caller's rows; `row` is the position in the data array. */
export interface DataIssue {
  row: number;
  key: string | null;
  reason: string;
}

/** Rows checked and converted into columns: what a cartesian chart can draw. */
export interface CartesianFrame {
  kind: IndexKind;
  /** Position of each kept row in the caller's array, in drawing order; null: all, in order. */
  rowIndex: Uint32Array | null;
  /** x per kept row: timestamp, number, or position for categories. */
  xs: Float64Array;
  /** Category label per kept row (category kind only). */
  categories: string[] | null;
  /** One column per series; NaN where the value is missing or invalid. */
  values: Float64Array[];
  issues: DataIssue[];
  /** Why nothing can be drawn, when that is the case. */
  emptyReason: string | null;
}

export interface PrepareCartesianOptions {
  index: string;
  /** Row keys of the series, in order. */
  keys: readonly string[];
  /** Force the index kind instead of guessing it from the values. */
  indexKind?: IndexKind | undefined;
  /** Sort numeric and time indexes ascending (lines and areas need it). */
  sortByIndex: boolean;
}

/** A value as an issue names it: strings quoted and cut, Dates as ISO. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return `"${value.length > 20 ? `${value.slice(0, 20)}…` : value}"`;
  if (typeof value === "number") return String(value);
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? "an invalid Date" : value.toISOString();
  }
  return typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Checks rows and converts them into columns. Rows with a missing or invalid index, and later
 * rows repeating an index value, are dropped; values that are not finite numbers become gaps.
 * Numbers the axes cannot draw are dropped or drawn as 0 (see `drawableValue`). Every drop or
 * change is listed in `issues`.
 *
 * Rows are read in one pass, each row object once while it is in the cache. Ordered rows with
 * valid indexes, the usual case, need nothing more: no sort, no copy, no second read.
 */
export function prepareCartesianFrame(
  data: unknown,
  options: PrepareCartesianOptions,
): CartesianFrame {
  const rows: readonly unknown[] = Array.isArray(data) ? data : [];
  const { index, keys } = options;
  const n = rows.length;
  const kind =
    options.indexKind ??
    detectIndexKind(rows.slice(0, 64).map((row) => (isRecord(row) ? row[index] : undefined)));
  const indexIssues: DataIssue[] = [];
  const issues: DataIssue[] = [];
  const counts = { finite: 0, tooLarge: 0 };
  // x per row, NaN for a row dropped for its index
  const xs = new Float64Array(n);
  const values = keys.map(() => new Float64Array(n));
  const categories: string[] | null = kind === "category" ? [] : null;
  const seen = new Set<string>();
  let dropped = 0;
  let ordered = true;
  let previous = -Infinity;
  const readIndex = (row: unknown, i: number): number => {
    const drop = (key: string | null, reason: string) => {
      indexIssues.push({ row: i, key, reason });
      return NaN;
    };
    if (!isRecord(row)) return drop(null, `row is ${describeValue(row)}, not an object`);
    const raw = row[index];
    if (categories) {
      if (typeof raw !== "string" && !(typeof raw === "number" && Number.isFinite(raw))) {
        return drop(index, `index is ${describeValue(raw)}`);
      }
      const label = String(raw);
      if (seen.has(label)) return drop(index, `repeats index ${describeValue(raw)}`);
      seen.add(label);
      return categories.push(label) - 1;
    }
    const x = kind === "time" ? toTimestamp(raw) : typeof raw === "number" ? raw : NaN;
    if (!Number.isFinite(x)) return drop(index, `index is ${describeValue(raw)}`);
    // the axes cannot place every finite number: see data/domain.ts
    if (kind === "time") {
      return isDrawableTime(x)
        ? x
        : drop(index, `index ${describeValue(raw)} is outside the date range (±8.64e15 ms)`);
    }
    const drawable = drawableValue(x);
    if (drawable.reason) drop(index, `index ${drawable.reason}`);
    return drawable.value;
  };

  for (let i = 0; i < n; i++) {
    const row = rows[i] as Record<string, unknown>;
    const x = readIndex(row, i);
    xs[i] = x;
    if (Number.isNaN(x)) {
      dropped++;
      continue;
    }
    if (!(x > previous)) ordered = false;
    previous = x;
    for (let s = 0; s < keys.length; s++) {
      const key = keys[s] as string;
      (values[s] as Float64Array)[i] = takeValue(row[key], i, key, issues, counts);
    }
  }
  let order: number[] | null = null;
  let kept = values;
  let found = [...indexIssues, ...issues];
  if (dropped > 0 || !ordered) {
    // kept rows in x order (when sorting), later rows repeating an x dropped; the values are
    // read again for the rows kept, so only the index issues carry over
    const positions: number[] = [];
    for (let i = 0; i < n; i++) if (!Number.isNaN(xs[i])) positions.push(i);
    // stable: the first of equal x values stays first, so it is the one kept below
    if (options.sortByIndex && !categories) {
      positions.sort((a, b) => (xs[a] as number) - (xs[b] as number) || a - b);
    }
    const seenX = new Set<number>();
    found = indexIssues;
    order = positions.filter((i) => {
      const repeat = !categories && seenX.has(xs[i] as number);
      if (repeat) found.push({ row: i, key: index, reason: "repeats an earlier index value" });
      seenX.add(xs[i] as number);
      return !repeat;
    });
    counts.finite = counts.tooLarge = 0;
    kept = keys.map((key) =>
      Float64Array.from(order as number[], (i) =>
        takeValue((rows[i] as Record<string, unknown>)[key], i, key, found, counts),
      ),
    );
  }
  // a row's index issue comes before its values' (a kept row has at most one)
  found.sort((a, b) => a.row - b.row);
  return {
    kind,
    rowIndex: order && Uint32Array.from(order),
    xs: order ? Float64Array.from(order, (i, k) => (categories ? k : (xs[i] as number))) : xs,
    categories,
    values: kept,
    issues: found,
    emptyReason: emptyReasonOf(
      n,
      keys.length,
      order ? order.length : n,
      counts.finite,
      counts.tooLarge,
    ),
  };
}

/**
 * A stored series value (NaN: a gap), counted in `counts`; what is dropped or changed becomes
 * an issue. One rule for rows and columns.
 */
export function takeValue(
  value: unknown,
  row: number,
  key: string,
  issues: DataIssue[],
  counts: { finite: number; tooLarge: number },
): number {
  if (typeof value === "number" && isPlainDrawable(value)) {
    counts.finite++;
    return value;
  }
  if (typeof value === "number" && Number.isFinite(value)) {
    const drawable = drawableValue(value);
    if (drawable.reason) issues.push({ row, key, reason: drawable.reason });
    if (Number.isNaN(drawable.value)) counts.tooLarge++;
    else counts.finite++;
    return drawable.value;
  }
  if (value !== null && value !== undefined) {
    issues.push({ row, key, reason: `${describeValue(value)} is not a finite number` });
  }
  return NaN;
}

/** Why nothing can be drawn when every value is too large for the axes. */
export const TOO_LARGE = "Values are too large to draw";

/** Why nothing can be drawn, or null: from the counts of rows, series, kept rows and values. */
export function emptyReasonOf(
  rows: number,
  series: number,
  kept: number,
  finite: number,
  tooLarge: number,
): string | null {
  if (rows === 0) return "No data";
  if (series === 0) return "No series to show";
  if (kept === 0) return "No row has a valid index";
  if (finite > 0) return null;
  return tooLarge > 0 ? TOO_LARGE : "No valid values to show";
}

/** One line per problem, naming at most `limit` rows, for a dev-mode console warning. */
export function describeIssues(
  chartName: string,
  issues: readonly DataIssue[],
  limit = 10,
): string {
  const lines = issues
    .slice(0, limit)
    .map((issue) => `  row ${issue.row}${issue.key ? ` (${issue.key})` : ""}: ${issue.reason}`);
  const more = issues.length > limit ? `\n  …and ${issues.length - limit} more` : "";
  return `[@seed/charts] ${chartName} skipped or changed data it cannot draw:\n${lines.join("\n")}${more}`;
}
