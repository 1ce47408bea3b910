import { isDrawableTime, MAX_TIME } from "./domain";

/** What the index holds, which decides axis type and formatting. */
export type IndexKind = "time" | "number" | "category";

const ISO_DATE = /^\d{4}-\d{2}(-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?$/;

/** True for strings like 2024-01-31 or 2024-01-31T10:00:00Z. */
export function isIsoDateString(value: unknown): value is string {
  return typeof value === "string" && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));
}

/** Timestamp of a Date, ISO string or number; NaN when it is none of those. */
export function toTimestamp(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number") return Number.isFinite(value) ? value : NaN;
  if (typeof value === "string" && isIsoDateString(value)) return Date.parse(value);
  return NaN;
}

/** Guesses the index kind from the first values that are present (the most common kind wins). */
export function detectIndexKind(values: readonly unknown[]): IndexKind {
  let times = 0;
  let numbers = 0;
  let others = 0;
  for (const value of values) {
    if (value == null) continue;
    if (times + numbers + others >= 64) break;
    if (value instanceof Date || isIsoDateString(value)) times++;
    else if (typeof value === "number") numbers++;
    else others++;
  }
  if (times > numbers && times > others) return "time";
  if (numbers > others) return "number";
  return "category";
}

export const DAY = 86_400_000;

/** Date format options suited to how far apart the first and last timestamps are. */
export function timeFormatOptions(spanMs: number, timeZone: string): Intl.DateTimeFormatOptions {
  if (spanMs >= 2 * 365 * DAY) return { year: "numeric", timeZone };
  if (spanMs >= 60 * DAY) return { month: "short", year: "numeric", timeZone };
  if (spanMs >= 2 * DAY) return { month: "short", day: "numeric", timeZone };
  return { hour: "2-digit", minute: "2-digit", timeZone };
}

/** Formats numbers with Intl in a locale; non-finite values become an en dash. */
export function createNumberFormatter(
  locale: string | undefined,
  options?: Intl.NumberFormatOptions,
): (value: number) => string {
  const format = new Intl.NumberFormat(locale, options);
  return (value) => (Number.isFinite(value) ? format.format(value) : "–");
}

/**
 * Axis tick labels that name their value exactly: compact ("1.05K", never "1.1K" for 1050),
 * with as many significant digits as the shortest form that reads back as the value, and
 * scientific ("1E15", "2.5E-7") for magnitudes from 1e15 and below 1e-4. Nice ticks have few
 * digits, so labels stay short; distinct ticks always get distinct labels.
 */
export function createTickFormatter(
  locale: string | undefined,
): (value: number | string) => string {
  return (value) => {
    // the shortest round-trip digits, e.g. "1.05" and "+3" for 1050 (NaN and ±Infinity: "–")
    const [digits, e] = (+value).toExponential().split("e") as [string, string];
    return createNumberFormatter(locale, {
      notation: +e > 14 || +e < -4 ? "scientific" : "compact",
      // one more than needed: ICU rounds some 16-digit values at 16 digits (99999999999999.95
      // to 100T); the extra digit of a short value is a 0, which Intl leaves off
      maximumSignificantDigits: digits.replace(/\D/g, "").length + 1,
    })(+value);
  };
}

/** Formats timestamps with Intl in a locale and time zone; values no Date can hold become "–". */
export function createTimeFormatter(
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): (value: number) => string {
  const format = new Intl.DateTimeFormat(locale, options);
  // Intl throws "Invalid time value" past ±8.64e15 ms (a nice tick may land there)
  return (value) => (isDrawableTime(value) ? format.format(value) : "–");
}

/** Full date (and time when not midnight UTC) for tooltips and the data table. */
export function createFullTimeFormatter(
  locale: string | undefined,
  timeZone: string,
  withTime: boolean,
): (value: number) => string {
  return createTimeFormatter(
    locale,
    withTime
      ? { dateStyle: "medium", timeStyle: "short", timeZone }
      : { dateStyle: "medium", timeZone },
  );
}

const TIME_STEPS = [
  1_000,
  5_000,
  15_000,
  30_000,
  60_000,
  5 * 60_000,
  15 * 60_000,
  30 * 60_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  DAY,
  2 * DAY,
  7 * DAY,
];

/** Midnight UTC on the first of a month; NaN past the Date range, which ends the loops below. */
function utcMonthStart(year: number, month: number): number {
  // setUTCFullYear, unlike Date.UTC, does not read years 0..99 as 1900..1999
  return new Date(0).setUTCFullYear(year, month, 1);
}

function addUtcMonths(timestamp: number, months: number): number {
  const d = new Date(timestamp);
  return utcMonthStart(d.getUTCFullYear(), d.getUTCMonth() + months);
}

const offsetFormats: Record<string, Intl.DateTimeFormat> = {};
const clampTime = (t: number) => Math.min(MAX_TIME, Math.max(-MAX_TIME, t));

/** Offset of `timeZone` from UTC at `timestamp`, ms (local wall clock minus UTC). */
export function zoneOffset(timestamp: number, timeZone: string): number {
  const at = Math.floor(clampTime(timestamp) / 1000) * 1000;
  // "sv" writes 2024-03-01 05:30:00: numbers in a fixed order, 24-hour clock
  offsetFormats[timeZone] ??= new Intl.DateTimeFormat("sv", {
    timeZone,
    dateStyle: "short",
    timeStyle: "medium",
  });
  const [y, mo, d, h, mi, s] = offsetFormats[timeZone].format(at).split(/\D+/).map(Number);
  const offset = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s) - at;
  // years before 100 AD (read as 19xx, and no era) or anything unreadable: taken as UTC
  return Math.abs(offset) < DAY ? offset : 0;
}

/**
 * Evenly spaced, calendar-aligned tick timestamps within [min, max], at most `maxCount`: round
 * seconds, minutes and hours, midnights, firsts of the month and January 1sts on the
 * wall clock of `timeZone` (default UTC), across DST changes.
 */
export function timeTicks(min: number, max: number, maxCount: number, timeZone = "UTC"): number[] {
  if (!isDrawableTime(min) || !isDrawableTime(max) || max < min) return [];
  const start = zoneOffset(min, timeZone);
  const step = TIME_STEPS.find((s) => (max - min) / s <= Math.max(2, maxCount)) ?? DAY;
  const ticks: number[] = [];
  if (step <= 3_600_000) {
    // up to hourly: real-time steps from a round local time (DST moves clocks by whole hours)
    for (let t = Math.ceil((min + start) / step) * step - start; t <= max; t += step) ticks.push(t);
    return ticks;
  }
  // coarser: steps on the wall clock, so midnights stay midnights across DST; the wall span
  // reaches the later offset's end, so a fall-back hour does not shorten it
  const end = clampTime(max + Math.max(start, zoneOffset(max, timeZone)));
  for (const wall of utcTimeTicks(clampTime(min + start), end, maxCount)) {
    // the instant the zone's clock shows `wall` (in a DST gap: one near it)
    const t = wall - zoneOffset(wall - zoneOffset(wall, timeZone), timeZone);
    if (t >= min && t <= max && !(t <= (ticks[ticks.length - 1] as number))) ticks.push(t);
  }
  return ticks;
}

/** timeTicks on the UTC wall clock; timeTicks passes drawable times, max >= min. */
function utcTimeTicks(min: number, max: number, maxCount: number): number[] {
  if (max === min) return [min];
  const span = max - min;
  const target = Math.max(2, maxCount);
  const step = TIME_STEPS.find((s) => span / s <= target);
  if (step !== undefined) {
    // counted from Monday 1970-01-05, so week ticks fall on Mondays (ISO 8601); the shorter
    // steps all divide those 4 days, so their ticks are where they would be from the epoch
    const first = Math.ceil((min - 4 * DAY) / step) * step + 4 * DAY;
    const ticks: number[] = [];
    for (let t = first; t <= max; t += step) ticks.push(t);
    return ticks;
  }
  const monthSteps = [1, 2, 3, 6, 12, 24, 60, 120, 240, 600];
  const months =
    monthSteps.find((m) => span / (m * 30.44 * DAY) <= target) ??
    niceYears(span / (365.25 * DAY) / target) * 12;
  const start = new Date(min);
  let t: number;
  if (months >= 12) {
    // years that are multiples of the step, so ticks stay on round years whatever the data
    const years = months / 12;
    const year = Math.ceil(start.getUTCFullYear() / years) * years;
    t = utcMonthStart(year, 0);
    if (t < min) t = utcMonthStart(year + years, 0);
  } else {
    t = utcMonthStart(start.getUTCFullYear(), start.getUTCMonth());
    // before min, or before the earliest Date (NaN): the next month
    if (!(t >= min)) t = addUtcMonths(min, 1);
    // align to multiples of the step (quarters start in Jan/Apr/Jul/Oct)
    while (new Date(t).getUTCMonth() % months !== 0 && t <= max) t = addUtcMonths(t, 1);
  }
  const ticks: number[] = [];
  for (; t <= max; t = addUtcMonths(t, months)) ticks.push(t);
  return ticks;
}

/** Smallest of 1, 2 or 5 times a power of ten (at least 100) that is at least `years`. */
function niceYears(years: number): number {
  let step = 100;
  for (let i = 0; step < years && i < 20; i++) step *= i % 3 === 1 ? 2.5 : 2;
  return step;
}

/** Shortens a name to `max` characters with an ellipsis. */
export function truncateLabel(label: string, max: number): string {
  return label.length > max ? `${label.slice(0, Math.max(1, max - 1))}…` : label;
}
