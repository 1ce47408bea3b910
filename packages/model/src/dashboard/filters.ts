import { z } from "zod";
import { isCategoryType } from "../column-types.js";
import type { QueryFilter } from "../query/spec.js";
import {
  addDays,
  type Day,
  dayMsOf,
  formatDay,
  localMidnight,
  relativeDays,
} from "../query/time.js";
import { slugWords } from "../slug.js";
import type { DatasetColumnType } from "../vocabulary.js";
import { drillPairs, drillParam, maxDrillParamLength, parseDrillParam } from "./drill.js";
import { linkableFilterValue, maxLinkValueLength } from "./link-value.js";

// Dashboard filters: a date range and category filters set at the top of a dashboard, carried in
// the page's URL, and applied as extra query filters to every chart and stat tile whose dataset
// has a column of that name and a fitting type. The one home for their rules: configuration,
// the URL's canonical form, parsing it (bad values are reported, never thrown) and the
// translation into QueryFilters.

export const dashboardFilterLimits = {
  /** Category filters per dashboard. */
  maxCategories: 5,
  /** Values chosen per category filter. */
  maxValuesPerFilter: 20,
  /** Characters of one chosen value. */
  maxValueLength: maxLinkValueLength,
  /** Values a category filter offers (the most common across the dashboard's datasets). */
  maxOptions: 200,
  /** Name/value pairs the URL may carry. */
  maxPairs: 40,
  /** Characters of a name in the URL. */
  maxNameLength: 40,
} as const;

/** The preset ranges, in the order the filter bar offers them. */
export const datePresets = [
  { id: "last-7-days", label: "Last 7 days", range: { unit: "day", which: "last_n", n: 7 } },
  { id: "last-30-days", label: "Last 30 days", range: { unit: "day", which: "last_n", n: 30 } },
  { id: "last-90-days", label: "Last 90 days", range: { unit: "day", which: "last_n", n: 90 } },
  { id: "this-month", label: "This month", range: { unit: "month", which: "this" } },
  { id: "last-month", label: "Last month", range: { unit: "month", which: "previous" } },
  { id: "this-year", label: "This year", range: { unit: "year", which: "this" } },
  {
    id: "last-12-months",
    label: "Last 12 months",
    range: { unit: "month", which: "last_n", n: 12 },
  },
] as const;
export type DatePresetId = (typeof datePresets)[number]["id"];

/** URL names the date range uses; a category's name may not be one of them. */
export const reservedFilterParams = ["range", "from", "to", drillParam] as const;
export const allTimeRange = "all-time";
export const customRange = "custom";

const columnName = z
  .string({ error: "Choose a column." })
  .trim()
  .min(1, "Choose a column.")
  .max(64, "Column names are at most 64 characters.");

/** Which columns a dashboard filters by; stored with the dashboard, versioned with it. */
export const dashboardFilterConfigSchema = z
  .object({
    dateColumn: columnName.nullable().default(null),
    categories: z
      .array(columnName, { error: "Categories must be a list of columns." })
      .max(
        dashboardFilterLimits.maxCategories,
        `A dashboard has at most ${dashboardFilterLimits.maxCategories} category filters.`,
      )
      .default([]),
  })
  .strict()
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    for (const [index, column] of config.categories.entries()) {
      const param = filterParamName(column);
      if (param === "" || (reservedFilterParams as readonly string[]).includes(param)) {
        ctx.addIssue({
          code: "custom",
          path: ["categories", index],
          message: `"${column}" cannot be a filter's name in a link; rename the column.`,
        });
      } else if (seen.has(param)) {
        ctx.addIssue({
          code: "custom",
          path: ["categories", index],
          message: `"${column}" is already a filter.`,
        });
      }
      seen.add(param);
    }
  });
export type DashboardFilterConfig = z.output<typeof dashboardFilterConfigSchema>;
export type DashboardFilterConfigInput = z.input<typeof dashboardFilterConfigSchema>;

export const noDashboardFilters: DashboardFilterConfig = { dateColumn: null, categories: [] };

/** A category's name in the URL: "Sales Region" -> "sales-region". */
export function filterParamName(column: string): string {
  return slugWords(column, dashboardFilterLimits.maxNameLength);
}

/** The filters a visitor chose, parsed from the URL. */
export interface AppliedDashboardFilters {
  /** A preset, or a custom range of local days (either end open); null is all time. */
  range: { preset: DatePresetId } | { from: string | null; to: string | null } | null;
  /** Chosen values by column name; only filters with at least one value. */
  categories: Record<string, string[]>;
  /**
   * Drilled charts: the period each shows, by tile id ("2016-Q2", see drill.ts). Checked against
   * the dashboard's charts when it is rendered; absent when none is drilled.
   */
  drill?: Readonly<Record<string, string>>;
}

export const noAppliedFilters: AppliedDashboardFilters = { range: null, categories: {} };

export function hasAppliedFilters(applied: AppliedDashboardFilters): boolean {
  return applied.range !== null || Object.keys(applied.categories).length > 0;
}

function clip(text: string, length: number): string {
  return [...text].slice(0, length).join("");
}

/**
 * The canonical form of a filter query: names lower-cased, values trimmed, blanks and repeats
 * dropped, sorted by name then value; a preset or "all time" drops from/to, "custom" is implied.
 * Overlong names and values are cut one character past the limit and the list one pair past
 * it, so the parser still sees and reports them while the form stays bounded. Never throws.
 */
export function canonicalFilterQuery(pairs: Iterable<readonly [string, string]>): string {
  const limits = dashboardFilterLimits;
  const kept = new Map<string, [string, string]>();
  for (const [rawName, rawValue] of pairs) {
    const name = clip(String(rawName).trim().toLowerCase(), limits.maxNameLength + 1);
    const bound = name === drillParam ? maxDrillParamLength : limits.maxValueLength;
    const value = clip(String(rawValue).trim(), bound + 1);
    if (name === "" || value === "") continue;
    if (name === "range" && value === customRange) continue;
    kept.set(`${name}\u0000${value}`, [name, value]);
  }
  let sorted = [...kept.values()].sort(([a, x], [b, y]) =>
    a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1,
  );
  if (sorted.some(([name]) => name === "range")) {
    sorted = sorted.filter(
      ([name, value]) =>
        name !== "from" && name !== "to" && `${name}=${value}` !== "range=all-time",
    );
  }
  return new URLSearchParams(sorted.slice(0, limits.maxPairs + 1)).toString();
}

const isoDay = /^\d{4}-\d{2}-\d{2}$/;

function validDay(text: string): boolean {
  if (!isoDay.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

function dayOfText(text: string): Day {
  const [year, month, day] = text.split("-").map(Number);
  return { year: year ?? 1970, month: month ?? 1, day: day ?? 1 };
}

/** A value as a notice about the filters quotes it: at most 40 characters. */
export function shortFilterValue(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/**
 * The filters a canonical (or any) query asks for, against a dashboard's configuration. Whatever
 * does not fit (an unknown name or preset, a bad or reversed date, too many or overlong values)
 * is left out and described in `problems`; the rest applies. Never throws.
 */
export function parseDashboardFilterQuery(
  query: string,
  config: DashboardFilterConfig,
): { applied: AppliedDashboardFilters; problems: string[] } {
  const limits = dashboardFilterLimits;
  const problems: string[] = [];
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(query);
  } catch {
    return { applied: noAppliedFilters, problems: ["The filters in the link could not be read."] };
  }
  const pairs = [...params];
  if (pairs.length > limits.maxPairs) {
    problems.push(
      `The link has more than ${limits.maxPairs} filter values; the rest were ignored.`,
    );
  }
  const byParam = new Map(config.categories.map((column) => [filterParamName(column), column]));
  const values = new Map<string, string[]>();
  const unknown = new Set<string>();
  for (const [name, value] of pairs.slice(0, limits.maxPairs)) {
    if ((reservedFilterParams as readonly string[]).includes(name) || byParam.has(name)) {
      values.set(name, [...(values.get(name) ?? []), value]);
    } else if (name.trim() !== "") unknown.add(name);
  }
  for (const name of unknown)
    problems.push(`There is no filter "${shortFilterValue(name)}"; it was ignored.`);

  let range: AppliedDashboardFilters["range"] = null;
  const rangeValue = values.get("range")?.[0];
  const hasDateFilter = config.dateColumn !== null;
  if (!hasDateFilter && (values.has("range") || values.has("from") || values.has("to"))) {
    problems.push("This dashboard has no date filter; the date range was ignored.");
  } else if (rangeValue !== undefined && rangeValue !== customRange) {
    const preset = datePresets.find((candidate) => candidate.id === rangeValue);
    if (preset) range = { preset: preset.id };
    else if (rangeValue !== allTimeRange) {
      problems.push(`"${shortFilterValue(rangeValue)}" is not a date range; showing all time.`);
    }
  } else if (values.has("from") || values.has("to")) {
    const ends = (["from", "to"] as const).map((end) => {
      const text = values.get(end)?.[0];
      if (text === undefined) return null;
      if (validDay(text)) return text;
      problems.push(
        `"${shortFilterValue(text)}" is not a date (yyyy-mm-dd); the ${end} date was ignored.`,
      );
      return null;
    });
    const [from = null, to = null] = ends;
    if (from !== null && to !== null && from > to) {
      problems.push(`The range starts (${from}) after it ends (${to}); it was ignored.`);
    } else if (from !== null || to !== null) {
      range = { from, to };
    }
  }

  const drill: Record<string, string> = {};
  for (const value of values.get(drillParam) ?? []) {
    const read = parseDrillParam(value);
    if (!read) {
      const token = value.slice(value.indexOf(".") + 1);
      problems.push(
        `"${shortFilterValue(token)}" is not a period to drill into (a year such as 2016, a quarter such as 2016-Q2, a month such as 2016-05, a week by its Monday such as W2016-05-02) nor values of a hierarchy (such as ["Europe","France"]); it was ignored.`,
      );
    } else if (drill[read.tileId] === undefined) drill[read.tileId] = read.token;
  }

  const categories: Record<string, string[]> = {};
  for (const [param, column] of byParam) {
    const chosen = values.get(param);
    if (!chosen) continue;
    const fitting = chosen.filter((value) => [...value].length <= limits.maxValueLength);
    if (fitting.length < chosen.length) {
      problems.push(
        `Values of ${column} are at most ${limits.maxValueLength} characters; longer ones were ignored.`,
      );
    }
    if (fitting.length > limits.maxValuesPerFilter) {
      problems.push(
        `Choose at most ${limits.maxValuesPerFilter} values of ${column}; the rest were ignored.`,
      );
    }
    const kept = fitting.slice(0, limits.maxValuesPerFilter);
    if (kept.length > 0) categories[column] = kept;
  }
  const applied: AppliedDashboardFilters = { range, categories };
  return { applied: Object.keys(drill).length > 0 ? { ...applied, drill } : applied, problems };
}

/** The query string of applied filters (for links and the form), in canonical form. */
export function appliedFilterQuery(applied: AppliedDashboardFilters): string {
  const pairs: Array<[string, string]> = [];
  if (applied.range && "preset" in applied.range) pairs.push(["range", applied.range.preset]);
  else if (applied.range) {
    if (applied.range.from) pairs.push(["from", applied.range.from]);
    if (applied.range.to) pairs.push(["to", applied.range.to]);
  }
  for (const [column, chosen] of Object.entries(applied.categories)) {
    for (const value of chosen) pairs.push([filterParamName(column), value]);
  }
  return canonicalFilterQuery([...pairs, ...drillPairs(applied)]);
}

/**
 * A filtered view's address: the dashboard's path (with any query it must keep, such as a signed
 * embed link's) and its filters in canonical form after it.
 */
export function filteredHref(path: string, applied: AppliedDashboardFilters): string {
  const query = appliedFilterQuery(applied);
  if (query === "") return path;
  return `${path}${path.includes("?") ? "&" : "?"}${query}`;
}

/** How many name/value pairs filters take in a link. */
function filterPairCount(applied: AppliedDashboardFilters): number {
  const range = applied.range;
  const rangePairs =
    range === null ? 0 : "preset" in range ? 1 : (range.from ? 1 : 0) + (range.to ? 1 : 0);
  return Object.values(applied.categories).reduce(
    (sum, chosen) => sum + chosen.length,
    rangePairs + Object.keys(applied.drill ?? {}).length,
  );
}

/**
 * The filters after a click on a chart's value (cross-filter): that value alone for its column,
 * or none for the column when it was already the only one (a second click undoes the first).
 * The date range and other columns stay. Null when a link cannot carry the value or the filters.
 */
export function crossFiltered(
  applied: AppliedDashboardFilters,
  column: string,
  value: string,
): AppliedDashboardFilters | null {
  if (!linkableFilterValue(value)) return null;
  const current = applied.categories[column];
  const undo = current?.length === 1 && current[0] === value;
  const { [column]: _dropped, ...others } = applied.categories;
  const next = { ...applied, categories: undo ? others : { ...others, [column]: [value] } };
  return filterPairCount(next) <= dashboardFilterLimits.maxPairs ? next : null;
}

/** The filters without one chosen value of a column (a filter chip's remove). */
export function withoutCategoryValue(
  applied: AppliedDashboardFilters,
  column: string,
  value: string,
): AppliedDashboardFilters {
  const { [column]: current = [], ...others } = applied.categories;
  const kept = current.filter((chosen) => chosen !== value);
  return { ...applied, categories: kept.length > 0 ? { ...others, [column]: kept } : others };
}

/** How the applied range reads: "Last 30 days", "2026-01-01 to 2026-03-31", "All time". */
export function describeAppliedRange(range: AppliedDashboardFilters["range"]): string {
  if (range === null) return "All time";
  if ("preset" in range) {
    return datePresets.find((preset) => preset.id === range.preset)?.label ?? "All time";
  }
  if (range.from && range.to) return `${range.from} to ${range.to}`;
  return range.from ? `From ${range.from}` : `Until ${range.to}`;
}

function nextDay(text: string): Day {
  const next = new Date(dayMsOf(dayOfText(text)) + 86_400_000);
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
}

/**
 * The extra filters a dataset's queries get, ANDed with their own, and the names of the applied
 * filters that do not reach it (no column of that name, or not of a fitting type).
 */
/**
 * The first and last day (inclusive, yyyy-mm-dd) of an applied date range in a zone at an
 * instant: what a SQL question's {{from}} and {{to}} are bound to. Null ends are open.
 */
export function dashboardRangeDays(
  range: AppliedDashboardFilters["range"],
  timeZone: string,
  now: number,
): { from: string | null; to: string | null } {
  if (range === null) return { from: null, to: null };
  if ("preset" in range) {
    const preset = datePresets.find((candidate) => candidate.id === range.preset);
    if (!preset) return { from: null, to: null };
    const days = relativeDays(preset.range, timeZone, now);
    return { from: formatDay(days.from), to: formatDay(addDays(days.to, -1)) };
  }
  return { from: range.from ?? null, to: range.to ?? null };
}

export function dashboardFilterQueries(
  config: DashboardFilterConfig,
  applied: AppliedDashboardFilters,
  columns: readonly { name: string; type: DatasetColumnType }[],
  timeZone: string,
): { filters: QueryFilter[]; notFilteredBy: string[] } {
  const filters: QueryFilter[] = [];
  const notFilteredBy: string[] = [];
  const byName = new Map(columns.map((column) => [column.name, column]));
  if (config.dateColumn !== null && applied.range !== null) {
    const column = byName.get(config.dateColumn);
    const range = applied.range;
    if (!column || (column.type !== "date" && column.type !== "timestamp")) {
      notFilteredBy.push(config.dateColumn);
    } else if ("preset" in range) {
      const preset = datePresets.find((candidate) => candidate.id === range.preset);
      if (preset) filters.push({ column: column.name, op: "relative", ...preset.range });
    } else if (column.type === "date") {
      if (range.from) filters.push({ column: column.name, op: "gte", value: range.from });
      if (range.to) filters.push({ column: column.name, op: "lte", value: range.to });
    } else {
      // A timestamp is in the range from the start of the first local day to the end of the last.
      if (range.from) {
        const start = localMidnight(timeZone, dayOfText(range.from));
        filters.push({ column: column.name, op: "gte", value: new Date(start).toISOString() });
      }
      if (range.to) {
        const end = localMidnight(timeZone, nextDay(range.to));
        filters.push({ column: column.name, op: "lt", value: new Date(end).toISOString() });
      }
    }
  }
  for (const [name, chosen] of Object.entries(applied.categories)) {
    const column = byName.get(name);
    if (!column || !isCategoryType(column.type)) {
      notFilteredBy.push(name);
      continue;
    }
    if (column.type === "string") {
      filters.push({ column: name, op: "in", values: chosen });
      continue;
    }
    // True/false match without regard to case, as text does ("True" in a link is true).
    const flags = [
      ...new Set(
        chosen
          .map((value) => value.toLowerCase())
          .filter((value) => value === "true" || value === "false"),
      ),
    ];
    if (flags.length > 0) {
      filters.push({ column: name, op: "in", values: flags.map((value) => value === "true") });
    } else {
      // No value a true/false column can hold was chosen: no row matches.
      filters.push({ column: name, op: "empty" }, { column: name, op: "not_empty" });
    }
  }
  return { filters, notFilteredBy };
}
