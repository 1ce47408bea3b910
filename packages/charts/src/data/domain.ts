/**
 * What the axes can draw. Every finite number is valid data, but Recharts' decimal tick maths
 * and d3's scales are not: a span past Number.MAX_VALUE becomes Infinity (ticks loop, positions
 * become NaN), and a tick step that underflows to 0 throws "[DecimalError] Division by zero"
 * (e.g. 0 and 5e-324). Dates past ±8.64e15 ms throw "Invalid time value" in Intl.
 *
 * The rule, in this one place for all charts: magnitudes above MAX_DRAWABLE are dropped (a gap,
 * or a skipped row or slice), non-zero magnitudes below MIN_DRAWABLE are drawn as 0, and times
 * outside the Date range are dropped. Each case returns the reason the chart reports.
 */

/** Largest magnitude drawn: sums of many such values, spans and tick steps stay finite. */
export const MAX_DRAWABLE = 1e300;
/**
 * Smallest non-zero magnitude drawn. Two distinct values at least this large differ by more
 * than 1e-316, so a tick step (a quarter of the span or more) never underflows to 0.
 */
export const MIN_DRAWABLE = 1e-300;
/** Largest timestamp magnitude a Date can hold, ms from 1970 (ECMAScript TimeClip). */
export const MAX_TIME = 8.64e15;

/** A value as it will be drawn: NaN when dropped; `reason` is set when it was dropped or changed. */
export interface DrawableValue {
  value: number;
  reason: string | null;
}

/**
 * The common case, cheap enough for a loop over a million values: a number `drawableValue`
 * keeps as it is (finite, within the range, not a tiny non-zero). -0 passes; callers that must
 * not keep it check `value === 0`.
 */
export function isPlainDrawable(value: number): boolean {
  const magnitude = Math.abs(value);
  return magnitude <= MAX_DRAWABLE && (magnitude >= MIN_DRAWABLE || value === 0);
}

/** Checks a finite value against the drawable range (see above). */
export function drawableValue(value: number): DrawableValue {
  const magnitude = Math.abs(value);
  if (magnitude > MAX_DRAWABLE) {
    return { value: NaN, reason: `${value} is beyond ±1e300, too large to draw` };
  }
  if (magnitude !== 0 && magnitude < MIN_DRAWABLE) {
    return { value: 0, reason: `${value} is nearer to 0 than 1e-300, drawn as 0` };
  }
  // -0 and 0 are the same point; keeping -0 only shows up as "-0" in formatted text
  return { value: value === 0 ? 0 : value, reason: null };
}

/** True for a timestamp a Date can hold (and Intl can format). */
export function isDrawableTime(timestamp: number): boolean {
  // NaN fails both comparisons; the infinities fail one
  return timestamp >= -MAX_TIME && timestamp <= MAX_TIME;
}

/**
 * An axis bound from the caller (`yAxis.min` etc.) brought into the drawable range; `fallback`
 * when it is missing or not a finite number.
 */
export function drawableBound<T extends number | string>(
  bound: number | string | undefined,
  fallback: T,
): number | string | T {
  if (bound === undefined) return fallback;
  if (typeof bound !== "number") return bound;
  if (!Number.isFinite(bound)) return fallback;
  if (Math.abs(bound) < MIN_DRAWABLE) return 0;
  return Math.max(-MAX_DRAWABLE, Math.min(MAX_DRAWABLE, bound));
}

/**
 * Ticks for a number axis over [min, max] when Recharts' own would repeat: across a span this
 * small for its magnitude its decimal ticks round to the same few doubles, and around a single
 * value past 2^52 its ticks one apart do too (repeated React keys). Undefined when Recharts'
 * ticks are fine.
 */
export function collapsedSpanTicks(min: number, max: number): number[] | undefined {
  if (!(min <= max)) return undefined;
  const magnitude = Math.max(Math.abs(min), Math.abs(max));
  if (max - min > magnitude * 1e-12) return undefined;
  if (min === max) return magnitude >= 2 ** 52 ? [min] : undefined;
  return [min, max];
}
