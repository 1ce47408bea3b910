import { drawableValue, isDrawableTime } from "./domain";
import { type CartesianFrame, type DataIssue, describeValue, emptyReasonOf } from "./rows";

/** One series as columns: point i is (x[i], y[i]). Typed arrays keep a million points cheap. */
export interface SeriesColumns {
  x: ArrayLike<number>;
  y: ArrayLike<number>;
}

/** Line and area data as columns, one `{ x, y }` per series key, instead of row objects. */
export type ColumnData<Row> = { readonly [K in Extract<keyof Row, string>]?: SeriesColumns };

const isList = (v: unknown): v is ArrayLike<unknown> => Array.isArray(v) || ArrayBuffer.isView(v);

/** The common case, checked inline: a finite value `drawableValue` would keep as it is. */
const plain = (v: number) => {
  const magnitude = Math.abs(v);
  return magnitude <= 1e300 && (magnitude >= 1e-300 || v === 0);
};

/** Data given as `{ key: { x, y } }` rather than an array of rows. */
export function isColumnData(data: unknown): data is Record<string, unknown> {
  return typeof data === "object" && data !== null && !Array.isArray(data);
}

/**
 * Series given as x/y columns, merged into one frame: the index is every valid x of any series,
 * sorted, each once; a series without a point at some x has a gap there. x values are checked
 * like a row index and y values like row values (see `prepareCartesianFrame`); an issue's `row`
 * is the point's position in its series' arrays.
 */
export function prepareColumnFrame(
  data: Record<string, unknown>,
  keys: readonly string[],
  time: boolean,
): CartesianFrame {
  const issues: DataIssue[] = [];
  let points = 0;
  // each series' valid points: x and position, in input order
  const valid = keys.map((key) => {
    const columns = data[key] as Partial<SeriesColumns> | null | undefined;
    const xs = columns?.x;
    const ys = columns?.y;
    if (!isList(xs) || !isList(ys)) {
      if (columns !== undefined) {
        issues.push({ row: 0, key, reason: "series data is not { x: array, y: array }" });
      }
      return { x: new Float64Array(0), at: new Uint32Array(0), ys: [] as ArrayLike<unknown> };
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
    const x = new Float64Array(n);
    const at = new Uint32Array(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      const raw = xs[i];
      let v = typeof raw === "number" ? raw : NaN;
      if (!time && plain(v)) {
        x[count] = v === 0 ? 0 : v;
        at[count++] = i;
        continue;
      }
      if (time ? !isDrawableTime(v) : !Number.isFinite(v)) {
        issues.push({
          row: i,
          key,
          reason: `index ${describeValue(raw)}${time && Number.isFinite(v) ? " is outside the date range (±8.64e15 ms)" : ""}`,
        });
        continue;
      }
      if (!time) {
        const drawable = drawableValue(v);
        if (drawable.reason) issues.push({ row: i, key, reason: `index ${drawable.reason}` });
        if (Number.isNaN(drawable.value)) continue;
        v = drawable.value;
      }
      x[count] = v;
      at[count++] = i;
    }
    return { x: x.subarray(0, count), at: at.subarray(0, count), ys };
  });

  // the index: sorted unique x of all series (shared, already increasing x needs no sort)
  const first = valid[0]?.x ?? new Float64Array(0);
  let increasing = true;
  for (let i = 1; i < first.length && increasing; i++) {
    increasing = (first[i] as number) > (first[i - 1] as number);
  }
  const shared =
    increasing &&
    valid.every((s) => {
      if (s.x.length !== first.length) return false;
      for (let i = 0; i < first.length; i++) if (s.x[i] !== first[i]) return false;
      return true;
    });
  let xs = first;
  if (!shared) {
    const all = new Float64Array(valid.reduce((sum, s) => sum + s.x.length, 0));
    let offset = 0;
    for (const s of valid) {
      all.set(s.x, offset);
      offset += s.x.length;
    }
    all.sort();
    let unique = 0;
    for (let i = 0; i < all.length; i++) {
      if (unique === 0 || all[i] !== all[unique - 1]) all[unique++] = all[i] as number;
    }
    xs = all.subarray(0, unique);
  }

  const count = xs.length;
  let finiteCount = 0;
  let tooLarge = 0;
  const values = valid.map((s, column) => {
    const key = keys[column] as string;
    const out = new Float64Array(count).fill(NaN);
    const filled = shared ? null : new Uint8Array(count);
    for (let k = 0; k < s.x.length; k++) {
      const position = s.at[k] as number;
      let slot = k;
      if (filled) {
        // binary search: the x is in the index by construction
        const x = s.x[k] as number;
        let low = 0;
        let high = count - 1;
        while (low < high) {
          const mid = (low + high) >> 1;
          if ((xs[mid] as number) < x) low = mid + 1;
          else high = mid;
        }
        slot = low;
        if (filled[slot]) {
          issues.push({ row: position, key, reason: "repeats an earlier index value" });
          continue;
        }
        filled[slot] = 1;
      }
      const raw = s.ys[position];
      if (typeof raw === "number" && plain(raw)) {
        out[slot] = raw;
        finiteCount++;
      } else if (typeof raw === "number" && Number.isFinite(raw)) {
        const drawable = drawableValue(raw);
        if (drawable.reason) issues.push({ row: position, key, reason: drawable.reason });
        out[slot] = drawable.value;
        if (Number.isNaN(drawable.value)) tooLarge++;
        else finiteCount++;
      } else {
        issues.push({
          row: position,
          key,
          reason: `${describeValue(raw)} is not a finite number`,
        });
      }
    }
    return out;
  });

  const rowIndex = new Uint32Array(count);
  for (let k = 0; k < count; k++) rowIndex[k] = k;
  issues.sort((a, b) => a.row - b.row);
  return {
    kind: time ? "time" : "number",
    rowIndex,
    xs,
    categories: null,
    values,
    issues,
    emptyReason: emptyReasonOf(points, keys.length, count, finiteCount, tooLarge),
  };
}
