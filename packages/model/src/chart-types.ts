import { isTimeType, type TimeGrain } from "./column-types.js";
// The one table of chart types, their options and the query parts each accepts. Plain TypeScript
// (no React, no database, no validation library) so the store's validation, the admin editor and
// the renderer all import the same rules from `@seed/model`.

import type { DatasetColumnType } from "./vocabulary.js";

export const chartTypes = [
  "line",
  "area",
  "bar",
  "pie",
  "table",
  "scatter",
  "combo",
  "calendar",
] as const;
export type ChartType = (typeof chartTypes)[number];

export const curveTypes = ["linear", "monotone", "step"] as const;
export type CurveType = (typeof curveTypes)[number];

export const stackModes = ["none", "stacked", "percent"] as const;
export type StackMode = (typeof stackModes)[number];

/** Options a chart may set; which ones a type accepts is in chartTypeSpecs. */
export const chartOptionNames = [
  "stack",
  "horizontal",
  "curve",
  "donut",
  "numberFormat",
  "showLegend",
  "legendPosition",
  "valueLabels",
  "otherThreshold",
  "locale",
  "dateFormat",
  "xNumberFormat",
  "gaps",
  "annotations",
  "annotationSource",
  "colorRules",
  "pageSize",
  "comboSeries",
] as const;
export type ChartOptionName = (typeof chartOptionNames)[number];

/** Where a shown legend sits (a hidden legend is `showLegend: false`). */
export const legendPositions = ["bottom", "top", "left", "right"] as const;
export type LegendPosition = (typeof legendPositions)[number];

/** What value labels on bars or slices say; which a type offers is in chartTypeSpecs. */
export const valueLabelModes = ["none", "value", "percent", "name"] as const;
export type ValueLabelMode = (typeof valueLabelModes)[number];

/** Locales a chart may format in; "visitor" follows the visitor's browser. Unset: en-US. */
export const chartLocales = [
  "en-US",
  "en-GB",
  "de-DE",
  "fr-FR",
  "es-ES",
  "it-IT",
  "nl-NL",
  "pt-BR",
  "ja-JP",
  "zh-CN",
  "visitor",
] as const;
export type ChartLocale = (typeof chartLocales)[number];

/** How dates on the index are written; unset picks by the data's span. */
export const dateFormats = ["day", "month", "year"] as const;
export type DateFormat = (typeof dateFormats)[number];

/**
 * How numbers on the index (a number x column) are written: "auto" in the locale's way, with
 * grouping (1,900 in en-US); "plain" without grouping separators, for years and codes (1900).
 */
export const xNumberFormats = ["auto", "plain"] as const;
export type XNumberFormat = (typeof xNumberFormats)[number];

/**
 * What a line or area does across periods of a dated x that hold no data: "break" leaves a gap
 * (the periods are there, empty), "connect" draws straight across them.
 */
export const gapModes = ["break", "connect"] as const;
export type GapMode = (typeof gapModes)[number];

/** When a table's colour rule applies: the value is below, at most, above, at least or equal to its number. */
export const colorRuleConditions = [
  "below",
  "at_or_below",
  "above",
  "at_or_above",
  "equal",
] as const;
export type ColorRuleCondition = (typeof colorRuleConditions)[number];

/** How many rows a table chart shows a page, the first being the default. */
export const tablePageSizes = [10, 25, 50, 100] as const;
export type TablePageSize = (typeof tablePageSizes)[number];

/** How a combo chart draws one measure: as bars or a line. */
export const comboMarks = ["bar", "line"] as const;
export type ComboMark = (typeof comboMarks)[number];
/** The value axis a combo chart measures one measure on; "right" is a second axis with its own scale. */
export const comboAxes = ["left", "right"] as const;
export type ComboAxis = (typeof comboAxes)[number];

/** How a combo chart draws one measure. */
export interface ComboKind {
  type: ComboMark;
  axis: ComboAxis;
}

/** How a combo chart draws its measure at `position` when the chart does not say: the first as bars, the rest as lines, all on the left axis. */
export function defaultComboSeries(position: number): ComboKind {
  return { type: position === 0 ? "bar" : "line", axis: "left" };
}

/** How a combo chart draws each of its `measures` measures: as said (by position), else by default. */
export function comboSeriesOf(
  said: readonly Partial<ComboKind>[] | undefined,
  measures: number,
): ComboKind[] {
  return Array.from({ length: measures }, (_, position) => ({
    ...defaultComboSeries(position),
    ...said?.[position],
  }));
}

/** Largest share of the total a pie may group into "Other" (the kit's default is 0.03). */
export const maxOtherThreshold = 0.5;

/** "none" plots raw values (no grouping). */
export const queryAggregates = [
  "sum",
  "avg",
  "median",
  "p25",
  "p75",
  "p90",
  "p95",
  "p99",
  "min",
  "max",
  "count",
  "count_distinct",
  "formula",
  "none",
] as const;
export type QueryAggregate = (typeof queryAggregates)[number];

/**
 * The percentile each percentile aggregate reads (median 0.5), continuous: at position
 * h = (n - 1) p among the n non-empty values in order, lo and hi the values at floor(h) and
 * ceil(h), the value lo (1 - d) + hi d with d = h - floor(h) (lo itself where lo = hi). Every
 * engine computes exactly this, from the values in order, so all give the same double.
 */
export const percentileOf: Readonly<Partial<Record<QueryAggregate, number>>> = {
  median: 0.5,
  p25: 0.25,
  p75: 0.75,
  p90: 0.9,
  p95: 0.95,
  p99: 0.99,
};

/** The continuous percentile `p` of values in ascending order (percentileOf's rule); null of none. */
export function percentileOfSorted(sorted: readonly number[], p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const h = (n - 1) * p;
  const lo = sorted[Math.floor(h)] as number;
  const hi = sorted[Math.ceil(h)] as number;
  if (lo === hi) return lo;
  const d = h - Math.floor(h);
  return lo * (1 - d) + hi * d;
}
/**
 * How a measure's values are shown: as they are, as a share of the total over every row the
 * filters keep, as a running total along x (shares and running totals add up sums and counts),
 * or as the change from the period before or from the same period a year before (x grouped by
 * a time grain; -0.12 is a 12% fall).
 */
export const measureShows = [
  "value",
  "share_of_total",
  "running_total",
  "change_from_previous",
  "change_from_year_before",
] as const;
export type MeasureShow = (typeof measureShows)[number];
/** Aggregates whose values add up, so a share of the total or a running total means something. */
export const additiveAggregates: readonly QueryAggregate[] = ["sum", "count"];

/** Aggregates that need a number column; count and count_distinct take any column. */
export const numericAggregates: readonly QueryAggregate[] = queryAggregates.filter(
  (aggregate) => aggregate !== "count" && aggregate !== "count_distinct" && aggregate !== "formula",
);

export const filterOperators = [
  "eq",
  "neq",
  "in",
  "lt",
  "lte",
  "gt",
  "gte",
  "between",
  "empty",
  "not_empty",
  "relative",
] as const;
export type FilterOperator = (typeof filterOperators)[number];

const equality: readonly FilterOperator[] = ["eq", "neq", "in", "empty", "not_empty"];
const ordering: readonly FilterOperator[] = ["lt", "lte", "gt", "gte", "between"];

/**
 * The filter operators each column type takes, in the order an editor offers them. Text is
 * ordered by bytes on every engine (the store compiles it so); true/false has no order.
 */
export const filterOperatorsByType: Readonly<Record<DatasetColumnType, readonly FilterOperator[]>> =
  {
    number: [...equality, ...ordering],
    string: [...equality, ...ordering],
    boolean: equality,
    date: ["relative", ...equality, ...ordering],
    timestamp: ["relative", ...equality, ...ordering],
  };

/** Column types a breakdown may split by: categories, never measures or instants. */
export const breakdownColumnTypes: readonly DatasetColumnType[] = ["string", "boolean"];

export const relativeUnits = ["day", "week", "month", "quarter", "year"] as const;
export type RelativeUnit = (typeof relativeUnits)[number];
/** "last_n": the n units ending with the current one (today included); "this"; "previous". */
export const relativeKinds = ["last_n", "this", "previous"] as const;
export type RelativeKind = (typeof relativeKinds)[number];
/**
 * What a relative range counts back from: "today" (in the dashboard's zone) or "latest", the
 * newest value of the filtered column (the last 30 days of a file that ends in 2015).
 */
export const relativeAnchors = ["today", "latest"] as const;
export type RelativeAnchor = (typeof relativeAnchors)[number];

export interface ChartTypeSpec {
  label: string;
  /** Options this type accepts; the store refuses any other. */
  options: readonly ChartOptionName[];
  /** Value label modes this type draws, the first being the default (when it has valueLabels). */
  valueLabels: readonly ValueLabelMode[];
  accepts: {
    /** A time grain on the x column. */
    grain: boolean;
    /** A breakdown column splitting a measure into series. */
    breakdown: boolean;
    /** More than one measure. */
    multipleMeasures: boolean;
    /** At least this many measures, where one is too few (a combo's bars and line). */
    minMeasures?: number;
    /** At most this many measures, where fewer than a query may have (a scatter's y and size). */
    maxMeasures?: number;
    /** The grains it takes, where not every one (a calendar draws days). */
    grains?: readonly TimeGrain[];
    /** The x column's types, where not every type (a scatter plots numbers or dates). */
    xTypes?: readonly DatasetColumnType[];
    /** Raw ("none") measures, one point per row. */
    rawMeasures: boolean;
    /** Raw values split by a breakdown (a scatter's points coloured by group); else aggregates only. */
    rawBreakdown?: boolean;
  };
}

/**
 * Whether a chart of this type splits its measure by a breakdown: aggregates on every type that
 * takes one, raw values only where each row is a point of its group's colour (a scatter).
 */
export function splitsByBreakdown(type: ChartType, raw: boolean): boolean {
  const { accepts } = chartTypeSpecs[type];
  return accepts.breakdown && (!raw || accepts.rawBreakdown === true);
}

// Options every type has: how numbers, the legend, the locale and dates read.
const common = [
  "numberFormat",
  "showLegend",
  "legendPosition",
  "locale",
  "dateFormat",
] as const satisfies readonly ChartOptionName[];
// A cartesian chart (line, area, bar) has an x axis, whose numbers may be written plain.
// Annotations are drawn on a time axis.
const cartesian = [
  ...common,
  "xNumberFormat",
  "annotations",
  "annotationSource",
] as const satisfies readonly ChartOptionName[];
const everyQuery = { grain: true, breakdown: true, multipleMeasures: true, rawMeasures: true };

export const chartTypeSpecs: Readonly<Record<ChartType, ChartTypeSpec>> = {
  line: {
    label: "Line",
    options: ["curve", "gaps", ...cartesian],
    valueLabels: [],
    accepts: everyQuery,
  },
  area: {
    label: "Area",
    options: ["stack", "curve", "gaps", ...cartesian],
    valueLabels: [],
    accepts: everyQuery,
  },
  bar: {
    label: "Bar",
    options: ["stack", "horizontal", "valueLabels", ...cartesian],
    valueLabels: ["none", "value"],
    accepts: everyQuery,
  },
  pie: {
    label: "Pie",
    options: ["donut", "valueLabels", "otherThreshold", ...common],
    valueLabels: ["percent", "value", "name", "none"],
    accepts: { grain: true, breakdown: false, multipleMeasures: false, rawMeasures: true },
  },
  // Rows of the query's answer (x, then a column per series), sorted and paged by the reader:
  // no legend and no axis, so only how numbers, dates, the x column's numbers and the locale read.
  table: {
    label: "Table",
    options: ["numberFormat", "locale", "dateFormat", "xNumberFormat", "colorRules", "pageSize"],
    valueLabels: [],
    accepts: everyQuery,
  },
  // x against the first measure, a second sizing the points, a breakdown colouring them: x is
  // a position (numbers or dates), so no grain (a period's label is no position) and no Other.
  scatter: {
    label: "Scatter",
    options: [...common, "xNumberFormat"],
    valueLabels: [],
    accepts: {
      grain: false,
      breakdown: true,
      multipleMeasures: true,
      maxMeasures: 2,
      rawMeasures: true,
      rawBreakdown: true,
      xTypes: ["number", "date", "timestamp"],
    },
  },
  // Bars and lines over one x, each measure on the left value axis or a second one on the right
  // (comboSeries, by the measure's position): measures are the series, so no breakdown.
  combo: {
    label: "Combo",
    options: ["curve", "gaps", "comboSeries", ...cartesian],
    valueLabels: [],
    accepts: {
      grain: true,
      breakdown: false,
      multipleMeasures: true,
      minMeasures: 2,
      rawMeasures: true,
    },
  },
  // A day's cell coloured by its value, a column per week: x is days (a date column as it is, or
  // grouped by day), one measure; rows of one day are added up by the drawing.
  calendar: {
    label: "Calendar heatmap",
    options: ["numberFormat", "showLegend", "locale"],
    valueLabels: [],
    accepts: {
      grain: true,
      grains: ["day"],
      breakdown: false,
      multipleMeasures: false,
      rawMeasures: true,
      xTypes: ["date", "timestamp"],
    },
  },
};

/** Options set on a chart that its type does not accept, e.g. ["donut"] on a line chart. */
export function unsupportedOptions(type: ChartType, options: object): ChartOptionName[] {
  const accepted = new Set<string>(chartTypeSpecs[type].options);
  return chartOptionNames.filter(
    (name) => (options as Record<string, unknown>)[name] !== undefined && !accepted.has(name),
  );
}

/** Options that only mean something when a chart draws more than one series. */
const multiSeriesOptions: ReadonlySet<ChartOptionName> = new Set(["stack"]);
/** Options that only mean something when the index holds dates. */
const timeIndexOptions: ReadonlySet<ChartOptionName> = new Set([
  "dateFormat",
  "gaps",
  "annotations",
  "annotationSource",
]);
/** Options that only mean something when the index holds numbers. */
const numberIndexOptions: ReadonlySet<ChartOptionName> = new Set(["xNumberFormat"]);

/** How many series a chart's query draws: a breakdown or several measures make "many". */
export type SeriesShape = "one" | "many";

/** What a chart's query draws, as far as options care. */
export interface QueryShape {
  series: SeriesShape;
  /** The x column holds dates or timestamps. */
  timeIndex: boolean;
  /** The x column holds numbers. */
  numberIndex: boolean;
}

/** A bare series shape leaves the index open (date and number options stay offered). */
function shapeOf(shape: SeriesShape | QueryShape): QueryShape {
  return typeof shape === "string" ? { series: shape, timeIndex: true, numberIndex: true } : shape;
}

/** The shape of a query over a dataset's columns (an unknown x column counts as neither dates nor numbers). */
export function queryShape(
  type: ChartType,
  query: { x: { column: string }; measures: readonly unknown[]; breakdown?: unknown },
  columns: readonly { name: string; type: DatasetColumnType }[],
): QueryShape {
  const breakdown = query.breakdown !== undefined && chartTypeSpecs[type].accepts.breakdown;
  const x = columns.find((column) => column.name === query.x.column);
  return {
    series: query.measures.length > 1 || breakdown ? "many" : "one",
    timeIndex: isTimeType(x?.type),
    numberIndex: x?.type === "number",
  };
}

/** The options an editor offers (and a save keeps) for this type drawing this query's shape. */
export function offeredOptions(
  type: ChartType,
  shape: SeriesShape | QueryShape = "many",
): ChartOptionName[] {
  const { series, timeIndex, numberIndex } = shapeOf(shape);
  return chartTypeSpecs[type].options.filter(
    (name) =>
      (series === "many" || !multiSeriesOptions.has(name)) &&
      (timeIndex || !timeIndexOptions.has(name)) &&
      (numberIndex || !numberIndexOptions.has(name)),
  );
}

/**
 * Only the options a chart type offers for this shape, from any set of options (what a save
 * keeps and pages and previews draw); a value label mode the type does not draw goes too.
 */
export function acceptedOptions<Options extends object>(
  type: ChartType,
  options: Options,
  shape: SeriesShape | QueryShape = "many",
): Options {
  const accepted = new Set<string>(offeredOptions(type, shape));
  const labels: readonly string[] = chartTypeSpecs[type].valueLabels;
  return Object.fromEntries(
    Object.entries(options).filter(
      ([name, value]) =>
        accepted.has(name) && (name !== "valueLabels" || labels.includes(value as string)),
    ),
  ) as Options;
}

/** Query limits shared by validation and the editor. */
export const queryLimits = {
  maxMeasures: 8,
  maxFilters: 20,
  /** Filters of one measure's own rows ("count where"). */
  maxMeasureFilters: 5,
  maxInValues: 100,
  maxTop: 50,
  maxLimit: 10_000,
  /** Raw series points a chart gets at most (min/max downsampled above it). */
  maxPoints: 2_000,
  maxLastN: 10_000,
  maxFilterText: 200,
} as const;
