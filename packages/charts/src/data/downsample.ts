/** Options shared by the downsampling functions. */
export type DownsampleMethod = "minmax-lttb" | "lttb" | "min-max" | "none";

function isFiniteNumber(value: number): boolean {
  return value - value === 0;
}

function extremePositions(ys: ArrayLike<number>, positions: readonly number[]): [number, number] {
  let minPos = positions[0] ?? 0;
  let maxPos = minPos;
  for (const p of positions) {
    if ((ys[p] as number) < (ys[minPos] as number)) minPos = p;
    if ((ys[p] as number) > (ys[maxPos] as number)) maxPos = p;
  }
  return [minPos, maxPos];
}

/** Positions whose y is a finite number, in order. */
function finitePositions(ys: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < ys.length; i++) if (isFiniteNumber(ys[i] as number)) out.push(i);
  return out;
}

/** First position of every gap (non-finite y) that sits between drawn points, so lines still break there. */
function gapStarts(ys: ArrayLike<number>): number[] {
  const starts: number[] = [];
  for (let i = 1; i < ys.length; i++) {
    if (!isFiniteNumber(ys[i] as number) && isFiniteNumber(ys[i - 1] as number)) starts.push(i);
  }
  return starts;
}

function sortedUnique(values: number[]): number[] {
  values.sort((a, b) => a - b);
  const out: number[] = [];
  for (const v of values) if (out.length === 0 || out[out.length - 1] !== v) out.push(v);
  return out;
}

function identityPositions(length: number): number[] {
  const out = new Array<number>(length);
  for (let i = 0; i < length; i++) out[i] = i;
  return out;
}

function lttbOverPositions(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  positions: readonly number[],
  threshold: number,
): number[] {
  const count = positions.length;
  const first = positions[0] as number;
  const picked: number[] = [first];
  const every = (count - 2) / (threshold - 2);
  let a = first;
  for (let bucket = 0; bucket < threshold - 2; bucket++) {
    const avgStart = Math.floor((bucket + 1) * every) + 1;
    const avgEnd = Math.min(Math.floor((bucket + 2) * every) + 1, count);
    let avgX = 0;
    let avgY = 0;
    for (let k = avgStart; k < avgEnd; k++) {
      const p = positions[k] as number;
      avgX += xs[p] as number;
      avgY += ys[p] as number;
    }
    const avgLength = Math.max(avgEnd - avgStart, 1);
    avgX /= avgLength;
    avgY /= avgLength;
    const rangeStart = Math.floor(bucket * every) + 1;
    const rangeEnd = Math.floor((bucket + 1) * every) + 1;
    const ax = xs[a] as number;
    const ay = ys[a] as number;
    let maxArea = -1;
    let chosen = positions[rangeStart] as number;
    for (let k = rangeStart; k < rangeEnd; k++) {
      const p = positions[k] as number;
      const area = Math.abs(
        (ax - avgX) * ((ys[p] as number) - ay) - (ax - (xs[p] as number)) * (avgY - ay),
      );
      if (area > maxArea) {
        maxArea = area;
        chosen = p;
      }
    }
    picked.push(chosen);
    a = chosen;
  }
  picked.push(positions[count - 1] as number);
  return picked;
}

/**
 * Largest-Triangle-Three-Buckets: positions (ascending) of about `threshold` points that keep the
 * shape of the series (xs and ys have the same length, xs ascending). First, last, global minimum and maximum are always kept; a non-finite y is
 * a gap, and the first position of each gap is kept so a drawn line still breaks there.
 */
export function selectLttbIndices(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  threshold: number,
  preselect = 0,
): number[] {
  const length = ys.length;
  if (threshold >= length) return identityPositions(length);
  // MinMaxLTTB: LTTB over a min-max preselection of `preselect` points per point kept.
  const selection = preselect ? minMaxSelection(ys, Math.max(threshold, 3) * preselect) : null;
  const positions = selection
    ? selection.picked.filter((p) => isFiniteNumber(ys[p] as number))
    : finitePositions(ys);
  const gaps = (selection ? selection.gapFree : positions.length === length) ? [] : gapStarts(ys);
  // spread into arrays, not into push: a gappy series has more gap starts than a call has arguments
  if (positions.length <= Math.max(threshold, 3)) return sortedUnique([...positions, ...gaps]);
  return sortedUnique([
    ...lttbOverPositions(xs, ys, positions, Math.max(threshold, 3)),
    ...extremePositions(ys, positions),
    ...gaps,
  ]);
}

/**
 * Min-max over a series with no gap, in one pass and without a copy: the first and last
 * position and each bucket's lowest and highest (first of equals). Null at the first gap.
 */
function gapFreeMinMax(ys: ArrayLike<number>, buckets: number): number[] | null {
  const count = ys.length;
  const picked: number[] = [0, count - 1];
  const size = count / buckets;
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor(b * size);
    const end = Math.min(Math.floor((b + 1) * size), count);
    if (start >= end) continue;
    let min = ys[start] as number;
    if (!isFiniteNumber(min)) return null;
    let max = min;
    let minPos = start;
    let maxPos = start;
    for (let k = start + 1; k < end; k++) {
      const y = ys[k] as number;
      if (y < min) {
        min = y;
        minPos = k;
      } else if (y > max) {
        max = y;
        maxPos = k;
      }
      if (y - y !== 0) return null;
    }
    picked.push(minPos, maxPos);
  }
  return picked;
}

/** Min-max decimation (see below), and whether the series has no gap. */
function minMaxSelection(
  ys: ArrayLike<number>,
  threshold: number,
): { picked: number[]; gapFree: boolean } {
  const length = ys.length;
  if (threshold >= length) return { picked: identityPositions(length), gapFree: false };
  const buckets = Math.max(1, Math.floor((threshold - 2) / 2));
  if (length > Math.max(threshold, 2)) {
    const fast = gapFreeMinMax(ys, buckets);
    if (fast) return { picked: sortedUnique(fast), gapFree: true };
  }
  // a series with gaps: the same over its finite values, then their positions, gaps kept
  const positions = finitePositions(ys);
  const count = positions.length;
  const gapFree = count === length;
  if (count === 0) return { picked: identityPositions(length), gapFree };
  if (count <= Math.max(threshold, 2)) {
    return { picked: sortedUnique([...positions, ...gapStarts(ys)]), gapFree };
  }
  const finite = Float64Array.from(positions, (p) => ys[p] as number);
  const picked = (gapFreeMinMax(finite, buckets) ?? []).map((k) => positions[k] as number);
  return { picked: sortedUnique([...picked, ...gapStarts(ys)]), gapFree };
}

/**
 * Min-max decimation: splits the series into about threshold / 2 buckets and keeps the lowest and
 * highest point of each (in order), plus first and last. Positions are ascending; gaps as in LTTB.
 */
export function selectMinMaxIndices(ys: ArrayLike<number>, threshold: number): number[] {
  return minMaxSelection(ys, threshold).picked;
}

/** Points MinMaxLTTB preselects per point it keeps (the paper's suggested ratio). */
export const minMaxLttbRatio = 4;

/**
 * MinMaxLTTB (Van Der Donckt et al., 2023): min-max decimation to 4 x threshold points, then LTTB
 * over those. Same shape as LTTB, linear in the input with a small constant; an isolated spike is
 * its bucket's extreme, and the global extremes are always kept.
 */
export function selectMinMaxLttbIndices(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  threshold: number,
): number[] {
  return selectLttbIndices(xs, ys, threshold, minMaxLttbRatio);
}

/** A point of a series, for the array forms of the downsamplers. */
export interface SeriesPoint {
  x: number;
  y: number;
}

/** Largest-Triangle-Three-Buckets over points sorted by x; returns the kept points, unchanged. */
export function downsampleLttb<P extends SeriesPoint>(
  points: readonly P[],
  threshold: number,
): P[] {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return selectLttbIndices(xs, ys, threshold).map((i) => points[i] as P);
}

/** Min-max decimation over points sorted by x; returns the kept points, unchanged. */
export function downsampleMinMax<P extends SeriesPoint>(
  points: readonly P[],
  threshold: number,
): P[] {
  const ys = points.map((p) => p.y);
  return selectMinMaxIndices(ys, threshold).map((i) => points[i] as P);
}

/**
 * Positions to draw for several series sharing one x: the union of each series' selection
 * (each gets an equal share of the threshold, so the union stays near it), so every drawn row
 * is an original row and tooltips show exact values.
 */
export function selectDrawnPositions(
  xs: ArrayLike<number>,
  seriesValues: readonly ArrayLike<number>[],
  threshold: number,
  method: DownsampleMethod,
): number[] | null {
  const length = xs.length;
  if (method === "none" || length <= threshold || seriesValues.length === 0) return null;
  const pick = (ys: ArrayLike<number>, count: number) =>
    method === "min-max"
      ? selectMinMaxIndices(ys, count)
      : selectLttbIndices(xs, ys, count, method === "lttb" ? 0 : minMaxLttbRatio);
  if (seriesValues.length === 1) return pick(seriesValues[0] as ArrayLike<number>, threshold);
  const share = Math.max(32, Math.floor(threshold / seriesValues.length));
  return sortedUnique(seriesValues.flatMap((ys) => pick(ys, share)));
}
