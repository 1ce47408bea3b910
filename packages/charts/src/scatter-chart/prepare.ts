import { getNiceTickValues } from "recharts";
import { collapsedSpanTicks, drawableValue, isDrawableTime, isPlainDrawable } from "../data/domain";
import { detectIndexKind, toTimestamp } from "../data/format";
import { columnRange, type DataIssue, describeValue } from "../data/rows";
import { PALETTE_SIZE } from "../data/series";

/** How a scatter chart reads its x values. */
export type ScatterXKind = "number" | "time";

/** The group of points whose colour column is missing. */
export const NO_GROUP = "(none)";
/** The group that holds the least common colour values past the palette's size. */
export const OTHER_GROUP = "Other";

/** Points checked and converted into columns: what a scatter chart can draw. */
export interface ScatterFrame {
  xKind: ScatterXKind;
  /** Position in the caller's array of each kept point. */
  rowIndex: Uint32Array;
  xs: Float64Array;
  ys: Float64Array;
  /** Size value per kept point (NaN: none), or null without a size column. */
  sizes: Float64Array | null;
  /** Group (colour) position per kept point, into `groups`. */
  group: Uint8Array;
  /** Group names, most points first ("Other" last); one group named after `y` without a colour column. */
  groups: string[];
  /** Points per group. */
  groupCounts: number[];
  xRange: readonly [number, number] | null;
  yRange: readonly [number, number] | null;
  sizeRange: readonly [number, number] | null;
  issues: DataIssue[];
  /** Why nothing can be drawn, when that is the case. */
  emptyReason: string | null;
}

export interface PrepareScatterOptions {
  x: string;
  y: string;
  size?: string | undefined;
  color?: string | undefined;
  /** Force how x is read instead of guessing it from its values. */
  xKind?: ScatterXKind | undefined;
  /** The single group's name without a colour column (default: `y`). */
  seriesName?: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** A colour value's group name: strings and finite numbers as written, booleans as words. */
function groupName(value: unknown): string | null {
  if (typeof value === "string") return value.trim() === "" ? null : value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : null;
  if (typeof value === "boolean") return String(value);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  return null;
}

/**
 * Checks rows and converts them into columns. A point needs a drawable x and y; rows without
 * them are dropped, each with an issue. A size that is missing, not a finite number or below 0
 * draws the point at the smallest size (an issue names the changed ones). Colour values past
 * the palette's size fold into "Other" (the least common ones), so no two groups share a colour.
 */
export function prepareScatterFrame(data: unknown, options: PrepareScatterOptions): ScatterFrame {
  const rows: readonly unknown[] = Array.isArray(data) ? data : [];
  const n = rows.length;
  const { x, y, size, color } = options;
  const xKind =
    options.xKind ??
    (detectIndexKind(rows.slice(0, 64).map((row) => (isRecord(row) ? row[x] : undefined))) ===
    "time"
      ? "time"
      : "number");
  const issues: DataIssue[] = [];
  const positions = new Uint32Array(n);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const sizes = size ? new Float64Array(n) : null;
  const names: (string | null)[] = color ? new Array(n) : [];
  const counts = new Map<string | null, number>();
  let kept = 0;
  let tooLarge = 0;

  const readNumber = (raw: unknown, row: number, key: string): number => {
    if (typeof raw === "number" && isPlainDrawable(raw)) return raw;
    if (typeof raw === "number" && Number.isFinite(raw)) {
      const drawable = drawableValue(raw);
      if (drawable.reason) issues.push({ row, key, reason: drawable.reason });
      if (Number.isNaN(drawable.value)) tooLarge++;
      return drawable.value;
    }
    issues.push({ row, key, reason: `${describeValue(raw)} is not a finite number` });
    return NaN;
  };

  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (!isRecord(row)) {
      issues.push({ row: i, key: null, reason: `row is ${describeValue(row)}, not an object` });
      continue;
    }
    let px: number;
    if (xKind === "time") {
      const raw = row[x];
      px = toTimestamp(raw);
      if (!isDrawableTime(px)) {
        issues.push({
          row: i,
          key: x,
          reason: Number.isFinite(px)
            ? `${describeValue(raw)} is outside the date range (±8.64e15 ms)`
            : `${describeValue(raw)} is not a date`,
        });
        continue;
      }
    } else {
      px = readNumber(row[x], i, x);
      if (Number.isNaN(px)) continue;
    }
    const py = readNumber(row[y], i, y);
    if (Number.isNaN(py)) continue;
    positions[kept] = i;
    xs[kept] = px;
    ys[kept] = py;
    if (sizes && size) {
      const raw = row[size];
      let s = NaN;
      if (typeof raw === "number" && Number.isFinite(raw) && raw >= 0) {
        const drawable = drawableValue(raw);
        if (drawable.reason) {
          issues.push({
            row: i,
            key: size,
            reason: `size ${drawable.reason}${Number.isNaN(drawable.value) ? ", drawn at the smallest size" : ""}`,
          });
        }
        s = drawable.value;
      } else if (raw !== null && raw !== undefined) {
        issues.push({
          row: i,
          key: size,
          reason: `size ${describeValue(raw)} is not a number of 0 or more, drawn at the smallest size`,
        });
      }
      sizes[kept] = s;
    }
    if (color) {
      const name = groupName(row[color]);
      names[kept] = name;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    kept++;
  }

  // most points first, then first seen; past the palette the rest share "Other"
  let groups: string[];
  let groupCounts: number[];
  const group = new Uint8Array(kept);
  if (color) {
    const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    const shown = ranked.length > PALETTE_SIZE ? ranked.slice(0, PALETTE_SIZE - 1) : ranked;
    const folded = ranked.slice(shown.length);
    const taken = new Set<string>();
    // a column value that is itself "(none)" or "Other" keeps its name; the made-up group moves
    const label = (name: string | null) => (name === null ? uniqueName(NO_GROUP, counts) : name);
    groups = shown.map(([name]) => label(name));
    for (const name of groups) taken.add(name);
    groupCounts = shown.map(([, count]) => count);
    if (folded.length > 0) {
      groups.push(uniqueName(OTHER_GROUP, taken));
      groupCounts.push(folded.reduce((sum, [, count]) => sum + count, 0));
    }
    const positionOf = new Map<string | null, number>();
    shown.forEach(([name], k) => {
      positionOf.set(name, k);
    });
    for (let k = 0; k < kept; k++) {
      group[k] = positionOf.get(names[k] as string | null) ?? shown.length;
    }
  } else {
    groups = [options.seriesName ?? y];
    groupCounts = [kept];
  }

  const cut = <T extends Float64Array>(column: T) => column.subarray(0, kept) as T;
  const keptXs = cut(xs);
  const keptYs = cut(ys);
  const keptSizes = sizes ? cut(sizes) : null;
  return {
    xKind,
    rowIndex: positions.subarray(0, kept),
    xs: keptXs,
    ys: keptYs,
    sizes: keptSizes,
    group,
    groups,
    groupCounts,
    xRange: columnRange(keptXs),
    yRange: columnRange(keptYs),
    sizeRange: keptSizes ? columnRange(keptSizes) : null,
    issues,
    emptyReason:
      n === 0
        ? "No data"
        : kept > 0
          ? null
          : tooLarge > 0
            ? "Values are too large to draw"
            : `No row has a valid ${xKind === "time" ? "date" : "number"} for ${x} and number for ${y}`,
  };
}

/** `base`, or `base 2`, `base 3`… when a value of the column already has that name. */
function uniqueName(base: string, taken: { has: (name: string) => boolean }): string {
  let name = base;
  for (let k = 2; taken.has(name); k++) name = `${base} ${k}`;
  return name;
}

/** Points drawn one by one when the caller sets no limit. */
export const DEFAULT_POINT_LIMIT = 2_000;

/** A caller's `maxPoints` as a limit: at least 1, whole; Infinity never thins; NaN or none: the default. */
export function pointLimit(maxPoints: number | undefined): number {
  if (maxPoints === undefined || Number.isNaN(maxPoints)) return DEFAULT_POINT_LIMIT;
  return Math.max(1, Math.floor(maxPoints));
}

/** What is drawn: one point per occupied cell of each group past the limit, with its count. */
export interface ScatterSample {
  /** Positions into the frame's columns of the points drawn. */
  points: Uint32Array;
  /** How many of the frame's points each drawn point stands for (1 below the limit). */
  counts: Uint32Array;
  /** Cell size in px when thinned, else 0. */
  cell: number;
}

/**
 * Density downsampling: at most `limit` points are drawn as they are; past it, the plot is cut
 * into square cells (sized so about `limit` cells cover it) and each group keeps its first point
 * in every cell it occupies, counting the points it stands for. The shape of the cloud, its
 * outliers and every group's extent survive; the counts shade the points (dense cells darker).
 */
export function thinScatter(
  frame: Pick<ScatterFrame, "xs" | "ys" | "group" | "groups" | "xRange" | "yRange">,
  width: number,
  height: number,
  limit: number,
  hiddenGroups: ReadonlySet<number> = new Set(),
): ScatterSample {
  const n = frame.xs.length;
  let shown = 0;
  for (let i = 0; i < n; i++) if (!hiddenGroups.has(frame.group[i] as number)) shown++;
  if (shown <= limit || !frame.xRange || !frame.yRange) {
    const points = new Uint32Array(shown);
    let k = 0;
    for (let i = 0; i < n; i++) if (!hiddenGroups.has(frame.group[i] as number)) points[k++] = i;
    return { points, counts: new Uint32Array(shown).fill(1), cell: 0 };
  }
  const w = Math.max(1, width);
  const h = Math.max(1, height);
  const cell = Math.max(2, Math.sqrt((w * h) / Math.max(1, limit)));
  const columns = Math.max(1, Math.ceil(w / cell));
  const rowsOfCells = Math.max(1, Math.ceil(h / cell));
  const [x0, x1] = frame.xRange;
  const [y0, y1] = frame.yRange;
  const sx = x1 > x0 ? (columns - 1e-9) / (x1 - x0) : 0;
  const sy = y1 > y0 ? (rowsOfCells - 1e-9) / (y1 - y0) : 0;
  const groupCount = frame.groups.length;
  // first point of each (group, cell), +1 (0: none yet)
  const firstOf = new Uint32Array(columns * rowsOfCells * groupCount);
  const countOf = new Uint32Array(firstOf.length);
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    const g = frame.group[i] as number;
    if (hiddenGroups.has(g)) continue;
    const cx = Math.floor(((frame.xs[i] as number) - x0) * sx);
    const cy = Math.floor(((frame.ys[i] as number) - y0) * sy);
    const slot = (g * rowsOfCells + cy) * columns + cx;
    if (firstOf[slot] === 0) {
      firstOf[slot] = i + 1;
      order.push(slot);
    }
    countOf[slot] = (countOf[slot] as number) + 1;
  }
  const points = new Uint32Array(order.length);
  const counts = new Uint32Array(order.length);
  order.forEach((slot, k) => {
    points[k] = (firstOf[slot] as number) - 1;
    counts[k] = countOf[slot] as number;
  });
  return { points, counts, cell };
}

/** An axis' bounds as the charts' `xAxis`/`yAxis` take them. */
export interface AxisBounds {
  min?: number | "auto" | "dataMin" | undefined;
  max?: number | "auto" | "dataMax" | undefined;
}

/**
 * An axis over a range: nice ticks (Recharts' own function) and a domain that holds them all.
 * A bound the caller sets widens it (never cuts points off, as on the other charts); "dataMin"
 * and "dataMax" keep that end at the data's own extreme.
 */
export function niceDomain(
  range: readonly [number, number] | null,
  bounds: AxisBounds = {},
): { domain: [number, number]; ticks: number[] } {
  if (!range) return { domain: [0, 1], ticks: [0, 1] };
  const wanted = (bound: unknown) =>
    typeof bound === "number" && Number.isFinite(bound) ? drawableValue(bound).value : NaN;
  const lowBound = wanted(bounds.min);
  const highBound = wanted(bounds.max);
  // no bound (NaN) leaves the data's own end
  const from = Number.isNaN(lowBound) ? range[0] : Math.min(lowBound, range[0]);
  const to = Number.isNaN(highBound) ? range[1] : Math.max(highBound, range[1]);
  const collapsed = collapsedSpanTicks(from, to);
  if (collapsed) {
    return {
      domain: [collapsed[0] as number, collapsed[collapsed.length - 1] as number],
      ticks: collapsed,
    };
  }
  const [low, high] = from === to ? [from - 1, to + 1] : [from, to];
  const ticks = getNiceTickValues([low, high], 5, true) as number[];
  const first = bounds.min === "dataMin" || lowBound <= low ? low : Math.min(low, ticks[0] ?? low);
  const last =
    bounds.max === "dataMax" || highBound >= high
      ? high
      : Math.max(high, ticks[ticks.length - 1] ?? high);
  return { domain: [first, last], ticks: ticks.filter((t) => t >= first && t <= last) };
}

/** Largest radius of a sized point, px; the smallest is MIN_RADIUS. */
const MAX_RADIUS = 14;
const MIN_RADIUS = 2;
const DOT_RADIUS = 3.5;

/** Radius per drawn point: area by size (0 to the largest), or one radius for all. */
export function radiiOf(frame: ScatterFrame, sample: ScatterSample): Float32Array {
  const radii = new Float32Array(sample.points.length);
  const top = frame.sizeRange ? Math.max(0, frame.sizeRange[1]) : 0;
  const dot = sample.points.length > 500 ? 2.5 : DOT_RADIUS;
  for (let k = 0; k < radii.length; k++) {
    const s = frame.sizes ? (frame.sizes[sample.points[k] as number] as number) : NaN;
    radii[k] = !frame.sizes
      ? dot
      : Number.isNaN(s) || top <= 0
        ? MIN_RADIUS
        : Math.max(MIN_RADIUS, MAX_RADIUS * Math.sqrt(s / top));
  }
  return radii;
}

/** Fill opacity of a point by how many points its cell holds (1, up to 9, up to 99, more). */
export const SHADES = [0.55, 0.7, 0.85, 1] as const;

function shadeOf(count: number): number {
  return count <= 1 ? 0 : count < 10 ? 1 : count < 100 ? 2 : 3;
}

/** One path of circles per group and shade: how both the React chart and the SVG draw points. */
export interface PointPath {
  group: number;
  /** Fill opacity, from SHADES. */
  shade: number;
  d: string;
}

/**
 * The drawn points as paths, from their pixel positions (`px`, `py`, per drawn point): points
 * at no finite position are left out. Groups in order, lighter shades first.
 */
export function pointPaths(
  frame: Pick<ScatterFrame, "group">,
  sample: ScatterSample,
  radii: Float32Array,
  px: ArrayLike<number>,
  py: ArrayLike<number>,
): PointPath[] {
  const parts = new Map<number, string[]>();
  for (let k = 0; k < sample.points.length; k++) {
    const x = px[k] as number;
    const y = py[k] as number;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    const group = frame.group[sample.points[k] as number] as number;
    const slot = group * SHADES.length + shadeOf(sample.counts[k] as number);
    const r = radii[k] as number;
    const list = parts.get(slot) ?? [];
    list.push(
      `M${(x - r).toFixed(1)},${y.toFixed(1)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`,
    );
    parts.set(slot, list);
  }
  return [...parts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([slot, list]) => ({
      group: Math.floor(slot / SHADES.length),
      shade: SHADES[slot % SHADES.length] as number,
      d: list.join(""),
    }));
}
