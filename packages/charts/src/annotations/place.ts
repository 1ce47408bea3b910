import { type IndexKind, toTimestamp } from "../data/format";
import type { AnnotationPlacement, ChartAnnotation, PlacedAnnotation } from "../parts/annotations";
import { charsFitting, shorten } from "../parts/axis-tick";
import type { DrawnRow } from "../parts/plot-rows";

/** Where a value sits on a time or number axis (a number written as text counts), else NaN. */
function positionOf(value: unknown, kind: IndexKind): number {
  if (kind === "time") return toTimestamp(value);
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : NaN;
}

/**
 * Where each annotation goes among the drawn rows, and which rows it covers: those whose index is
 * within it, else (a marker between two downsampled points, a band narrower than their gap) the
 * drawn row nearest to it. One outside the drawn range is not shown; one whose `at` is no value of
 * the axis (or has no label) is left out.
 */
export function placeAnnotations(
  drawn: readonly DrawnRow[],
  annotations: readonly ChartAnnotation[] | undefined,
  kind: IndexKind,
  bandAxis: boolean,
): AnnotationPlacement {
  const placed: PlacedAnnotation[] = [];
  const notes = new Map<DrawnRow, string>();
  const last = drawn.length - 1;
  if (!Array.isArray(annotations) || annotations.length === 0 || last < 0) {
    return { placed, notes };
  }
  const xs = drawn.map((row) => (kind === "category" ? NaN : +row.__x));
  for (const annotation of annotations) {
    const label = typeof annotation?.label === "string" ? annotation.label.trim() : "";
    if (!label) continue;
    const ranged = annotation.to !== undefined && annotation.to !== null;
    let first: number;
    let end: number;
    let from: number | string;
    let to: number | string;
    if (kind === "category") {
      first = drawn.findIndex((row) => row.__x === String(annotation.at));
      end = ranged ? drawn.findIndex((row) => row.__x === String(annotation.to)) : first;
      if (first < 0) continue;
      if (end < 0) end = first;
      if (end < first) [first, end] = [end, first];
      from = drawn[first]?.__x as string;
      to = drawn[end]?.__x as string;
    } else {
      let low = positionOf(annotation.at, kind);
      let high = ranged ? positionOf(annotation.to, kind) : low;
      if (Number.isNaN(low)) continue;
      if (Number.isNaN(high)) high = low;
      if (high < low) [low, high] = [high, low];
      if (high < (xs[0] as number) || low > (xs[last] as number)) continue;
      first = xs.findIndex((x) => x >= low);
      end = first < 0 ? -1 : first - 1;
      while (end < last && (xs[end + 1] as number) <= high) end++;
      if (first < 0 || end < first) {
        // nothing drawn inside it: the nearest drawn row to its middle
        const middle = (low + high) / 2;
        const after = Math.max(0, first);
        const before = Math.max(0, after - 1);
        first = end =
          Math.abs((xs[before] as number) - middle) <= Math.abs((xs[after] as number) - middle)
            ? before
            : after;
      }
      from = bandAxis ? +(drawn[first]?.__x as number) : low;
      to = bandAxis ? +(drawn[end]?.__x as number) : high;
    }
    placed.push({
      label,
      color: annotation.color,
      from,
      to,
      band: ranged && (bandAxis || from !== to),
    });
    for (let i = first; i <= end; i++) {
      const row = drawn[i] as DrawnRow;
      const before = notes.get(row);
      notes.set(row, before ? `${before}; ${label}` : label);
    }
  }
  return { placed, notes };
}

/** An annotation as drawn along the index axis, in px. */
export interface AnnotationSpan {
  annotation: PlacedAnnotation;
  /** Start and end along the axis (equal for a marker), inside the plot. */
  low: number;
  high: number;
  /** Drawn as a band (a range wider than nothing), else as a marker at `low`. */
  band: boolean;
  /** The label as written beside it (cut to its room), or null when there is no room. */
  text: string | null;
}

/**
 * Where each placed annotation is drawn between `start` and `start + length` px of the index
 * axis, in order along it; `position` maps an index value to px (a band axis: the start, middle
 * or end of its band). Labels run along a horizontal axis up to the next annotation (a label
 * with less than 24 px is left out); on a vertical one each lies across the plot, whole.
 */
export function annotationSpans(
  placed: readonly PlacedAnnotation[],
  position: (value: number | string, where: "start" | "middle" | "end") => number | undefined,
  start: number,
  length: number,
  vertical: boolean,
): AnnotationSpan[] {
  const spans = placed
    .map((annotation) => {
      const a = position(annotation.from, annotation.band ? "start" : "middle");
      const b = position(annotation.to, annotation.band ? "end" : "middle");
      if (a === undefined || b === undefined || !Number.isFinite(a + b)) return null;
      const low = Math.max(start, Math.min(a, b));
      const high = Math.min(start + length, Math.max(a, b));
      return low > high ? null : { annotation, low, high, band: annotation.band && high > low };
    })
    .filter((span) => span !== null)
    .sort((p, q) => p.low - q.low);
  return spans.map((span, i) => {
    // room for the label: up to the next annotation's start, or the plot's end
    const room = (spans[i + 1]?.low ?? start + length) - span.low - 6;
    const text = vertical
      ? span.annotation.label
      : room >= 24
        ? shorten(span.annotation.label, charsFitting(room))
        : null;
    return { ...span, text };
  });
}
