import type { TimeGrain } from "../column-types.js";
import { hierarchyLimits } from "../hierarchies.js";
import type { ChartQuery, QueryFilter } from "../query/spec.js";
import { addDays, type Day, formatDay, localMidnight, unitStart } from "../query/time.js";
import type { DatasetColumnType } from "../vocabulary.js";
import type { AppliedDashboardFilters } from "./filters.js";
import { linkableFilterValue, maxLinkValueLength } from "./link-value.js";

// Drill-down on time axes: a chart of years drills into the quarters of one year, a quarter into
// its months, a month into its days; a chart of weeks (from Monday) into the days of one week. What a chart shows is carried in the page's URL like its
// filters (`drill=<tile id>.<period>`, e.g. `drill=4f…e1.2016-Q2`), so a drilled view is
// shareable, cached and works in embeds. The one home of the periods, their names in the URL and
// on the breadcrumb, and the query a drilled chart runs.

/** The grains a time axis drills through, coarsest first. */
const drillChain = ["year", "quarter", "month", "day"] as const satisfies readonly TimeGrain[];
/** A period a chart can be drilled into: a year, a quarter, a month or a week (days are the last level). */
export type DrillGrain = "year" | "quarter" | "month" | "week";

export interface DrillPeriod {
  grain: DrillGrain;
  year: number;
  /** 1-12: the period's first month. */
  month: number;
  /** A week's first day (its Monday) in the month; weeks only. */
  day?: number;
}

/** The URL parameter that names drilled charts. */
export const drillParam = "drill";
/** Characters of a tile id in a drill parameter. */
const maxTileIdLength = 64;
/**
 * Characters of a drill parameter at most: the longest tile id, a dot and the longest category
 * path (a JSON list of the longest values, each character escaped in at most six, e.g. \u0001).
 */
export const maxDrillParamLength =
  maxTileIdLength + 1 + 2 + (hierarchyLimits.maxLevels - 1) * (maxLinkValueLength * 6 + 3);

/** The grain a chart shows when drilled into a period of `grain`; null past the last level. */
export function nextDrillGrain(grain: TimeGrain | undefined): DrillGrain | "day" | null {
  // weeks lie across months and years: a week drills into its days, outside the chain
  if (grain === "week") return "day";
  const at = drillChain.indexOf(grain as (typeof drillChain)[number]);
  return at < 0 || at === drillChain.length - 1 ? null : (drillChain[at + 1] ?? null);
}

/** Whether a chart's x column of this type at this grain can be drilled into. */
export function drillableGrain(
  type: DatasetColumnType | undefined,
  grain: TimeGrain | undefined,
): grain is DrillGrain {
  return (type === "date" || type === "timestamp") && nextDrillGrain(grain) !== null;
}

const yearText = (year: number) => String(year).padStart(4, "0");

/** A period as the URL names it: "2016", "2016-Q2", "2016-05". */
export function drillToken(period: DrillPeriod): string {
  if (period.grain === "year") return yearText(period.year);
  if (period.grain === "week") return `W${formatDay(weekStart(period))}`;
  if (period.grain === "quarter") {
    return `${yearText(period.year)}-Q${Math.floor((period.month - 1) / 3) + 1}`;
  }
  return `${yearText(period.year)}-${String(period.month).padStart(2, "0")}`;
}

/** The period a URL names, or null when it names none (a day, a week not from Monday, anything else). */
export function parseDrillToken(token: string): DrillPeriod | null {
  const week = /^W(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.exec(token);
  if (week) {
    const day = { year: Number(week[1]), month: Number(week[2]), day: Number(week[3]) };
    const period = weekOf(day);
    // a real day that starts its week: the one name of each week
    return period && formatDay(weekStart(period)) === token.slice(1) ? period : null;
  }
  const match = /^(\d{4})(?:-Q([1-4])|-(0[1-9]|1[0-2]))?$/.exec(token);
  if (!match) return null;
  const year = Number(match[1]);
  if (match[2] !== undefined)
    return { grain: "quarter", year, month: (Number(match[2]) - 1) * 3 + 1 };
  if (match[3] !== undefined) return { grain: "month", year, month: Number(match[3]) };
  return { grain: "year", year, month: 1 };
}

/**
 * The period of `grain` an x value of a chart stands for (a result's bucket, "2016-04-01"), or null
 * when the value is no day.
 */
export function periodOf(grain: DrillGrain, bucket: unknown): DrillPeriod | null {
  if (typeof bucket !== "string") return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(bucket);
  if (!match) return null;
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  if (grain === "week") return weekOf({ year: Number(match[1]), month, day: Number(match[3]) });
  return periodAt(grain, Number(match[1]), month);
}

/** The week (from Monday) holding a day, or null when the day is none (2017-02-29). */
function weekOf(day: Day): DrillPeriod | null {
  if (formatDay(addDays(day, 0)) !== formatDay(day)) return null;
  const monday = unitStart("week", day);
  return { grain: "week", year: monday.year, month: monday.month, day: monday.day };
}

/** A week's Monday. */
function weekStart(period: DrillPeriod): Day {
  return { year: period.year, month: period.month, day: period.day ?? 1 };
}

/** The period of `grain` holding a month of a year (a year, quarter or month). */
function periodAt(grain: Exclude<DrillGrain, "week">, year: number, month: number): DrillPeriod {
  const first = grain === "year" ? 1 : grain === "quarter" ? month - ((month - 1) % 3) : month;
  return { grain, year, month: first };
}

/** "May": English month names, as the rest of the page's words are English. */
const monthName = new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" });
const shortMonthName = new Intl.DateTimeFormat("en-US", { month: "short", timeZone: "UTC" });

/** A period as a breadcrumb reads it: "2016", "Q2 2016", "May 2016", "Week of Apr 4, 2016". */
export function describePeriod(period: DrillPeriod): string {
  if (period.grain === "year") return yearText(period.year);
  if (period.grain === "week") {
    const month = shortMonthName.format(Date.UTC(2000, period.month - 1, 1));
    return `Week of ${month} ${period.day ?? 1}, ${yearText(period.year)}`;
  }
  if (period.grain === "quarter") {
    return `Q${Math.floor((period.month - 1) / 3) + 1} ${yearText(period.year)}`;
  }
  return `${monthName.format(Date.UTC(2000, period.month - 1, 1))} ${yearText(period.year)}`;
}

/** What the top of a breadcrumb reads for a chart of `grain`: "All years". */
export function describeAllPeriods(grain: DrillGrain): string {
  return { year: "All years", quarter: "All quarters", month: "All months", week: "All weeks" }[
    grain
  ];
}

/**
 * The periods from a chart's own grain down to `period` (a chart of years drilled into May 2016:
 * 2016, Q2 2016, May 2016); null when `period` is not a level below that grain.
 */
export function drillTrail(base: DrillGrain, period: DrillPeriod): DrillPeriod[] | null {
  // a week is in no year, quarter or month of the chain: a chart of weeks drills into one
  if (base === "week" || period.grain === "week") {
    return base === period.grain ? [weekOf(weekStart(period)) ?? period] : null;
  }
  const from = drillChain.indexOf(base);
  const to = drillChain.indexOf(period.grain);
  if (to < from) return null;
  return drillChain
    .slice(from, to + 1)
    .map((grain) => periodAt(grain as Exclude<DrillGrain, "week">, period.year, period.month));
}

/** The first day of a period and the first day after it. */
function periodDays(period: DrillPeriod): { from: Day; to: Day } {
  if (period.grain === "week") {
    const monday = weekStart(period);
    return { from: monday, to: addDays(monday, 7) };
  }
  const months = { year: 12, quarter: 3, month: 1 }[period.grain];
  const end = period.month - 1 + months;
  return {
    from: { year: period.year, month: period.month, day: 1 },
    to: { year: period.year + Math.floor(end / 12), month: (end % 12) + 1, day: 1 },
  };
}

/** The last day before `day`, and never past 9999-12-31 (the last day an engine writes). */
function lastDay(day: Day): Day {
  const before = addDays(day, -1);
  return before.year > 9999 ? { year: 9999, month: 12, day: 31 } : before;
}

const dayText = formatDay;

/**
 * The query a chart runs drilled into `period`: its x at the next grain, within the period (the
 * dashboard's local days for a timestamp column). Null when the chart cannot drill into it.
 */
export function drilledQuery(
  query: ChartQuery,
  columnType: DatasetColumnType | undefined,
  period: DrillPeriod,
  timeZone: string,
): ChartQuery | null {
  const base = query.x.grain;
  if (!drillableGrain(columnType, base) || drillTrail(base, period) === null) return null;
  const grain = nextDrillGrain(period.grain);
  if (grain === null) return null;
  const { from, to } = periodDays(period);
  const column = query.x.column;
  const within: QueryFilter[] =
    columnType === "date"
      ? [
          // The last day itself, not the next one: past 9999-12-31 there is no yyyy-mm-dd.
          { column, op: "gte", value: dayText(from) },
          { column, op: "lte", value: dayText(lastDay(to)) },
        ]
      : [
          { column, op: "gte", value: new Date(localMidnight(timeZone, from)).toISOString() },
          { column, op: "lt", value: new Date(localMidnight(timeZone, to)).toISOString() },
        ];
  return { ...query, x: { ...query.x, grain }, filters: [...query.filters, ...within] };
}

/** The URL's name/value pairs of the drilled charts: `drill=<tile id>.<period>` each. */
export function drillPairs(applied: AppliedDashboardFilters): Array<[string, string]> {
  return Object.entries(applied.drill ?? {}).map(([tileId, token]) => [
    drillParam,
    `${tileId}.${token}`,
  ]);
}

/**
 * A drill parameter read: its tile and its period or category path, or null when it names
 * neither well. A tile id has no dot: the first one ends it (a value of a path may hold dots).
 */
export function parseDrillParam(value: string): { tileId: string; token: string } | null {
  const at = value.indexOf(".");
  if (at <= 0) return null;
  const tileId = value.slice(0, at);
  const token = value.slice(at + 1);
  if (tileId.length > maxTileIdLength || !/^[A-Za-z0-9_-]+$/.test(tileId)) return null;
  return parseDrillToken(token) || parseCategoryPath(token) ? { tileId, token } : null;
}

/**
 * The filters with a tile drilled into `period` or down a category path, or back to its own
 * grain or level (null).
 */
export function withDrill(
  applied: AppliedDashboardFilters,
  tileId: string,
  to: DrillPeriod | CategoryPath | null,
): AppliedDashboardFilters {
  const { [tileId]: _dropped, ...others } = applied.drill ?? {};
  const token = to === null ? null : isCategoryPath(to) ? categoryPathToken(to) : drillToken(to);
  const drill = token === null ? others : { ...others, [tileId]: token };
  const { drill: _old, ...rest } = applied;
  return Object.keys(drill).length > 0 ? { ...rest, drill } : rest;
}

// Drill-down through a category hierarchy (hierarchies.ts): a chart of regions drills into the
// countries of one region, a country into its cities. The URL names the values chosen from the
// chart's own x down, as a JSON list (`drill=<tile id>.["Europe","France"]`); null stands for
// the empty value, which the chart draws as "(empty)".

/** The values a category drill chose, from the chart's own x column down; null is the empty value. */
export type CategoryPath = ReadonlyArray<string | null>;

function isCategoryPath(to: DrillPeriod | CategoryPath): to is CategoryPath {
  return Array.isArray(to);
}

/** A category path as the URL names it: `["Europe","France"]`. */
export function categoryPathToken(path: CategoryPath): string {
  return JSON.stringify(path);
}

/**
 * The category path a URL names, or null when it names none: a JSON list of one value or more
 * (fewer than a hierarchy's levels), each a value a link carries (linkableFilterValue) or null.
 */
export function parseCategoryPath(token: string): Array<string | null> | null {
  if (!token.startsWith("[")) return null;
  let read: unknown;
  try {
    read = JSON.parse(token);
  } catch {
    return null;
  }
  if (!Array.isArray(read) || read.length < 1 || read.length >= hierarchyLimits.maxLevels) {
    return null;
  }
  const fits = (value: unknown) =>
    value === null || (typeof value === "string" && linkableFilterValue(value));
  return read.every(fits) ? (read as Array<string | null>) : null;
}

/**
 * The value of a category chart's row a click drills into (null for the empty value), or
 * undefined when it stands for none: the rest grouped as "Other", no such row, a value a link
 * cannot carry (see linkableFilterValue).
 */
export function categoryValueOf(
  rows: ReadonlyArray<{ x?: unknown }>,
  rowIndex: number,
  otherRow: number | null,
): string | null | undefined {
  if (rowIndex === otherRow || rowIndex < 0 || rowIndex >= rows.length) return undefined;
  const value = rows[rowIndex]?.x;
  if (value === null || value === undefined || value === "") return null;
  const text = typeof value === "boolean" ? String(value) : value;
  return typeof text === "string" && linkableFilterValue(text) ? text : undefined;
}

/**
 * The query a chart whose x is `levels[0]` runs drilled down `path`: its x the level below the
 * last value chosen, within each value chosen. Null when the path is as deep as the levels.
 */
export function categoryDrilledQuery(
  query: ChartQuery,
  levels: readonly string[],
  path: CategoryPath,
): ChartQuery | null {
  const column = levels[path.length];
  if (query.x.column !== levels[0] || column === undefined || path.length === 0) return null;
  const within: QueryFilter[] = path.map((value, level) => {
    const at = levels[level] as string;
    return value === null ? { column: at, op: "empty" } : { column: at, op: "eq", value };
  });
  const { grain: _none, ...x } = query.x;
  return { ...query, x: { ...x, column }, filters: [...query.filters, ...within] };
}

/** What the top of a category breadcrumb reads: "All region". */
export function describeAllValues(column: string): string {
  return `All ${column}`;
}
