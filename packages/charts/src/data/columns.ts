import { isDrawableTime, isPlainDrawable } from "./domain";
import {
  type CartesianFrame,
  type DataIssue,
  emptyReasonOf,
  prepareCartesianFrame,
  TOO_LARGE,
  takeValue,
} from "./rows";

/** One series as columns: point i is (x[i], y[i]). Typed arrays keep a million points cheap. */
export interface SeriesColumns {
  x: ArrayLike<number>;
  y: ArrayLike<number>;
}

/** Line and area data as columns, one `{ x, y }` per series key, instead of row objects. */
export type ColumnData<Row> = { readonly [K in Extract<keyof Row, string>]?: SeriesColumns };

const isList = (v: unknown): v is ArrayLike<unknown> => Array.isArray(v) || ArrayBuffer.isView(v);

/**
 * The common case, checked in one pass: the first n x values are numbers drawn as they are
 * (no -0) and strictly increasing, so the series needs no copy, sort or issue.
 */
function isCleanX(xs: ArrayLike<unknown>, n: number, time: boolean): boolean {
  let previous = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = xs[i];
    if (typeof v !== "number" || !(v > previous)) return false;
    if (time ? !isDrawableTime(v) : !isPlainDrawable(v) || (v === 0 && 1 / v < 0)) return false;
    previous = v;
  }
  return true;
}

/** The first n values as a Float64Array, without a copy when they already are one. */
function float64Of(values: ArrayLike<number>, n: number): Float64Array {
  return values instanceof Float64Array
    ? values.subarray(0, n)
    : Float64Array.from({ length: n }, (_, i) => values[i] as number);
}

/** Data given as `{ key: { x, y } }` rather than an array of rows. */
export function isColumnData(data: unknown): data is Record<string, unknown> {
  return typeof data === "object" && data !== null && !Array.isArray(data);
}

/**
 * Series given as x/y columns, merged into one frame: the index is every valid x of any series,
 * sorted, each once; a series without a point at some x has a gap there. x values are checked
 * like a row index and y values like row values (see `prepareCartesianFrame`); an issue's `row`
 * is the point's position in its series' arrays, its key the series'.
 */
export function prepareColumnFrame(
  data: Record<string, unknown>,
  keys: readonly string[],
  time: boolean,
): CartesianFrame {
  const issues: DataIssue[] = [];
  const counts = { finite: 0, tooLarge: 0 };
  let points = 0;
  // how many leading values of each x array were found clean: a shared x array is checked once
  const cleanPrefix = new Map<unknown, number>();
  const series = keys.map((key): { x: Float64Array; y: Float64Array } => {
    const columns = data[key] as Partial<SeriesColumns> | null | undefined;
    const xs = columns?.x;
    const ys = columns?.y;
    if (!isList(xs) || !isList(ys)) {
      if (columns !== undefined) {
        issues.push({ row: 0, key, reason: "series data is not { x: array, y: array }" });
      }
      return { x: new Float64Array(0), y: new Float64Array(0) };
    }
    const n = Math.min(xs.length, ys.length);
    points += Math.max(xs.length, ys.length);
    if (xs.length !== ys.length) {
      issues.push({
        row: n,
        key,
        reason: `x has ${xs.length} values and y ${ys.length}: points past ${n} are skipped`,
      });
    }
    const checked = cleanPrefix.get(xs) ?? 0;
    if (checked < n && !isCleanX(xs, n, time)) {
      // anything else (unsorted, repeated or invalid x): the row rules sort, drop and say why
      const frame = prepareCartesianFrame(
        Array.from({ length: n }, (_, i) => ({ x: xs[i], y: ys[i] })),
        { index: "x", keys: ["y"], indexKind: time ? "time" : "number", sortByIndex: true },
      );
      for (const issue of frame.issues) issues.push({ ...issue, key });
      const y = frame.values[0] as Float64Array;
      counts.finite += y.filter((v) => !Number.isNaN(v)).length;
      if (frame.emptyReason === TOO_LARGE) counts.tooLarge++;
      return { x: frame.xs, y };
    }
    cleanPrefix.set(xs, Math.max(checked, n));
    const x = float64Of(xs as ArrayLike<number>, n);
    // values drawn as given (the usual case): the caller's array itself, no copy
    let plain = 0;
    while (plain < n && typeof ys[plain] === "number" && isPlainDrawable(ys[plain] as number))
      plain++;
    counts.finite += plain;
    if (plain === n && ys instanceof Float64Array) {
      return { x, y: ys.subarray(0, n) };
    }
    const y = Float64Array.from({ length: n }, (_, i) =>
      i < plain ? (ys[i] as number) : takeValue(ys[i], i, key, issues, counts),
    );
    return { x, y };
  });

  // the index: sorted unique x of all series (one shared x array needs no merge)
  const first = series[0]?.x ?? new Float64Array(0);
  const shared = series.every(
    (s) =>
      s.x.length === first.length &&
      ((s.x.buffer === first.buffer && s.x.byteOffset === first.byteOffset) ||
        s.x.every((x, i) => x === first[i])),
  );
  let xs = first;
  if (!shared) {
    const all = new Float64Array(series.reduce((sum, s) => sum + s.x.length, 0));
    let offset = 0;
    for (const s of series) {
      all.set(s.x, offset);
      offset += s.x.length;
    }
    xs = Float64Array.from(new Set(all.sort()));
  }
  const count = xs.length;
  const values = series.map((s) => {
    if (shared) return s.y;
    // each series' x is sorted and unique, so its points are found by one walk along the index
    const out = new Float64Array(count).fill(NaN);
    let slot = 0;
    for (let k = 0; k < s.x.length; k++) {
      while ((xs[slot] as number) < (s.x[k] as number)) slot++;
      out[slot] = s.y[k] as number;
    }
    return out;
  });

  issues.sort((a, b) => a.row - b.row);
  return {
    kind: time ? "time" : "number",
    rowIndex: null,
    xs,
    categories: null,
    values,
    issues,
    emptyReason: emptyReasonOf(points, keys.length, count, counts.finite, counts.tooLarge),
  };
}
