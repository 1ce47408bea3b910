import { drawableValue, isDrawableTime } from "./domain";
import { detectIndexKind, type IndexKind, toTimestamp } from "./format";

/** One problem found in the caller's rows; `row` is the position in the data array. */
export interface DataIssue {
  row: number;
  key: string | null;
  reason: string;
}

/** Rows checked and converted into columns: what a cartesian chart can draw. */
export interface CartesianFrame {
  kind: IndexKind;
  /** Position of each kept row in the caller's array, in drawing order. */
  rowIndex: Uint32Array;
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
 */
export function prepareCartesianFrame(
  data: unknown,
  options: PrepareCartesianOptions,
): CartesianFrame {
  const rows: readonly unknown[] = Array.isArray(data) ? data : [];
  const { index, keys } = options;
  const issues: DataIssue[] = [];
  const n = rows.length;
  const kind =
    options.indexKind ??
    detectIndexKind(rows.slice(0, 64).map((row) => (isRecord(row) ? row[index] : undefined)));

  const keptRow = new Uint32Array(n);
  const xs = new Float64Array(n);
  const categories: string[] | null = kind === "category" ? [] : null;
  const seen = kind === "category" ? new Set<string>() : null;
  let kept = 0;
  let sorted = true;
  let previousX = -Infinity;

  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (!isRecord(row)) {
      issues.push({ row: i, key: null, reason: `row is ${describeValue(row)}, not an object` });
      continue;
    }
    const raw = row[index];
    if (kind === "category") {
      if (typeof raw !== "string" && !(typeof raw === "number" && Number.isFinite(raw))) {
        issues.push({ row: i, key: index, reason: `index is ${describeValue(raw)}` });
        continue;
      }
      const label = String(raw);
      if (seen?.has(label)) {
        issues.push({ row: i, key: index, reason: `repeats index ${describeValue(raw)}` });
        continue;
      }
      seen?.add(label);
      categories?.push(label);
      xs[kept] = kept;
    } else {
      let x = kind === "time" ? toTimestamp(raw) : typeof raw === "number" ? raw : NaN;
      if (!Number.isFinite(x)) {
        issues.push({ row: i, key: index, reason: `index is ${describeValue(raw)}` });
        continue;
      }
      // the axes cannot place every finite number: see data/domain.ts
      if (kind === "time") {
        if (!isDrawableTime(x)) {
          issues.push({
            row: i,
            key: index,
            reason: `index ${describeValue(raw)} is outside the date range (±8.64e15 ms)`,
          });
          continue;
        }
      } else {
        const drawable = drawableValue(x);
        if (drawable.reason)
          issues.push({ row: i, key: index, reason: `index ${drawable.reason}` });
        if (Number.isNaN(drawable.value)) continue;
        x = drawable.value;
      }
      if (x <= previousX) sorted = false;
      previousX = x;
      xs[kept] = x;
    }
    keptRow[kept] = i;
    kept++;
  }

  let order: Uint32Array | null = null;
  if (kind !== "category" && !sorted) {
    order = new Uint32Array(kept);
    for (let k = 0; k < kept; k++) order[k] = k;
    // stable sort keeps the first of equal x values first, so it is the one kept below
    if (options.sortByIndex) order.sort((a, b) => (xs[a] as number) - (xs[b] as number) || a - b);
  }

  // drop repeated x values (first one wins) while laying out the final order
  const finalRow = new Uint32Array(kept);
  const finalX = new Float64Array(kept);
  let count = 0;
  const seenX = order && !options.sortByIndex ? new Set<number>() : null;
  for (let k = 0; k < kept; k++) {
    const from = order ? (order[k] as number) : k;
    const x = xs[from] as number;
    const duplicate =
      kind !== "category" &&
      (seenX ? seenX.has(x) : count > 0 && (finalX[count - 1] as number) === x);
    if (duplicate) {
      issues.push({
        row: keptRow[from] as number,
        key: index,
        reason: "repeats an earlier index value",
      });
      continue;
    }
    seenX?.add(x);
    finalRow[count] = keptRow[from] as number;
    finalX[count] = kind === "category" ? count : x;
    count++;
  }
  const rowIndex = finalRow.subarray(0, count);
  const xColumn = finalX.subarray(0, count);

  const values = keys.map(() => new Float64Array(count));
  let finiteCount = 0;
  let tooLarge = 0;
  for (let s = 0; s < keys.length; s++) {
    const key = keys[s] as string;
    const column = values[s] as Float64Array;
    for (let k = 0; k < count; k++) {
      const rowPosition = rowIndex[k] as number;
      const value = (rows[rowPosition] as Record<string, unknown>)[key];
      if (typeof value === "number" && Number.isFinite(value)) {
        const drawable = drawableValue(value);
        if (drawable.reason) issues.push({ row: rowPosition, key, reason: drawable.reason });
        column[k] = drawable.value;
        if (Number.isNaN(drawable.value)) tooLarge++;
        else finiteCount++;
      } else {
        column[k] = NaN;
        if (value !== null && value !== undefined) {
          issues.push({
            row: rowPosition,
            key,
            reason: `${describeValue(value)} is not a finite number`,
          });
        }
      }
    }
  }

  issues.sort((a, b) => a.row - b.row);
  return {
    kind,
    rowIndex,
    xs: xColumn,
    categories,
    values,
    issues,
    emptyReason: emptyReasonOf(n, keys.length, count, finiteCount, tooLarge),
  };
}

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
  return tooLarge > 0 ? "Values are too large to draw" : "No valid values to show";
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
