import { z } from "zod";
import { type ChartInput, type ChartOptions, colorRuleMeasureProblems } from "./chart.js";
import {
  acceptedOptions,
  additiveAggregates,
  breakdownColumnTypes,
  type ChartLocale,
  type ChartOptionName,
  type ChartType,
  type ColorRuleCondition,
  type ComboKind,
  type CurveType,
  chartLocales,
  chartTypeSpecs,
  chartTypes,
  colorRuleConditions,
  comboAxes,
  comboMarks,
  comboSeriesOf,
  curveTypes,
  type DateFormat,
  dateFormats,
  defaultComboSeries,
  type FilterOperator,
  filterOperators,
  type GapMode,
  gapModes,
  type LegendPosition,
  legendPositions,
  type MeasureShow,
  measureShows,
  offeredOptions,
  type QueryAggregate,
  type QueryShape,
  queryAggregates,
  queryLimits,
  type RelativeAnchor,
  type RelativeKind,
  type RelativeUnit,
  relativeAnchors,
  relativeKinds,
  relativeUnits,
  type SeriesShape,
  type StackMode,
  splitsByBreakdown,
  stackModes,
  type TablePageSize,
  tablePageSizes,
  type ValueLabelMode,
  valueLabelModes,
  type XNumberFormat,
  xNumberFormats,
} from "./chart-types.js";
import { isTimeType, type TimeGrain, timeGrains } from "./column-types.js";
import { type ThresholdTone, thresholdTones } from "./dashboard/tiles.js";
import { expressionLimits } from "./expression/tree.js";
import { chartLimits } from "./limits.js";
import { type FormatStyle, formatStyles, numberFormatOfFields } from "./number-format.js";
import { type ChartQueryInput, measureLabel, type QueryFilter } from "./query/spec.js";
import type { DatasetColumnType } from "./vocabulary.js";

// The one converter between a chart and the chart editor's form: the editor's draft, its live
// preview and the save action all turn a form into a chart here, so they cannot drift apart.

/** What the form needs to know of a dataset column. */
export interface FormColumn {
  name: string;
  type: DatasetColumnType;
}

/** What an option means when a chart does not store it; pages, previews and the editor read this. */
export const chartOptionDefaults = {
  stack: "none",
  horizontal: false,
  curve: "monotone",
  donut: false,
  showLegend: true,
  legendPosition: "bottom",
  /** Share of the total under which pie slices are grouped as "Other". */
  otherThreshold: 0.03,
  locale: "en-US",
  /** Numbers on the index as the locale writes them (1,900 in en-US). */
  xNumberFormat: "auto",
  /** A line or area breaks where periods of a dated x hold no data. */
  gaps: "break",
  /** A table shows this many rows a page. */
  pageSize: tablePageSizes[0],
} as const satisfies ChartOptions;

/** A type's first value label mode is what it draws unless told otherwise. */
export function defaultValueLabels(type: ChartType): ValueLabelMode {
  return chartTypeSpecs[type].valueLabels[0] ?? "none";
}

export const sortChoices = ["x_asc", "x_desc", "value_desc", "value_asc"] as const;
export type SortChoice = (typeof sortChoices)[number];

/** One filter row as the form holds it: text where people type. */
export interface FilterForm {
  key: number;
  column: string;
  op: FilterOperator;
  value: string;
  to: string;
  unit: RelativeUnit;
  which: RelativeKind;
  n: string;
  /** What a relative range counts back from: today, or the column's newest value. */
  anchor: RelativeAnchor;
}

/**
 * One more measure as the form holds it, beside the series columns: its own aggregate, column or
 * formula, conditions and way of showing ("Count" beside "Count where status is late").
 */
export interface MeasureForm {
  key: number;
  /** The series' name; "" lets the query name it ("Count where status equals late"). */
  label: string;
  aggregate: Exclude<QueryAggregate, "none">;
  /** The measured column; "" counts rows (count only). */
  column: string;
  /** With aggregate "formula": the measure itself. */
  formula: string;
  show: MeasureShow;
  where: FilterForm[];
}

/** Events from a dataset as the form holds them: "" for no dataset (no events) or no column. */
export interface AnnotationSourceForm {
  datasetId: string;
  at: string;
  to: string;
  label: string;
}

/** A hand-typed annotation as the form holds it: days as typed, "" for no last day. */
export interface AnnotationForm {
  key: number;
  at: string;
  to: string;
  label: string;
}

/** A table's colour rule as the form holds it: the measure's position and the number as typed. */
export interface ColorRuleForm {
  key: number;
  measure: string;
  when: ColorRuleCondition;
  value: string;
  tone: ThresholdTone;
  label: string;
}

/** The chart editor's form: every field as the form holds it. */
export interface ChartForm {
  title: string;
  type: ChartType;
  datasetId: string;
  indexColumn: string;
  seriesColumns: string[];
  /** How each series column is measured; "none" draws raw values; "formula" draws `formula`. */
  aggregate: QueryAggregate;
  /** With aggregate "formula": the one measure, aggregates combined (`sum([a]) / sum([b])`). */
  formula: string;
  /** How the measured values are shown: as they are, as shares of the total, or running totals. */
  show: MeasureShow;
  /** Time grain of a date x column; "" groups by exact values. */
  grain: TimeGrain | "";
  /** Column that splits the measure into series; "" for none. */
  breakdown: string;
  top: string;
  filters: FilterForm[];
  /** The rows each series column's measure counts: only those that pass every condition. */
  measureWhere: FilterForm[];
  /** Measures after the series columns', each with its own aggregate and conditions. */
  moreMeasures: MeasureForm[];
  sort: SortChoice;
  /** With an order by value: the index (as text) of the series column that orders the groups. */
  sortMeasure: string;
  limit: string;
  /** With a limit on a category x: the groups past it measured together as "Other". */
  other: boolean;
  stack: StackMode;
  horizontal: boolean;
  curve: CurveType;
  donut: boolean;
  legend: LegendPosition | "hidden";
  valueLabels: ValueLabelMode;
  /** Slices under this share (percent of the total) become "Other"; 0 keeps every slice. */
  otherPercent: string;
  locale: ChartLocale;
  dateFormat: DateFormat | "";
  /** How a number x column is written: "plain" drops grouping (years read 1900). */
  xNumberFormat: XNumberFormat;
  /** Across periods without data: a gap, or a line straight across. */
  gaps: GapMode;
  formatStyle: FormatStyle;
  formatCurrency: string;
  formatMaxDigits: string;
  /** Markers and bands on a time axis, in the order typed. */
  annotations: AnnotationForm[];
  /** Events read from a dataset, drawn like the typed annotations. */
  annotationSource: AnnotationSourceForm;
  /** A table's conditional colours, in the order typed (the first a value meets applies). */
  colorRules: ColorRuleForm[];
  /** A table's rows per page, as its select holds it ("25"). */
  pageSize: `${TablePageSize}`;
  /** A combo's bars or line and axis per measure, by position (missing ones: defaultComboSeries). */
  comboSeries: ComboKind[];
}

const shortText = z.string().max(200);
const columnText = z.string().max(64);

const filterRow = z.object({
  key: z.number().int(),
  column: columnText,
  op: z.enum(filterOperators),
  value: z.string().max(queryLimits.maxFilterText * queryLimits.maxInValues),
  to: z.string().max(queryLimits.maxFilterText),
  unit: z.enum(relativeUnits),
  which: z.enum(relativeKinds),
  anchor: z.enum(relativeAnchors),
  n: shortText,
});

const annotationRow = z.object({
  key: z.number().int(),
  at: shortText,
  to: shortText,
  label: z.string().max(chartLimits.maxAnnotationLabel * 2),
});

const colorRuleRow = z.object({
  key: z.number().int(),
  measure: shortText,
  when: z.enum(colorRuleConditions),
  value: shortText,
  tone: z.enum(thresholdTones),
  label: z.string().max(chartLimits.maxColorRuleLabel * 2),
});

const measureRow = z.object({
  key: z.number().int(),
  label: z.string().max(200),
  aggregate: z.enum(queryAggregates).exclude(["none"]),
  column: columnText,
  formula: z.string().max(expressionLimits.maxLength * 2),
  show: z.enum(measureShows),
  where: z.array(filterRow).max(queryLimits.maxMeasureFilters * 2),
});

/** The form as the save action receives it (JSON); bounded everywhere, checked again by the store. */
export const chartFormSchema = z.object({
  title: z.string().max(1_000),
  type: z.enum(chartTypes),
  datasetId: shortText,
  indexColumn: columnText,
  seriesColumns: z.array(columnText).max(100),
  aggregate: z.enum(queryAggregates),
  formula: z.string().max(expressionLimits.maxLength * 2),
  show: z.enum(measureShows),
  grain: z.enum(["", ...timeGrains]),
  breakdown: columnText,
  top: shortText,
  filters: z.array(filterRow).max(queryLimits.maxFilters * 2),
  measureWhere: z.array(filterRow).max(queryLimits.maxMeasureFilters * 2),
  moreMeasures: z.array(measureRow).max(queryLimits.maxMeasures * 2),
  sort: z.enum(sortChoices),
  sortMeasure: shortText,
  limit: shortText,
  other: z.boolean(),
  stack: z.enum(stackModes),
  horizontal: z.boolean(),
  curve: z.enum(curveTypes),
  donut: z.boolean(),
  legend: z.enum([...legendPositions, "hidden"]),
  valueLabels: z.enum(valueLabelModes),
  otherPercent: shortText,
  locale: z.enum(chartLocales),
  dateFormat: z.enum(["", ...dateFormats]),
  xNumberFormat: z.enum(xNumberFormats),
  gaps: z.enum(gapModes),
  formatStyle: z.enum(formatStyles),
  formatCurrency: shortText,
  formatMaxDigits: shortText,
  annotations: z.array(annotationRow).max(chartLimits.maxAnnotations * 2),
  annotationSource: z.object({
    datasetId: shortText,
    at: columnText,
    to: columnText,
    label: columnText,
  }),
  colorRules: z.array(colorRuleRow).max(chartLimits.maxColorRules * 2),
  pageSize: z.enum(tablePageSizes.map(String) as [`${TablePageSize}`, ...`${TablePageSize}`[]]),
  // as many as the form's measures may be: past the query's limit the store names the measures
  comboSeries: z
    .array(z.object({ type: z.enum(comboMarks), axis: z.enum(comboAxes) }))
    .max(queryLimits.maxMeasures * 2),
}) satisfies z.ZodType<ChartForm>;

/** The stored chart a form edits (what the store gives back). */
export interface FormChart {
  title: string;
  type: ChartType;
  datasetId: string;
  query: ChartQueryInput;
  options: ChartOptions;
}

/** A new filter row: a relative range on the first date column, else equals on the first column. */
export function newFilterForm(key: number, columns: readonly FormColumn[]): FilterForm {
  const dateColumn = columns.find((column) => isTimeType(column.type));
  const column = dateColumn ?? columns[0];
  return {
    key,
    column: column?.name ?? "",
    op: dateColumn ? "relative" : "eq",
    value: "",
    to: "",
    unit: "month",
    which: "last_n",
    n: "12",
    anchor: "today",
  };
}

/** A stored filter as an editable row. */
export function filterFormOf(filter: QueryFilter, key: number): FilterForm {
  const base: FilterForm = {
    key,
    column: filter.column,
    op: filter.op,
    value: "",
    to: "",
    unit: "month",
    which: "last_n",
    n: "12",
    anchor: "today",
  };
  switch (filter.op) {
    case "relative":
      return {
        ...base,
        unit: filter.unit,
        which: filter.which,
        n: String(filter.n ?? 1),
        anchor: filter.anchor ?? "today",
      };
    case "in":
      return { ...base, value: filter.values.join(", ") };
    case "between":
      return { ...base, value: String(filter.from), to: String(filter.to) };
    case "empty":
    case "not_empty":
      return base;
    default:
      return { ...base, value: String(filter.value) };
  }
}

/** A filter row as a query filter; values are typed by the column (the store checks them again). */
export function filterOfForm(row: FilterForm, columns: readonly FormColumn[]): QueryFilter {
  const type = columns.find((column) => column.name === row.column)?.type;
  const typed = (text: string): string | number =>
    type === "number" && text.trim() !== "" && Number.isFinite(Number(text))
      ? Number(text)
      : text.trim();
  switch (row.op) {
    case "empty":
    case "not_empty":
      return { column: row.column, op: row.op };
    case "relative":
      return {
        column: row.column,
        op: "relative",
        unit: row.unit,
        which: row.which,
        ...(row.which === "last_n" ? { n: Number(row.n) || 1 } : {}),
        ...(row.anchor === "latest" ? { anchor: "latest" } : {}),
      };
    case "in":
      return {
        column: row.column,
        op: "in",
        values: row.value
          .split(",")
          .map((part) => typed(part))
          .filter((value) => value !== "")
          .slice(0, queryLimits.maxInValues),
      };
    case "between":
      return { column: row.column, op: "between", from: typed(row.value), to: typed(row.to) };
    default:
      return { column: row.column, op: row.op, value: typed(row.value) };
  }
}

/**
 * How an aggregate's values may be shown: shares and running totals add values up (sums and
 * counts only); a change from before compares any aggregate; raw values are shown as they are.
 */
export function showsFor(aggregate: QueryAggregate): readonly MeasureShow[] {
  if (aggregate === "none") return ["value"];
  return measureShows.filter(
    (show) =>
      additiveAggregates.includes(aggregate) ||
      show === "value" ||
      show === "change_from_previous" ||
      show === "change_from_year_before",
  );
}

type MeasureInput = ChartQueryInput["measures"][number];

/** A new measure row: a count of rows, named by the query. */
export function newMeasureForm(key: number): MeasureForm {
  return {
    key,
    label: "",
    aggregate: "count",
    column: "",
    formula: "",
    show: "value",
    where: [],
  };
}

/** A stored measure as an editable row (raw values have no row: they are series columns). */
export function measureFormOf(measure: MeasureInput, key: number): MeasureForm {
  return {
    key,
    label: measure.label ?? "",
    aggregate: measure.aggregate === "none" ? "sum" : measure.aggregate,
    column: measure.column ?? "",
    formula: measure.formula ?? "",
    show: measure.show ?? "value",
    where: (measure.where ?? []).map((filter, index) => filterFormOf(filter, index)),
  };
}

/** A measure row as a query measure (the store checks it again and names its problems). */
export function measureOfForm(row: MeasureForm, columns: readonly FormColumn[]): MeasureInput {
  const label = row.label.trim();
  return {
    column: row.aggregate === "formula" || row.column === "" ? null : row.column,
    aggregate: row.aggregate,
    ...(label ? { label } : {}),
    ...(row.aggregate === "formula" ? { formula: row.formula } : {}),
    ...(row.where.length > 0
      ? { where: row.where.map((filter) => filterOfForm(filter, columns)) }
      : {}),
    ...(row.show !== "value" ? { show: row.show } : {}),
  };
}

/**
 * How many leading measures the series columns stand for: those combined the same way as the
 * first (aggregate, conditions, showing), each over a column and unnamed; a formula stands alone.
 * Every other measure is a row of its own, so any stored chart comes back as it was.
 */
function seriesMeasureCount(measures: readonly MeasureInput[]): number {
  const first = measures[0];
  if (!first) return 0;
  // Raw values are series columns only (they do not mix with aggregates).
  if (first.aggregate === "none") return measures.length;
  if (first.label || (first.aggregate !== "formula" && !first.column)) return 0;
  if (first.aggregate === "formula") return 1;
  const way = (measure: MeasureInput) =>
    JSON.stringify([measure.aggregate, measure.show ?? "value", measure.where ?? []]);
  let count = 1;
  while (
    count < measures.length &&
    measures[count]?.column &&
    !measures[count]?.label &&
    way(measures[count] as MeasureInput) === way(first)
  ) {
    count += 1;
  }
  return count;
}

/** The x column a new chart starts from (a date, else text, else the first) and one number series. */
export function defaultFormColumns(columns: readonly FormColumn[]): {
  indexColumn: string;
  seriesColumns: string[];
} {
  const index =
    columns.find((column) => column.type === "date") ??
    columns.find((column) => column.type === "string") ??
    columns[0];
  const firstNumber = columns.find(
    (column) => column.type === "number" && column.name !== index?.name,
  );
  return { indexColumn: index?.name ?? "", seriesColumns: firstNumber ? [firstNumber.name] : [] };
}

function percentText(share: number): string {
  return String(Math.round(share * 10_000) / 100);
}

/** The form for a stored chart, or for a new one over the given dataset. */
export function chartFormOf(
  chart: FormChart | null,
  dataset: { id: string; columns: readonly FormColumn[] } | undefined,
): ChartForm {
  const query = chart?.query;
  const options = chart?.options ?? {};
  const type = chart?.type ?? "line";
  const format = options.numberFormat;
  const sort = query?.sort;
  const seriesCount = seriesMeasureCount(query?.measures ?? []);
  const seriesMeasures = query?.measures.slice(0, seriesCount) ?? [];
  const first = seriesMeasures[0];
  const columns = query
    ? {
        indexColumn: query.x.column,
        seriesColumns: seriesMeasures.flatMap((measure) =>
          measure.column ? [measure.column] : [],
        ),
      }
    : defaultFormColumns(dataset?.columns ?? []);
  // With every measure a row of its own, the series columns still combine as the first row does.
  const aggregate: QueryAggregate = first
    ? first.aggregate
    : query?.measures[0] && query.measures[0].aggregate !== "formula"
      ? query.measures[0].aggregate
      : "none";
  return {
    title: chart?.title ?? "",
    type,
    datasetId: chart?.datasetId ?? dataset?.id ?? "",
    ...columns,
    aggregate: query && !first && aggregate === "none" ? "sum" : aggregate,
    formula: first?.formula ?? "",
    show: first?.show ?? "value",
    grain: query?.x.grain ?? "",
    breakdown: query?.breakdown?.column ?? "",
    top: String(query?.breakdown?.top ?? 5),
    filters: (query?.filters ?? []).map((filter, index) => filterFormOf(filter, index)),
    measureWhere: (first?.where ?? []).map((filter, index) => filterFormOf(filter, index)),
    moreMeasures: (query?.measures.slice(seriesCount) ?? []).map((measure, index) =>
      measureFormOf(measure, index),
    ),
    sort: (sort ? `${sort.by}_${sort.direction}` : "x_asc") as SortChoice,
    sortMeasure: String(sort?.measure ?? 0),
    limit: query?.limit === undefined ? "" : String(query.limit),
    other: query?.other === true,
    stack: options.stack ?? chartOptionDefaults.stack,
    horizontal: options.horizontal ?? chartOptionDefaults.horizontal,
    curve: options.curve ?? chartOptionDefaults.curve,
    donut: options.donut ?? chartOptionDefaults.donut,
    legend:
      options.showLegend === false
        ? "hidden"
        : (options.legendPosition ?? chartOptionDefaults.legendPosition),
    valueLabels: options.valueLabels ?? defaultValueLabels(type),
    otherPercent: percentText(options.otherThreshold ?? chartOptionDefaults.otherThreshold),
    locale: options.locale ?? chartOptionDefaults.locale,
    dateFormat: options.dateFormat ?? "",
    xNumberFormat: options.xNumberFormat ?? chartOptionDefaults.xNumberFormat,
    gaps: options.gaps ?? chartOptionDefaults.gaps,
    pageSize: `${options.pageSize ?? chartOptionDefaults.pageSize}`,
    comboSeries: comboSeriesOf(options.comboSeries, options.comboSeries?.length ?? 0),
    formatStyle: format?.notation === "compact" ? "compact" : (format?.style ?? ""),
    formatCurrency: format?.currency ?? "",
    formatMaxDigits:
      format?.maximumFractionDigits === undefined ? "" : String(format.maximumFractionDigits),
    annotations: (options.annotations ?? []).map((annotation, key) => ({
      key,
      at: annotation.at,
      to: annotation.to ?? "",
      label: annotation.label,
    })),
    annotationSource: {
      datasetId: options.annotationSource?.datasetId ?? "",
      at: options.annotationSource?.at ?? "",
      to: options.annotationSource?.to ?? "",
      label: options.annotationSource?.label ?? "",
    },
    colorRules: (options.colorRules ?? []).map((rule, key) => ({
      key,
      measure: String(rule.measure),
      when: rule.when,
      value: String(rule.value),
      tone: rule.tone,
      label: rule.label ?? "",
    })),
  };
}

/** A new colour rule: the first measure's values below 0, in the bad tone. */
export function newColorRuleForm(key: number): ColorRuleForm {
  return { key, measure: "0", when: "below", value: "", tone: "bad", label: "" };
}

/** A new, empty annotation row. */
export function newAnnotationForm(key: number): AnnotationForm {
  return { key, at: "", to: "", label: "" };
}

/** One series, or several (more than one measure, or a breakdown that applies). */
function seriesShapeOf(form: ChartForm): SeriesShape {
  const breakdown =
    form.breakdown !== "" && splitsByBreakdown(form.type, form.aggregate === "none");
  const measures =
    (form.aggregate === "formula" ? 1 : form.seriesColumns.length) + form.moreMeasures.length;
  return measures > 1 || breakdown ? "many" : "one";
}

/** What the form's query draws, as the chart types table asks: series and whether x holds dates or numbers. */
export function formShape(form: ChartForm, columns: readonly FormColumn[]): QueryShape {
  const x = columns.find((column) => column.name === form.indexColumn);
  return {
    series: seriesShapeOf(form),
    timeIndex: isTimeType(x?.type),
    numberIndex: x?.type === "number",
  };
}

/**
 * Whether the form's query can group the rest into Other: an aggregated category x without a
 * breakdown (a breakdown has its own Other, its series). The editor offers the choice then only.
 */
export function groupsRest(form: ChartForm, columns: readonly FormColumn[]): boolean {
  const x = columns.find((column) => column.name === form.indexColumn);
  return (
    x !== undefined &&
    breakdownColumnTypes.includes(x.type) &&
    form.aggregate !== "none" &&
    form.breakdown === ""
  );
}

/** Which measure orders the groups by value: named only when it is not the first. */
function sortMeasureOf(form: ChartForm, count: number): { measure?: number } {
  const measure = Number(form.sortMeasure);
  return form.sort.startsWith("value") &&
    Number.isInteger(measure) &&
    measure > 0 &&
    measure < count
    ? { measure }
    : {};
}

/**
 * Whether the series columns stand for one measure only: on a type that draws one (a pie, a
 * calendar), or the one a breakdown splits (where the type takes a breakdown: a combo keeps one
 * in the form for a type that does).
 */
export function drawsOneMeasure(form: Pick<ChartForm, "type" | "breakdown">): boolean {
  return !chartTypeSpecs[form.type].accepts.multipleMeasures || formSplits(form);
}

/** Whether the form splits a measure into series: a breakdown chosen, on a type that takes one. */
export function formSplits(form: Pick<ChartForm, "type" | "breakdown">): boolean {
  return form.breakdown !== "" && chartTypeSpecs[form.type].accepts.breakdown;
}

/** The series columns' measures: one per column (one for a pie or a split), or the formula. */
function seriesOf(form: ChartForm): (string | null)[] {
  if (form.aggregate === "formula") return [null];
  const single = drawsOneMeasure(form);
  return single ? form.seriesColumns.slice(0, 1) : form.seriesColumns;
}

/** How many measures the series columns (or the formula) stand for; further measures follow. */
export function formSeriesCount(form: ChartForm): number {
  return seriesOf(form).length;
}

/** Every measure the form draws, in order, named as their series will be. */
export function formMeasureNames(form: ChartForm, columns: readonly FormColumn[]): string[] {
  return formQuery(form, columns).measures.map((measure) => measureLabel(measure));
}

/** The query the form stands for (what the preview runs and the chart saves). */
export function formQuery(form: ChartForm, columns: readonly FormColumn[]): ChartQueryInput {
  // A formula is the one measure of the series columns; it names its columns itself.
  const series = seriesOf(form);
  const { accepts } = chartTypeSpecs[form.type];
  const more = form.moreMeasures.map((row) => measureOfForm(row, columns));
  const [by, direction] = form.sort.split("_") as ["x" | "value", "asc" | "desc"];
  const limit = Number(form.limit);
  // Conditions pick the rows an aggregate combines; raw values have none to pick.
  const where =
    form.aggregate !== "none" && form.measureWhere.length > 0
      ? { where: form.measureWhere.map((filter) => filterOfForm(filter, columns)) }
      : {};
  return {
    // A grain or breakdown the type takes none of is kept in the form (back to a line, there
    // it is) but not asked for: the editor hides its field, so no refusal could show there.
    x: { column: form.indexColumn, ...(form.grain && accepts.grain ? { grain: form.grain } : {}) },
    measures: [
      ...series.map((column) => ({
        column,
        aggregate: form.aggregate,
        ...(form.aggregate === "formula" ? { formula: form.formula } : {}),
        ...where,
        // A way of showing only where it fits the aggregate; the editor offers it then only.
        ...(form.show !== "value" && showsFor(form.aggregate).includes(form.show)
          ? { show: form.show }
          : {}),
      })),
      ...more,
    ],
    ...(form.breakdown && splitsByBreakdown(form.type, form.aggregate === "none")
      ? { breakdown: { column: form.breakdown, top: Number(form.top) || 5 } }
      : {}),
    filters: form.filters.map((filter) => filterOfForm(filter, columns)),
    ...(form.sort !== "x_asc"
      ? { sort: { by, direction, ...sortMeasureOf(form, series.length + more.length) } }
      : {}),
    ...(form.limit.trim() !== "" && Number.isFinite(limit) ? { limit } : {}),
    ...(form.other && groupsRest(form, columns) ? { other: true } : {}),
  };
}

/**
 * The options the form stands for: only those the type offers for this query's shape, and none
 * that merely restate a default (so a stored chart follows the defaults if they ever change).
 */
function formOptions(
  form: ChartForm,
  columns: readonly FormColumn[],
  fieldErrors: Record<string, string[]>,
): ChartOptions {
  const options: ChartOptions = {};
  if (form.stack !== chartOptionDefaults.stack) options.stack = form.stack;
  if (form.horizontal) options.horizontal = true;
  if (form.curve !== chartOptionDefaults.curve) options.curve = form.curve;
  if (form.donut) options.donut = true;
  if (form.legend === "hidden") options.showLegend = false;
  else if (form.legend !== chartOptionDefaults.legendPosition) options.legendPosition = form.legend;
  if (form.valueLabels !== defaultValueLabels(form.type)) options.valueLabels = form.valueLabels;
  const otherText = form.otherPercent.trim();
  if (otherText !== "" && otherText !== percentText(chartOptionDefaults.otherThreshold)) {
    const percent = Number(otherText);
    // Rounded so "40.24" is stored as 0.4024, not 0.40240000000000004.
    if (Number.isFinite(percent)) options.otherThreshold = Math.round(percent * 1e6) / 1e8;
    else fieldErrors.otherThreshold = ["Enter a percentage such as 3, or 0 to keep every slice."];
  }
  if (form.locale !== chartOptionDefaults.locale) options.locale = form.locale;
  if (form.dateFormat) options.dateFormat = form.dateFormat;
  if (form.xNumberFormat !== chartOptionDefaults.xNumberFormat) {
    options.xNumberFormat = form.xNumberFormat;
  }
  if (form.gaps !== chartOptionDefaults.gaps) options.gaps = form.gaps;
  const pageSize = tablePageSizes.find((size) => `${size}` === form.pageSize);
  if (pageSize !== undefined && pageSize !== chartOptionDefaults.pageSize) {
    options.pageSize = pageSize;
  }
  if (form.type === "combo") {
    const combo = comboSeriesOf(form.comboSeries, formQuery(form, columns).measures.length);
    // Said only when some measure is drawn otherwise than unsaid (a stored chart then follows the defaults).
    if (combo.some((entry, position) => !sameCombo(entry, defaultComboSeries(position)))) {
      options.comboSeries = combo;
    }
  }
  // As typed (trimmed): the store checks the days and texts and names the row of any problem.
  if (form.annotations.length > 0) {
    options.annotations = form.annotations.map((row) => ({
      at: row.at.trim(),
      ...(row.to.trim() ? { to: row.to.trim() } : {}),
      label: row.label.trim(),
    }));
  }
  // A dataset chosen is a source; its columns the store checks against that dataset.
  const source = form.annotationSource;
  if (source.datasetId.trim()) {
    options.annotationSource = {
      datasetId: source.datasetId.trim(),
      at: source.at.trim(),
      ...(source.to.trim() ? { to: source.to.trim() } : {}),
      label: source.label.trim(),
    };
  }
  // The number must read as one; anything else the store checks and names at its row. Rules
  // kept while the chart is no table are not saved, so not checked either.
  const shape = formShape(form, columns);
  if (form.colorRules.length > 0 && offeredOptions(form.type, shape).includes("colorRules")) {
    options.colorRules = form.colorRules.map((row, index) => {
      const value = Number(row.value.trim());
      if (row.value.trim() === "" || !Number.isFinite(value)) {
        fieldErrors[`colorRules.${index}.value`] = ["Enter the rule's number, e.g. 0 or 1500."];
      }
      const label = row.label.trim();
      return {
        measure: Number(row.measure),
        when: row.when,
        value,
        tone: row.tone,
        ...(label ? { label } : {}),
      };
    });
    // Said with the numbers' problems, not one round later.
    const measures = formQuery(form, columns).measures.length;
    for (const { index, message } of colorRuleMeasureProblems(options.colorRules, measures)) {
      fieldErrors[`colorRules.${index}.measure`] = [message];
    }
  }
  const numberFormat = numberFormatOfFields(form, fieldErrors);
  if (numberFormat) options.numberFormat = numberFormat;
  return acceptedOptions(form.type, options, shape);
}

function sameCombo(a: ComboKind, b: ComboKind): boolean {
  return a.type === b.type && a.axis === b.axis;
}

/** The chart a form stands for, with the problems only the form can see (the store checks the rest). */
export function chartOfForm(
  form: ChartForm,
  columns: readonly FormColumn[],
): { chart: ChartInput; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {};
  const chart: ChartInput = {
    title: form.title,
    type: form.type,
    datasetId: form.datasetId,
    query: formQuery(form, columns),
    options: formOptions(form, columns, fieldErrors),
  };
  return { chart, fieldErrors };
}

/** The form fields that hold each option. */
const optionFields: Readonly<Record<ChartOptionName, readonly (keyof ChartForm)[]>> = {
  stack: ["stack"],
  horizontal: ["horizontal"],
  curve: ["curve"],
  donut: ["donut"],
  numberFormat: ["formatStyle", "formatCurrency", "formatMaxDigits"],
  showLegend: ["legend"],
  legendPosition: ["legend"],
  valueLabels: ["valueLabels"],
  otherThreshold: ["otherPercent"],
  locale: ["locale"],
  dateFormat: ["dateFormat"],
  xNumberFormat: ["xNumberFormat"],
  gaps: ["gaps"],
  annotations: ["annotations"],
  annotationSource: ["annotationSource"],
  colorRules: ["colorRules"],
  pageSize: ["pageSize"],
  comboSeries: ["comboSeries"],
};

/** The form with these options back at their defaults (the fields of a chart that sets none). */
export function withDefaultOptions(form: ChartForm, names: Iterable<ChartOptionName>): ChartForm {
  const blank = chartFormOf(
    { ...form, query: { x: { column: "" }, measures: [] }, options: {} },
    undefined,
  );
  const next: Record<string, unknown> = { ...form };
  for (const name of names) {
    for (const field of optionFields[name]) {
      // a value already at its default (an empty list, a blank source) stays the same value: a
      // form with nothing to reset is the same form
      if (JSON.stringify(next[field]) !== JSON.stringify(blank[field])) next[field] = blank[field];
    }
  }
  return next as unknown as ChartForm;
}

/** A stored chart's options with every default filled in: what pages and previews draw. */
export function optionsWithDefaults(type: ChartType, options: ChartOptions) {
  return {
    ...chartOptionDefaults,
    valueLabels: defaultValueLabels(type),
    ...options,
  };
}
