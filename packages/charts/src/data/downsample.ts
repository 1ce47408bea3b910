/** Options shared by the downsampling functions. */
export type DownsampleMethod = "minmax-lttb" | "lttb" | "min-max" | "none";

function isFiniteNumber(value: number): boolean {
  return value - value === 0;
}

function extremePositions(
  ys: ArrayLike<number>,
  positions: ArrayLike<number> | null,
): [number, number] {
  const count = positions ? positions.length : ys.length;
  let minPos = positions ? (positions[0] ?? 0) : 0;
  let maxPos = minPos;
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < count; k++) {
    const p = positions ? (positions[k] as number) : k;
    const y = ys[p] as number;
    if (y < min) {
      min = y;
      minPos = p;
    }
    if (y > max) {
      max = y;
      maxPos = p;
    }
  }
  return [minPos, maxPos];
}

/** Positions whose y is a finite number; null when every position is finite (the common case). */
function finitePositions(ys: ArrayLike<number>): Uint32Array | null {
  let gaps = 0;
  for (let i = 0; i < ys.length; i++) if (!isFiniteNumber(ys[i] as number)) gaps++;
  if (gaps === 0) return null;
  const out = new Uint32Array(ys.length - gaps);
  let k = 0;
  for (let i = 0; i < ys.length; i++) if (isFiniteNumber(ys[i] as number)) out[k++] = i;
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
  positions: ArrayLike<number> | null,
  count: number,
  threshold: number,
): number[] {
  const first = positions ? (positions[0] as number) : 0;
  const picked: number[] = [first];
  const every = (count - 2) / (threshold - 2);
  let a = first;
  for (let bucket = 0; bucket < threshold - 2; bucket++) {
    const avgStart = Math.floor((bucket + 1) * every) + 1;
    const avgEnd = Math.min(Math.floor((bucket + 2) * every) + 1, count);
    let avgX = 0;
    let avgY = 0;
    for (let k = avgStart; k < avgEnd; k++) {
      const p = positions ? (positions[k] as number) : k;
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
    let chosen = positions ? (positions[rangeStart] as number) : rangeStart;
    for (let k = rangeStart; k < rangeEnd; k++) {
      const p = positions ? (positions[k] as number) : k;
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
  picked.push(positions ? (positions[count - 1] as number) : count - 1);
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
  const positions = preselect
    ? Uint32Array.from(
        selectMinMaxIndices(ys, Math.max(threshold, 3) * preselect).filter((p) =>
          isFiniteNumber(ys[p] as number),
        ),
      )
    : finitePositions(ys);
  const count = positions ? positions.length : length;
  if (count <= Math.max(threshold, 3)) {
    const kept = positions ? Array.from(positions) : identityPositions(length);
    return sortedUnique([...kept, ...gapStarts(ys)]);
  }
  const picked = lttbOverPositions(xs, ys, positions, count, Math.max(threshold, 3));
  const [minPos, maxPos] = extremePositions(ys, positions);
  picked.push(minPos, maxPos);
  if (positions) picked.push(...gapStarts(ys));
  return sortedUnique(picked);
}

/**
 * Min-max decimation: splits the series into about threshold / 2 buckets and keeps the lowest and
 * highest point of each (in order), plus first and last. Positions are ascending; gaps as in LTTB.
 */
export function selectMinMaxIndices(ys: ArrayLike<number>, threshold: number): number[] {
  const length = ys.length;
  const positions = finitePositions(ys);
  const count = positions ? positions.length : length;
  if (threshold >= length || count === 0) return identityPositions(length);
  const at = positions ? (k: number) => positions[k] as number : (k: number) => k;
  if (count <= Math.max(threshold, 2)) {
    const kept = positions ? Array.from(positions) : identityPositions(length);
    return sortedUnique([...kept, ...gapStarts(ys)]);
  }
  const buckets = Math.max(1, Math.floor((threshold - 2) / 2));
  const picked: number[] = [at(0), at(count - 1)];
  const size = count / buckets;
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor(b * size);
    const end = Math.min(Math.floor((b + 1) * size), count);
    if (start >= end) continue;
    let minPos = at(start);
    let maxPos = minPos;
    for (let k = start + 1; k < end; k++) {
      const p = at(k);
      const y = ys[p] as number;
      if (y < (ys[minPos] as number)) minPos = p;
      if (y > (ys[maxPos] as number)) maxPos = p;
    }
    picked.push(minPos, maxPos);
  }
  if (positions) picked.push(...gapStarts(ys));
  return sortedUnique(picked);
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
  const marks = new Uint8Array(length);
  for (const ys of seriesValues) {
    const picked = pick(ys, share);
    for (const p of picked) marks[p] = 1;
  }
  const out: number[] = [];
  for (let i = 0; i < length; i++) if (marks[i] === 1) out.push(i);
  return out;
}
