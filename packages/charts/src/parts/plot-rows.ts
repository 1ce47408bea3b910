import { type CartesianFrame, columnRange } from "../data/rows";

/** A row as drawn: x, the caller's row position, and one value per series under its dataKey. */
export interface DrawnRow {
  __x: number | string;
  __row: number;
  [dataKey: string]: number | string | null;
}

/**
 * Smallest and largest value the value axis must show: of the values, and of the piles when
 * the series are stacked. Null when there is no value.
 */
export function valueExtent(
  columns: readonly Float64Array[],
  stacked: boolean,
): [number, number] | null {
  let min = Infinity;
  let max = -Infinity;
  for (const column of columns) {
    const range = columnRange(column);
    if (!range) continue;
    min = Math.min(min, range[0]);
    max = Math.max(max, range[1]);
  }
  if (stacked && columns.length > 1) {
    const n = (columns[0] as Float64Array).length;
    for (let i = 0; i < n; i++) {
      let total = 0;
      let positive = 0;
      let negative = 0;
      for (const column of columns) {
        const v = column[i] as number;
        if (Number.isNaN(v)) continue;
        total += v;
        if (v > 0) positive += v;
        else negative += v;
      }
      min = Math.min(min, total, negative);
      max = Math.max(max, total, positive);
    }
  }
  return min <= max ? [min, max] : null;
}

/**
 * Recharts' syncMethod: the drawn point nearest to the other chart's x, or none (-1) outside
 * this chart's range. Charts downsampled differently share no index, so "index" would mismatch.
 */
export function nearestTick(
  ticks: readonly { value?: unknown }[],
  state: { activeLabel?: string },
): number {
  const target = +(state.activeLabel as string);
  let best = -1;
  let bestDistance = Infinity;
  ticks.forEach((tick, i) => {
    const distance =
      String(tick.value) === state.activeLabel ? -1 : Math.abs(+(tick.value as number) - target);
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  const first = +(ticks[0]?.value as number);
  const last = +(ticks[ticks.length - 1]?.value as number);
  return bestDistance >= 0 && (target < first || target > last) ? -1 : best;
}

/** Recharts' row objects for the drawn positions (all rows when positions is null). */
export function buildDrawnRows(
  frame: CartesianFrame,
  positions: readonly number[] | null,
): DrawnRow[] {
  const count = positions ? positions.length : frame.xs.length;
  const rows = new Array<DrawnRow>(count);
  for (let k = 0; k < count; k++) {
    const p = positions ? (positions[k] as number) : k;
    const row: DrawnRow = {
      __x: frame.categories ? (frame.categories[p] as string) : (frame.xs[p] as number),
      __row: frame.rowIndex ? (frame.rowIndex[p] as number) : p,
    };
    // dataKey of series s is `s${s}` (see resolveSeries)
    for (let s = 0; s < frame.values.length; s++) {
      const v = (frame.values[s] as Float64Array)[p] as number;
      row[`s${s}`] = Number.isNaN(v) ? null : v;
    }
    rows[k] = row;
  }
  return rows;
}
