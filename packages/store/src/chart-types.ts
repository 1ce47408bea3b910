// The one table of chart types, their options and the query parts each accepts. Plain TypeScript
// (no React, no database, no validation library) so the store's validation, the admin editor and
// the renderer all import the same rules: `@seed/store/chart-types`.

export const chartTypes = ["line", "area", "bar", "pie"] as const;
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
] as const;
export type ChartOptionName = (typeof chartOptionNames)[number];

/** Time grains for date and timestamp x columns; weeks are ISO weeks starting on Monday. */
export const timeGrains = ["minute", "hour", "day", "week", "month", "quarter", "year"] as const;
export type TimeGrain = (typeof timeGrains)[number];
/** Grains that only make sense with a time of day (timestamp columns). */
export const subDayGrains: readonly TimeGrain[] = ["minute", "hour"];

/** "none" plots raw values (no grouping). */
export const queryAggregates = [
  "sum",
  "avg",
  "min",
  "max",
  "count",
  "count_distinct",
  "none",
] as const;
export type QueryAggregate = (typeof queryAggregates)[number];
/** Aggregates that need a number column; count and count_distinct take any column. */
export const numericAggregates: readonly QueryAggregate[] = ["sum", "avg", "min", "max", "none"];

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

export const relativeUnits = ["day", "week", "month", "quarter", "year"] as const;
export type RelativeUnit = (typeof relativeUnits)[number];
/** "last_n": the n units ending with the current one (today included); "this"; "previous". */
export const relativeKinds = ["last_n", "this", "previous"] as const;
export type RelativeKind = (typeof relativeKinds)[number];

export interface ChartTypeSpec {
  label: string;
  /** Options this type accepts; the store refuses any other. */
  options: readonly ChartOptionName[];
  accepts: {
    /** A time grain on the x column. */
    grain: boolean;
    /** A breakdown column splitting a measure into series. */
    breakdown: boolean;
    /** More than one measure. */
    multipleMeasures: boolean;
    /** Raw ("none") measures, one point per row. */
    rawMeasures: boolean;
  };
}

export const chartTypeSpecs: Readonly<Record<ChartType, ChartTypeSpec>> = {
  line: {
    label: "Line",
    options: ["curve", "numberFormat", "showLegend"],
    accepts: { grain: true, breakdown: true, multipleMeasures: true, rawMeasures: true },
  },
  area: {
    label: "Area",
    options: ["stack", "curve", "numberFormat", "showLegend"],
    accepts: { grain: true, breakdown: true, multipleMeasures: true, rawMeasures: true },
  },
  bar: {
    label: "Bar",
    options: ["stack", "horizontal", "numberFormat", "showLegend"],
    accepts: { grain: true, breakdown: true, multipleMeasures: true, rawMeasures: true },
  },
  pie: {
    label: "Pie",
    options: ["donut", "numberFormat", "showLegend"],
    accepts: { grain: true, breakdown: false, multipleMeasures: false, rawMeasures: true },
  },
};

/** Options set on a chart that its type does not accept, e.g. ["donut"] on a line chart. */
export function unsupportedOptions(type: ChartType, options: object): ChartOptionName[] {
  const accepted = new Set<string>(chartTypeSpecs[type].options);
  return chartOptionNames.filter(
    (name) => (options as Record<string, unknown>)[name] !== undefined && !accepted.has(name),
  );
}

/** Only the options a chart type accepts, from any set of options (what pages and previews draw). */
/** Options that only mean something when a chart draws more than one series. */
const multiSeriesOptions: ReadonlySet<ChartOptionName> = new Set(["stack"]);

/** How many series a chart's query draws: a breakdown or several measures make "many". */
export type SeriesShape = "one" | "many";

/** The options an editor offers (and a save keeps) for this type drawing this many series. */
export function offeredOptions(type: ChartType, series: SeriesShape = "many"): ChartOptionName[] {
  return chartTypeSpecs[type].options.filter(
    (name) => series === "many" || !multiSeriesOptions.has(name),
  );
}

export function acceptedOptions<Options extends object>(
  type: ChartType,
  options: Options,
  series: SeriesShape = "many",
): Options {
  const accepted = new Set<string>(offeredOptions(type, series));
  return Object.fromEntries(
    Object.entries(options).filter(([name]) => accepted.has(name)),
  ) as Options;
}

/** Query limits shared by validation and the editor. */
export const queryLimits = {
  maxMeasures: 8,
  maxFilters: 20,
  maxInValues: 100,
  maxTop: 50,
  maxLimit: 10_000,
  /** Raw series points a chart gets at most (min/max downsampled above it). */
  maxPoints: 2_000,
  maxLastN: 10_000,
  maxFilterText: 200,
} as const;
