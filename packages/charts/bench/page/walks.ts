import { walkSeries } from "@seed/sample-data";

/** Three random walks (not sine waves: smooth data hides what downsampling drops), one column each. */
export interface Walks {
  /** epoch ms, one per minute */
  t: Float64Array;
  keys: string[];
  columns: Float64Array[];
}

export function makeRandomWalks(points: number, series: number, seed: number): Walks {
  const start = Date.UTC(2024, 0, 1);
  const t = new Float64Array(points);
  for (let i = 0; i < points; i++) t[i] = start + i * 60_000;
  const keys = ["a", "b", "c", "d", "e", "f"].slice(0, series);
  const columns = keys.map((_, s) => walkSeries(points, seed + s, 100 * (s + 1), 2));
  return { t, keys, columns };
}

export type WalkRow = { t: number } & Record<string, number>;

/** The same walks as row objects, the shape Recharts and row-based @seed/charts take. */
export function rowsOf(walks: Walks): WalkRow[] {
  const rows = new Array<WalkRow>(walks.t.length);
  for (let i = 0; i < rows.length; i++) {
    const row = { t: walks.t[i] as number } as WalkRow;
    for (let s = 0; s < walks.keys.length; s++) {
      row[walks.keys[s] as string] = (walks.columns[s] as Float64Array)[i] as number;
    }
    rows[i] = row;
  }
  return rows;
}
