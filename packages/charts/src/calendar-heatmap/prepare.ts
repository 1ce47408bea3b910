// The calendar heatmap's data and layout, without React: CalendarHeatmap and calendarSvg both
// draw from these, so the server's SVG has the same cells in the same colours as the chart.
import { drawableValue, isDrawableTime, isPlainDrawable, MAX_DRAWABLE } from "../data/domain";
import { DAY, toTimestamp, zoneOffset } from "../data/format";
import { type DataIssue, describeValue, emptyReasonOf } from "../data/rows";

/** Most years drawn: the latest years that hold data; earlier days are told in a note. */
export const MAX_YEARS = 10;
/** Bins of the default colour scale. */
export const DEFAULT_BINS = 5;
/** Most bins a caller's colours make. */
const MAX_BINS = 12;

/** Days with data, summed per day, in the years drawn. */
export interface CalendarFrame {
  /** Every day with a row and a valid date, ascending: days since 1970-01-01 (calendar days). */
  days: Float64Array;
  /** The day's value (rows of one day summed); NaN when no row of the day has one. */
  values: Float64Array;
  /** Position in the caller's data of each day's rows (the first one first). */
  rows: number[][];
  /** Years drawn, ascending (at most MAX_YEARS, the latest with data). */
  years: number[];
  /** Days with data before the first year drawn. */
  hiddenDays: number;
  /** Days with more than one row (their values summed). */
  summedDays: number;
  /** Smallest and largest value of the drawn days, or null. */
  range: readonly [number, number] | null;
  /** Days drawn that have a value. */
  valued: number;
  issues: DataIssue[];
  emptyReason: string | null;
  /** The time zone read, "UTC" when the caller's is unknown to Intl. */
  timeZone: string;
}

/** A zone Intl knows, else UTC (an unknown zone must not throw). */
export function safeTimeZone(timeZone: string | undefined): string {
  if (!timeZone) return "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    return "UTC";
  }
}

/** A locale Intl reads, else the runtime's (a malformed tag must not throw). */
export function safeLocale(locale: string | undefined): string | undefined {
  try {
    new Intl.NumberFormat(locale);
    return locale;
  } catch {
    return undefined;
  }
}

const ISO_DAY = /^(-?\d{4,6})-(\d{2})-(\d{2})$/;

/** Calendar day (days since 1970-01-01) of a date value in `timeZone`, or NaN. */
export function dayOf(value: unknown, timeZone: string): number {
  // a plain day names its calendar day in any zone
  if (typeof value === "string" && ISO_DAY.test(value)) {
    const t = Date.parse(value);
    return isDrawableTime(t) ? Math.floor(t / DAY) : NaN;
  }
  const t = toTimestamp(value);
  if (!isDrawableTime(t)) return NaN;
  const local = timeZone === "UTC" ? t : t + zoneOffset(t, timeZone);
  return Math.floor(local / DAY);
}

/** Year (UTC calendar) of a day number. */
export function yearOf(day: number): number {
  return new Date(day * DAY).getUTCFullYear();
}

/** Days a Date can hold, either side of 1970. */
const MAX_DAY = 100_000_000;

/** Day number of January 1st of `year` (the first day a Date holds, for its first year). */
export function yearStart(year: number): number {
  const t = new Date(0).setUTCFullYear(year, 0, 1);
  return Number.isNaN(t) ? (year < 1970 ? -MAX_DAY : MAX_DAY + 1) : Math.round(t / DAY);
}

/** Day number of December 31st of `year` (the last day a Date holds, for its last year). */
export function yearEnd(year: number): number {
  return Math.min(MAX_DAY, yearStart(year + 1) - 1);
}

export interface PrepareCalendarOptions {
  date: string;
  value: string;
  timeZone?: string | undefined;
}

/**
 * Reads rows into days: a date (Date, ms number or ISO string) and a number per row. Rows of one
 * day are summed (an issue names each extra row); bad dates and values are issues. Never throws.
 */
export function prepareCalendarFrame(
  data: unknown,
  options: PrepareCalendarOptions,
): CalendarFrame {
  const timeZone = safeTimeZone(options.timeZone);
  const rows: readonly unknown[] = Array.isArray(data) ? data : [];
  const issues: DataIssue[] = [];
  const index = new Map<number, number>();
  const dayList: number[] = [];
  const sums: number[] = [];
  const members: number[][] = [];
  const counts = { finite: 0, tooLarge: 0 };
  let summedDays = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (typeof row !== "object" || row === null) {
      issues.push({ row: i, key: null, reason: `${describeValue(row)} is not a row object` });
      continue;
    }
    const raw = (row as Record<string, unknown>)[options.date];
    const day = dayOf(raw, timeZone);
    if (Number.isNaN(day)) {
      issues.push({
        row: i,
        key: options.date,
        reason: `${describeValue(raw)} is not a valid date`,
      });
      continue;
    }
    const cell = (row as Record<string, unknown>)[options.value];
    let value = NaN;
    if (typeof cell === "number" && isPlainDrawable(cell)) value = cell === 0 ? 0 : cell;
    else if (typeof cell === "number" && Number.isFinite(cell)) {
      const drawable = drawableValue(cell);
      if (drawable.reason) issues.push({ row: i, key: options.value, reason: drawable.reason });
      if (Number.isNaN(drawable.value)) counts.tooLarge++;
      value = drawable.value;
    } else if (cell !== null && cell !== undefined) {
      issues.push({
        row: i,
        key: options.value,
        reason: `${describeValue(cell)} is not a finite number`,
      });
    }
    const at = index.get(day);
    if (at === undefined) {
      index.set(day, dayList.length);
      dayList.push(day);
      sums.push(value);
      members.push([i]);
      continue;
    }
    const list = members[at] as number[];
    if (list.length === 1) summedDays++;
    list.push(i);
    const before = sums[at] as number;
    let sum = Number.isNaN(before) ? value : Number.isNaN(value) ? before : before + value;
    if (Math.abs(sum) > MAX_DRAWABLE) sum = NaN;
    sums[at] = sum;
    issues.push({
      row: i,
      key: options.date,
      reason: `same day as row ${list[0]}: ${Number.isNaN(sum) && !Number.isNaN(before) ? "their sum is too large to draw" : "values summed"}`,
    });
  }

  // the latest MAX_YEARS years with data
  const order = dayList
    .map((_, k) => k)
    .sort((a, b) => (dayList[a] as number) - (dayList[b] as number));
  const yearSet = new Set<number>();
  for (let k = order.length - 1; k >= 0 && yearSet.size <= MAX_YEARS; k--) {
    yearSet.add(yearOf(dayList[order[k] as number] as number));
  }
  const years = [...yearSet].sort((a, b) => a - b).slice(-MAX_YEARS);
  const firstDrawn = years.length ? yearStart(years[0] as number) : Infinity;
  const kept = order.filter((k) => (dayList[k] as number) >= firstDrawn);
  const days = Float64Array.from(kept, (k) => dayList[k] as number);
  const values = Float64Array.from(kept, (k) => sums[k] as number);
  let min = Infinity;
  let max = -Infinity;
  let valued = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    valued++;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  counts.finite = valued;
  const reason = emptyReasonOf(rows.length, 1, dayList.length, valued, counts.tooLarge);
  const emptyReason = reason === "No row has a valid index" ? "No row has a valid date" : reason;
  return {
    days,
    values,
    rows: kept.map((k) => members[k] as number[]),
    years: emptyReason ? [] : years,
    hiddenDays: order.length - kept.length,
    summedDays,
    range: valued ? [min, max] : null,
    valued,
    issues,
    emptyReason,
    timeZone,
  };
}

/** Bins of equal width over the range: `count` bins (1 when all values are equal). */
export interface CalendarBins {
  /** Bin edges, ascending: count + 1 numbers. */
  edges: number[];
}

export function binsOf(range: CalendarFrame["range"], count: number): CalendarBins {
  const n = Math.max(1, Math.min(MAX_BINS, Math.floor(count) || DEFAULT_BINS));
  if (!range) return { edges: [0, 0] };
  const [min, max] = range;
  if (!(max > min)) return { edges: [min, max] };
  const edges: number[] = [];
  for (let k = 0; k <= n; k++) edges.push(k === n ? max : min + ((max - min) * k) / n);
  return { edges };
}

/** Bin of a value: 0..bins-1, the largest value in the top bin; -1 for no value. */
export function binOf(bins: CalendarBins, value: number): number {
  if (Number.isNaN(value)) return -1;
  const { edges } = bins;
  const n = edges.length - 1;
  const min = edges[0] as number;
  const max = edges[n] as number;
  if (!(max > min)) return n - 1;
  const k = Math.floor(((value - min) / (max - min)) * n);
  return Math.max(0, Math.min(n - 1, k));
}

/** Number of bins the chart uses for its colours. */
export function binCount(colors: readonly string[] | undefined): number {
  return colors && colors.length > 0 ? Math.min(MAX_BINS, colors.length) : DEFAULT_BINS;
}

// the theme's first palette colour and background, as styles.css and chartThemes write them
const RAMP = {
  light: { hue: "#0290fe", bg: "#ffffff", empty: "#94a3b8" },
  dark: { hue: "#9bd8ff", bg: "#0b1120", empty: "#475569" },
} as const;

/** Share of the hue in bin k of n: from 25% (the least) to 100% (the most). */
function share(k: number, n: number): number {
  return n <= 1 ? 100 : Math.round(25 + (75 * k) / (n - 1));
}

function mixHex(hue: string, bg: string, percent: number): string {
  const channel = (hex: string, i: number) => Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
  let out = "#";
  for (let i = 0; i < 3; i++) {
    const v = Math.round((channel(hue, i) * percent + channel(bg, i) * (100 - percent)) / 100);
    out += v.toString(16).padStart(2, "0");
  }
  return out;
}

/**
 * The sequential colours of `n` bins: the caller's, or the theme's first palette colour mixed
 * into its background (CSS variables with the light theme's colours as fallbacks, so dark mode
 * follows the stylesheet), or one theme's colours written out for an image.
 */
export function rampOf(
  n: number,
  colors: readonly string[] | undefined,
  theme: "variables" | "light" | "dark" = "variables",
): string[] {
  if (colors && colors.length > 0) return colors.slice(0, n).map(String);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const p = share(k, n);
    out.push(
      theme === "variables"
        ? `color-mix(in srgb, var(--seed-chart-1,${RAMP.light.hue}) ${p}%, var(--seed-chart-bg,${RAMP.light.bg}))`
        : mixHex(RAMP[theme].hue, RAMP[theme].bg, p),
    );
  }
  return out;
}

/** Outline of a day without a value. */
export function emptyStroke(theme: "variables" | "light" | "dark" = "variables"): string {
  return theme === "variables"
    ? `var(--seed-chart-axis-line,${RAMP.light.empty})`
    : RAMP[theme].empty;
}

/** Width of the weekday labels, px. */
export const LABEL_WIDTH = 30;
const RIGHT = 4;
/** Year heading and month label rows, and the gap under a year, px. */
const YEAR_HEAD = 20;
const MONTH_ROW = 14;
const YEAR_GAP = 10;
const MIN_PITCH = 5;
const MAX_PITCH = 16;
/** Columns a year may take (Jan 1 on the last weekday of a leap year: 54). */
const MAX_WEEKS = 54;

/** Distance between cells, px, for a drawing `width` wide: 5 to 16. */
export function pitchFor(width: number): number {
  const room = (Number.isFinite(width) ? width : 640) - LABEL_WIDTH - RIGHT;
  return Math.max(MIN_PITCH, Math.min(MAX_PITCH, Math.floor(room / MAX_WEEKS)));
}

/** Height of a year's block, px. */
export function yearHeight(pitch: number): number {
  return YEAR_HEAD + MONTH_ROW + 7 * pitch + YEAR_GAP;
}

/** One day's square. */
export interface CalendarCell {
  day: number;
  /** Position in the frame's days, or -1 for a day without rows. */
  at: number;
  /** Bin of its value, -1 without one. */
  bin: number;
  x: number;
  y: number;
}

export interface CalendarLayout {
  width: number;
  height: number;
  pitch: number;
  /** Side of a cell, px. */
  size: number;
  cells: CalendarCell[];
  yearLabels: { year: number; x: number; y: number }[];
  monthLabels: { day: number; x: number; y: number }[];
  weekdayLabels: { weekday: number; x: number; y: number }[];
}

/**
 * Where every day of the drawn years goes: one column a week (starting on `weekStart`, 0 Sunday
 * or 1 Monday), a row a weekday, years stacked. The drawing is at least `width` wide and wider
 * only when 5 px cells do not fit (then it scrolls inside its box).
 */
export function layoutCalendar(
  frame: CalendarFrame,
  bins: CalendarBins,
  width: number,
  weekStart: 0 | 1,
): CalendarLayout {
  const pitch = pitchFor(width);
  const size = pitch - (pitch >= 10 ? 2 : 1);
  const where = new Map<number, number>();
  frame.days.forEach((day, k) => {
    where.set(day, k);
  });
  const cells: CalendarCell[] = [];
  const yearLabels: CalendarLayout["yearLabels"] = [];
  const monthLabels: CalendarLayout["monthLabels"] = [];
  const weekdayLabels: CalendarLayout["weekdayLabels"] = [];
  let top = 0;
  for (const year of frame.years) {
    const first = yearStart(year);
    const last = yearEnd(year);
    // 1970-01-01 was a Thursday (4)
    const offset = (((first + 4 - weekStart) % 7) + 7) % 7;
    const gridTop = top + YEAR_HEAD + MONTH_ROW;
    yearLabels.push({ year, x: 0, y: top + 14 });
    for (let r = 0; r < 7; r++) {
      const weekday = (weekStart + r) % 7;
      // Monday, Wednesday and Friday; only Monday and Friday where rows are too close for three
      if (weekday % 2 === 1 && (pitch >= 6 || weekday !== 3)) {
        weekdayLabels.push({
          weekday,
          x: LABEL_WIDTH - 4,
          y: gridTop + r * pitch + size / 2 + 3.5,
        });
      }
    }
    let lastLabelEnd = -Infinity;
    for (let day = first; day <= last; day++) {
      const slot = day - first + offset;
      const x = LABEL_WIDTH + Math.floor(slot / 7) * pitch;
      const y = gridTop + (slot % 7) * pitch;
      const at = where.get(day) ?? -1;
      cells.push({ day, at, bin: at < 0 ? -1 : binOf(bins, frame.values[at] as number), x, y });
      if (new Date(day * DAY).getUTCDate() === 1) {
        // a month's label where its first week starts, when clear of the one before (~22 px)
        const labelX = LABEL_WIDTH + Math.ceil(slot / 7) * pitch;
        if (labelX >= lastLabelEnd) {
          monthLabels.push({ day, x: labelX, y: top + YEAR_HEAD + MONTH_ROW - 4 });
          lastLabelEnd = labelX + 22;
        }
      }
    }
    top += yearHeight(pitch);
  }
  return {
    width: Math.max(width, LABEL_WIDTH + MAX_WEEKS * pitch + RIGHT),
    height: top,
    pitch,
    size,
    cells,
    yearLabels,
    monthLabels,
    weekdayLabels,
  };
}

/** Formats for the calendar's text: a full day, a short month and weekday. */
export function calendarFormats(given: string | undefined) {
  const locale = safeLocale(given);
  const make = (options: Intl.DateTimeFormatOptions) => {
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    } catch {
      format = new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
    }
    return (day: number) => {
      const t = day * DAY;
      return isDrawableTime(t) ? format.format(t) : "–";
    };
  };
  return {
    day: make({ weekday: "short", year: "numeric", month: "short", day: "numeric" }),
    date: make({ year: "numeric", month: "short", day: "numeric" }),
    month: make({ month: "short" }),
    // 1970-01-04 was a Sunday: weekday w is day 3 + w
    weekday: (weekday: number) => make({ weekday: "short" })(3 + weekday),
  };
}

/** ISO yyyy-mm-dd of a day (CSV). */
export function isoDay(day: number): string {
  const t = day * DAY;
  return isDrawableTime(t) ? new Date(t).toISOString().replace("T00:00:00.000Z", "") : "";
}

/** Cells of one bin as one path (bin -1: the outlines of days without a value). */
export interface CellPath {
  bin: number;
  d: string;
}

/** A square as a path: one path per bin keeps ten years of days to a handful of elements. */
export function cellSquare(x: number, y: number, size: number): string {
  return `M${x},${y}h${size}v${size}h${-size}z`;
}

/** The cells grouped by bin, ascending, outlines first; what both drawings write. */
export function cellPaths(layout: CalendarLayout): CellPath[] {
  const parts = new Map<number, string[]>();
  const inner = Math.max(0, layout.size - 1);
  for (const cell of layout.cells) {
    const list = parts.get(cell.bin) ?? [];
    list.push(
      cell.bin < 0
        ? cellSquare(cell.x + 0.5, cell.y + 0.5, inner)
        : cellSquare(cell.x, cell.y, layout.size),
    );
    parts.set(cell.bin, list);
  }
  return [...parts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([bin, list]) => ({ bin, d: list.join("") }));
}
