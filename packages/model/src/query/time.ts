import type { RelativeAnchor, RelativeKind, RelativeUnit } from "../chart-types.js";
import type { TimeGrain } from "../column-types.js";

// Calendar arithmetic for the query engine: IANA time zone offsets (from the runtime's ICU data),
// local days, and relative date ranges. PostgreSQL buckets with AT TIME ZONE; SQLite has no time
// zone data, so the engine hands it the offset transitions computed here as a CASE expression.

/** A calendar day; month 1-12. */
export interface Day {
  year: number;
  month: number;
  day: number;
}

const dayMs = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    formatters.set(timeZone, format);
  }
  return format;
}

/** True for a time zone name the runtime knows ("UTC", "Europe/Paris"), at most 64 characters. */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(name)) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at an instant, in ms (Paris in summer: 7,200,000). */
export function offsetAt(timeZone: string, utcMs: number): number {
  if (timeZone === "UTC") return 0;
  const clamped = Math.max(-8.64e15, Math.min(8.64e15, utcMs));
  const name =
    formatter(timeZone)
      .formatToParts(clamped)
      .find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /^GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(name);
  if (!match) return 0;
  const sign = match[1] === "-" ? -1 : 1;
  return sign * ((Number(match[2]) * 60 + Number(match[3])) * 60 + Number(match[4] ?? 0)) * 1000;
}

export interface OffsetSpan {
  /** The span starts here (UTC ms); the first span starts at -Infinity. */
  from: number;
  offset: number;
}

// Where the scan for transitions stops; outside it the edge offsets hold (years 1800 to 2200).
const scanStart = Date.UTC(1800, 0, 1);
const scanEnd = Date.UTC(2200, 0, 1);
const scanStep = 7 * dayMs;
const transitionCache = new Map<string, OffsetSpan[]>();

/** The zone's offsets between two instants, as spans in time order (for SQLite's CASE). */
export function offsetSpans(timeZone: string, fromMs: number, toMs: number): OffsetSpan[] {
  const start = Math.max(scanStart, Math.min(scanEnd, Math.floor(fromMs / scanStep) * scanStep));
  const end = Math.max(scanStart, Math.min(scanEnd, Math.ceil(toMs / scanStep) * scanStep));
  const key = `${timeZone}|${start}|${end}`;
  const cached = transitionCache.get(key);
  if (cached) return cached;
  const spans: OffsetSpan[] = [{ from: -Infinity, offset: offsetAt(timeZone, start) }];
  let previous = spans[0]?.offset ?? 0;
  for (let at = start + scanStep; at <= end + scanStep; at += scanStep) {
    const offset = offsetAt(timeZone, at);
    if (offset === previous) continue;
    // Binary search for the first minute with the new offset.
    let low = at - scanStep;
    let high = at;
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 2 / 60_000) * 60_000;
      if (offsetAt(timeZone, middle) === previous) low = middle;
      else high = middle;
    }
    spans.push({ from: high, offset });
    previous = offset;
  }
  if (transitionCache.size > 200) transitionCache.clear();
  transitionCache.set(key, spans);
  return spans;
}

export function dayOf(utcMs: number): Day {
  const date = new Date(utcMs);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The local calendar day of an instant in a zone. */
export function localDay(timeZone: string, utcMs: number): Day {
  return dayOf(utcMs + offsetAt(timeZone, utcMs));
}

export function dayMsOf(day: Day): number {
  const ms = Date.UTC(day.year, day.month - 1, day.day);
  // Date.UTC maps years 0-99 to 1900-1999.
  if (day.year >= 0 && day.year < 100) {
    return new Date(ms).setUTCFullYear(day.year, day.month - 1, day.day);
  }
  return ms;
}

/** yyyy-mm-dd, as both engines write days (years 0-9999). */
export function formatDay(day: Day): string {
  const year = String(day.year).padStart(4, "0");
  return `${year}-${String(day.month).padStart(2, "0")}-${String(day.day).padStart(2, "0")}`;
}

/** The instant (UTC ms) a local day starts in a zone; in a gap, the first instant after it. */
export function localMidnight(timeZone: string, day: Day): number {
  const wall = dayMsOf(day);
  const first = wall - offsetAt(timeZone, wall);
  const second = wall - offsetAt(timeZone, first);
  // The earliest candidate whose local time is on the day; in a gap (clocks jump over midnight)
  // that is the instant the clocks jump.
  const onTheDay = [first, second]
    .filter((instant) => instant + offsetAt(timeZone, instant) >= wall)
    .sort((a, b) => a - b);
  return onTheDay[0] ?? Math.max(first, second);
}

/**
 * The instant (UTC ms) a local day shows a wall-clock time (minutes after midnight). As Temporal's
 * "compatible" disambiguation: a time shown twice is its first showing; a time the clocks skip
 * is read with the offset before the jump (02:30 on a spring-forward night is 03:30).
 */
export function zonedInstant(timeZone: string, day: Day, minuteOfDay: number): number {
  const wall = dayMsOf(day) + minuteOfDay * 60_000;
  const before = wall - offsetAt(timeZone, wall - dayMs);
  const after = wall - offsetAt(timeZone, wall + dayMs);
  const shown = [before, after].filter((instant) => instant + offsetAt(timeZone, instant) === wall);
  return shown.length > 0 ? Math.min(...shown) : before;
}

export function addDays(day: Day, days: number): Day {
  return dayOf(dayMsOf(day) + days * dayMs);
}

function addMonths(day: Day, months: number): Day {
  const index = day.year * 12 + (day.month - 1) + months;
  return { year: Math.floor(index / 12), month: (((index % 12) + 12) % 12) + 1, day: 1 };
}

/** The first day of the unit (ISO week: Monday) that holds a day. */
export function unitStart(unit: RelativeUnit, day: Day): Day {
  switch (unit) {
    case "day":
      return day;
    case "week": {
      const weekday = new Date(dayMsOf(day)).getUTCDay();
      return addDays(day, -((weekday + 6) % 7));
    }
    case "month":
      return { year: day.year, month: day.month, day: 1 };
    case "quarter":
      return { year: day.year, month: Math.floor((day.month - 1) / 3) * 3 + 1, day: 1 };
    case "year":
      return { year: day.year, month: 1, day: 1 };
  }
}

function addUnits(unit: RelativeUnit, day: Day, count: number): Day {
  switch (unit) {
    case "day":
      return addDays(day, count);
    case "week":
      return addDays(day, 7 * count);
    case "month":
      return addMonths(day, count);
    case "quarter":
      return addMonths(day, 3 * count);
    case "year":
      return addMonths(day, 12 * count);
  }
}

/**
 * The days a relative range covers, half-open [from, to), in a zone at an instant. "last_n"
 * covers the n units ending with the current one (last 30 days includes today).
 */
export function relativeDays(
  range: RelativeRange,
  timeZone: string,
  now: number,
): { from: Day; to: Day } {
  return relativeDaysFrom(range, localDay(timeZone, now));
}

export interface RelativeRange {
  unit: RelativeUnit;
  which: RelativeKind;
  n?: number | undefined;
  shift?: number | undefined;
  yearsBack?: number | undefined;
}

/** The same calendar day `years` before; February 29 becomes February 28 in a common year. */
export function yearsBefore(day: Day, years: number): Day {
  const year = day.year - years;
  // Only February's length differs from year to year.
  return { year, month: day.month, day: Math.min(day.day, daysInMonth(year, day.month)) };
}

/** The days of a month (1-12) in a year of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/**
 * The days a relative range covers counted from `today`: the current day in a zone, or the day
 * of a column's newest value for a range anchored to the data.
 */
export function relativeDaysFrom(range: RelativeRange, today: Day): { from: Day; to: Day } {
  // A shift moves the whole range back by its own length, so "previous period" lines up.
  const length = range.which === "last_n" ? (range.n ?? 1) : 1;
  const back = (range.shift ?? 0) * length;
  const current = addUnits(range.unit, unitStart(range.unit, today), -back);
  const next = addUnits(range.unit, current, 1);
  switch (range.which) {
    case "this":
      return yearsBack(range, { from: current, to: next });
    case "previous":
      return yearsBack(range, { from: addUnits(range.unit, current, -1), to: current });
    case "last_n":
      return yearsBack(range, { from: addUnits(range.unit, current, -(length - 1)), to: next });
  }
}

/**
 * The label of the bucket `steps` grains after a bucket's label (before, when negative):
 * yyyy-mm-dd for a day and coarser (the bucket's first local day), an ISO instant for a minute
 * or an hour.
 */
export function shiftBucket(label: string, grain: TimeGrain, steps: number): string {
  if (grain === "minute" || grain === "hour") {
    const step = grain === "minute" ? 60_000 : 3_600_000;
    return new Date(Date.parse(label) + steps * step).toISOString();
  }
  const day = dayOf(Date.parse(`${label}T00:00:00Z`));
  switch (grain) {
    case "day":
      return formatDay(addDays(day, steps));
    case "week":
      return formatDay(addDays(day, 7 * steps));
    case "month":
      return formatDay(addMonths(day, steps));
    case "quarter":
      return formatDay(addMonths(day, 3 * steps));
    case "year":
      return formatDay(addMonths(day, 12 * steps));
  }
}

/** The label of the bucket one grain before a bucket's label. */
export function previousBucket(label: string, grain: TimeGrain): string {
  return shiftBucket(label, grain, -1);
}

/**
 * A query's rows (x the bucket labels of `grain`, ascending) with a row for each bucket missing
 * between two that are there, every series empty (null), so a line breaks where the data has
 * none instead of running straight across. The rows as they were when x is not a run of
 * ascending bucket labels (sorted by a measure, or not on the grain's boundaries) or when the
 * filled rows would pass `maxRows`. A row with no x (the group of empty dates) stays last.
 */
export function withMissingBuckets<Row extends Record<string, unknown>>(
  rows: readonly Row[],
  grain: TimeGrain,
  seriesKeys: readonly string[],
  maxRows: number,
): readonly Row[] {
  const dated = rows.length > 0 && rows[rows.length - 1]?.x === null ? rows.slice(0, -1) : rows;
  const filled: Row[] = [];
  for (const [index, row] of dated.entries()) {
    if (typeof row.x !== "string") return rows;
    const before = dated[index - 1]?.x as string | undefined;
    if (before !== undefined) {
      if (!(before < row.x)) return rows;
      for (let next = shiftBucket(before, grain, 1); next !== row.x; ) {
        // Past the next label without meeting it: labels not on the grain's boundaries.
        if (!(next < row.x) || filled.length >= maxRows) return rows;
        const empty: Record<string, unknown> = { x: next };
        for (const key of seriesKeys) empty[key] = null;
        filled.push(empty as Row);
        next = shiftBucket(next, grain, 1);
      }
    }
    filled.push(row);
    if (filled.length > maxRows) return rows;
  }
  return dated === rows ? filled : [...filled, rows[rows.length - 1] as Row];
}

/**
 * The label of the bucket a year before a bucket's label ("the same period last year"): the same
 * month, quarter or year; the same calendar day (February 29 looks at the 28th); the week 52 weeks
 * before (a Monday too); the same UTC instant for an hour or a minute.
 */
export function yearBeforeBucket(label: string, grain: TimeGrain): string {
  if (grain === "minute" || grain === "hour") {
    const at = Date.parse(label);
    const day = yearsBefore(dayOf(at), 1);
    const time = at - Date.parse(`${formatDay(dayOf(at))}T00:00:00Z`);
    return new Date(Date.parse(`${formatDay(day)}T00:00:00Z`) + time).toISOString();
  }
  const day = dayOf(Date.parse(`${label}T00:00:00Z`));
  switch (grain) {
    case "day":
      return formatDay(yearsBefore(day, 1));
    case "week":
      return formatDay(addDays(day, -364));
    default:
      return formatDay(addMonths(day, -12));
  }
}

/** A range moved back by the range's `yearsBack`, day for day (the same dates a year before). */
function yearsBack(range: RelativeRange, days: { from: Day; to: Day }): { from: Day; to: Day } {
  const years = range.yearsBack ?? 0;
  if (years === 0) return days;
  return { from: yearsBefore(days.from, years), to: yearsBefore(days.to, years) };
}

/**
 * How a relative range reads in a sentence: "the last 30 days", "this quarter", "the last 30
 * days of the data" (anchored to the newest value).
 */
export function describeRange(range: {
  unit: RelativeUnit;
  which: RelativeKind;
  n?: number | undefined;
  anchor?: RelativeAnchor | undefined;
}): string {
  const ofData = range.anchor === "latest" ? " of the data" : "";
  if (range.which === "last_n") {
    const n = range.n ?? 1;
    return `${n === 1 ? `the last ${range.unit}` : `the last ${n} ${range.unit}s`}${ofData}`;
  }
  if (range.anchor === "latest") {
    return `the ${range.which === "this" ? "newest" : "one before the newest"} ${range.unit} of the data`;
  }
  return `${range.which === "this" ? "this" : "the previous"} ${range.unit}`;
}
