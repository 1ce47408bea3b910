import {
  type ChartForm,
  type ChartOptionName,
  type ChartOptions,
  type ChartType,
  chartAnnotationSchema,
  chartColorRuleSchema,
  chartLimits,
  chartOfForm,
  chartOptionNames,
  chartOptionsSchema,
  chartTypeSpecs,
  defaultFormColumns,
  defaultValueLabels,
  drawsOneMeasure,
  type FormColumn,
  formSeriesCount,
  formShape,
  isTimeType,
  type MeasureForm,
  numericAggregates,
  offeredOptions,
  showsFor,
  type TimeGrain,
  tooFewMeasures,
  withDefaultOptions,
} from "@seed/model";
import { drawnOptions, queryNames } from "@/components/chart-view";

// The chart editor's pure draft model: how the form changes when a person picks a type, a
// dataset or columns. The form (chart-editor.tsx) only renders a draft and calls these.

export interface DatasetChoice {
  id: string;
  name: string;
  columns: FormColumn[];
}

/** What the preview draws of a draft (never its query or dataset). */
export interface PreviewView {
  id: string;
  title: string;
  type: ChartType;
  options: ChartOptions;
  /** The time grain of the x column, when it has one (periods without data are drawn empty). */
  grain?: TimeGrain;
  /** A scatter split by a breakdown: the measure and the column that colours it (ChartView's). */
  colorSplit?: { measure: string; column: string };
}

/**
 * Options typed row by row (annotations, colour rules): kept while not offered (the save leaves
 * them out, the options section says so), so moving x off a date column or trying another type
 * for a moment loses nothing.
 */
export const typedByHand: ReadonlySet<ChartOptionName> = new Set(["annotations", "colorRules"]);

/**
 * After a change of type or columns: every option the chart types table no longer offers for
 * this query goes back to its default, so it neither shows in the preview nor returns later.
 */
export function withoutStaleOptions(draft: ChartForm, columns: readonly FormColumn[]): ChartForm {
  const offered = new Set(offeredOptions(draft.type, formShape(draft, columns)));
  let next = withDefaultOptions(
    draft,
    chartOptionNames.filter((name) => !offered.has(name) && !typedByHand.has(name)),
  );
  if (!chartTypeSpecs[draft.type].valueLabels.includes(next.valueLabels)) {
    next = { ...next, valueLabels: defaultValueLabels(draft.type) };
  }
  // Same values, same object: nothing re-renders or re-runs for a change that reset nothing.
  const same = (Object.keys(next) as (keyof ChartForm)[]).every((key) => next[key] === draft[key]);
  return same ? draft : next;
}

/**
 * A new type keeps the columns it can draw; labels left at the old type's default take the new
 * one's. Turning into a pie, the draft becomes what a person draws as one: slices named by a text
 * column rather than by dates, and each slice the sum of its rows rather than raw values.
 */
export function withType(
  draft: ChartForm,
  type: ChartType,
  columns: readonly FormColumn[] = [],
): ChartForm {
  // one measure where the new type draws one (a pie, a calendar, or a split the new type takes)
  const most = drawsOneMeasure({ type, breakdown: draft.breakdown })
    ? 1
    : chartTypeSpecs[type].accepts.maxMeasures;
  const next: ChartForm = {
    ...draft,
    type,
    seriesColumns: most === undefined ? draft.seriesColumns : draft.seriesColumns.slice(0, most),
    valueLabels:
      draft.valueLabels === defaultValueLabels(draft.type)
        ? defaultValueLabels(type)
        : draft.valueLabels,
  };
  if (type === "scatter" && draft.type !== "scatter") return asScatter(next, columns);
  if (type === "calendar" && draft.type !== "calendar") return asCalendar(next, columns);
  if (type !== "pie" || draft.type === "pie") return next;
  const index = columns.find((column) => column.name === draft.indexColumn);
  const names = columns.find((column) => column.type === "string");
  const sliced = isTimeType(index?.type) && names ? withIndexColumn(next, names.name) : next;
  return sliced.aggregate === "none" ? { ...sliced, aggregate: "sum" } : sliced;
}

/**
 * Turning into a scatter, x becomes a position: a category x (a scatter plots numbers or dates)
 * gives way to the first number or date column that is not drawn on y.
 */
function asScatter(draft: ChartForm, columns: readonly FormColumn[]): ChartForm {
  const xTypes = chartTypeSpecs.scatter.accepts.xTypes ?? [];
  const index = columns.find((column) => column.name === draft.indexColumn);
  if (index === undefined || xTypes.includes(index.type)) return draft;
  const position = columns.find(
    (column) => xTypes.includes(column.type) && !draft.seriesColumns.includes(column.name),
  );
  return position ? withIndexColumn(draft, position.name) : draft;
}

/**
 * Turning into a calendar heatmap, x becomes days: a column that holds no dates gives way to the
 * first date or timestamp column, and dates grouped by any other grain are grouped by day.
 */
function asCalendar(draft: ChartForm, columns: readonly FormColumn[]): ChartForm {
  const { xTypes = [], grains = [] } = chartTypeSpecs.calendar.accepts;
  const index = columns.find((column) => column.name === draft.indexColumn);
  const dated =
    index && xTypes.includes(index.type)
      ? draft
      : (() => {
          const day = columns.find(
            (column) => xTypes.includes(column.type) && !draft.seriesColumns.includes(column.name),
          );
          return day ? withIndexColumn(draft, day.name) : draft;
        })();
  const grain = dated.grain;
  return grain === "" || grains.includes(grain) ? dated : { ...dated, grain: "day" };
}

/** Another dataset starts from its own default columns. */
export function withDataset(draft: ChartForm, dataset: DatasetChoice | undefined): ChartForm {
  return {
    ...draft,
    datasetId: dataset?.id ?? "",
    ...defaultFormColumns(dataset?.columns ?? []),
  };
}

/** The index column can never also be a series. */
export function withIndexColumn(draft: ChartForm, indexColumn: string): ChartForm {
  return {
    ...draft,
    indexColumn,
    seriesColumns: draft.seriesColumns.filter((series) => series !== indexColumn),
  };
}

/** A pie or a breakdown draws one series: choosing one replaces the other. */
export function withSeries(draft: ChartForm, name: string, checked: boolean): ChartForm {
  const single = drawsOneMeasure(draft);
  const others = draft.seriesColumns.filter((series) => series !== name);
  // A scatter draws y and a size: a third choice replaces the size, y stays.
  const most = chartTypeSpecs[draft.type].accepts.maxMeasures;
  const kept = most !== undefined && checked ? others.slice(0, most - 1) : others;
  return {
    ...draft,
    seriesColumns: single ? [name] : checked ? [...kept, name] : others,
  };
}

/** A breakdown splits one measure, so it keeps only the first series. */
export function withBreakdown(draft: ChartForm, breakdown: string): ChartForm {
  return {
    ...draft,
    breakdown,
    seriesColumns: breakdown ? draft.seriesColumns.slice(0, 1) : draft.seriesColumns,
  };
}

/** A formula that draws what `column` drew (its sum), or a count of rows without one. */
export function startingFormula(column: string | undefined): string {
  return column ? `sum([${column.replaceAll("]", "]]")}])` : "count()";
}

/**
 * How rows are combined. Choosing a formula starts it from what was drawn (the sum of the first
 * series column, or a count of rows), so a person edits a working formula instead of a blank. A
 * way of showing the new aggregate cannot give goes back to the values.
 */
export function withAggregate(draft: ChartForm, aggregate: ChartForm["aggregate"]): ChartForm {
  const show = showsFor(aggregate).includes(draft.show) ? draft.show : "value";
  if (aggregate !== "formula" || draft.formula.trim() !== "") return { ...draft, aggregate, show };
  return { ...draft, aggregate, show, formula: startingFormula(draft.seriesColumns[0]) };
}

/**
 * A further measure's row changed the same way: its show fits, a formula starts working, and an
 * aggregate of numbers measures a number column (the first) rather than rows or text.
 */
export function withMeasureAggregate(
  row: MeasureForm,
  aggregate: MeasureForm["aggregate"],
  columns: readonly FormColumn[],
): MeasureForm {
  const show = showsFor(aggregate).includes(row.show) ? row.show : "value";
  const formula =
    aggregate === "formula" && row.formula.trim() === ""
      ? startingFormula(row.column || undefined)
      : row.formula;
  const current = columns.find((column) => column.name === row.column);
  const column =
    numericAggregates.includes(aggregate) && current?.type !== "number"
      ? (columns.find((candidate) => candidate.type === "number")?.name ?? row.column)
      : row.column;
  return { ...row, aggregate, show, formula, column };
}

/**
 * A further measure removed: an order by value keeps following the measure it named (one place
 * earlier when that came after), or goes back to the first when it was the one removed.
 */
export function withoutMeasure(draft: ChartForm, key: number): ChartForm {
  const at = draft.moreMeasures.findIndex((row) => row.key === key);
  if (at < 0) return draft;
  const removed = formSeriesCount(draft) + at;
  const sortMeasure = Number(draft.sortMeasure);
  return {
    ...draft,
    moreMeasures: draft.moreMeasures.filter((row) => row.key !== key),
    sortMeasure:
      sortMeasure === removed
        ? "0"
        : sortMeasure > removed
          ? String(sortMeasure - 1)
          : draft.sortMeasure,
  };
}

/** Why the preview cannot run yet, or null when it can. */
export function previewBlocker(draft: ChartForm): string | null {
  if (draft.indexColumn === "") return "Choose an index column to see the preview.";
  if (draft.aggregate === "formula") {
    return draft.formula.trim() === "" ? "Write a formula to see the preview." : null;
  }
  if (draft.seriesColumns.length === 0 && draft.moreMeasures.length === 0) {
    return "Choose a series column to see the preview.";
  }
  // what the type needs beside the query's own rules, said before the save refuses it
  return tooFewMeasures(draft.type, formSeriesCount(draft) + draft.moreMeasures.length);
}

/**
 * What the preview draws: the chart the form stands for (the converter the save action uses),
 * less any option the store would refuse, so a half-typed value never breaks the drawing.
 */
export function previewView(draft: ChartForm, columns: readonly FormColumn[]): PreviewView {
  const { chart } = chartOfForm(draft, columns);
  const options = drawnOptions(
    { type: draft.type, query: { other: chart.query?.other } },
    chart.options ?? {},
  );
  const checked = chartOptionsSchema.safeParse(options);
  const refused = new Set(
    checked.success ? [] : checked.error.issues.map((issue) => issue.path[0]),
  );
  const drawable = Object.fromEntries(
    Object.entries(options ?? {}).filter(([name]) => !refused.has(name)),
  ) as ChartOptions;
  // A half-typed annotation hides itself only: the rest are drawn as they will be saved.
  if (refused.has("annotations") && Array.isArray(options.annotations)) {
    const good = options.annotations.flatMap((annotation) => {
      const parsed = chartAnnotationSchema.safeParse(annotation);
      return parsed.success ? [parsed.data] : [];
    });
    if (good.length > 0) drawable.annotations = good.slice(0, chartLimits.maxAnnotations);
  }
  // Likewise a half-typed colour rule: the table is toned by the finished ones.
  if (refused.has("colorRules") && Array.isArray(options.colorRules)) {
    const good = options.colorRules.flatMap((rule) => {
      const parsed = chartColorRuleSchema.safeParse(rule);
      return parsed.success ? [parsed.data] : [];
    });
    if (good.length > 0) drawable.colorRules = good.slice(0, chartLimits.maxColorRules);
  }
  if (drawable.numberFormat) {
    try {
      new Intl.NumberFormat("en-US", drawable.numberFormat);
    } catch {
      delete drawable.numberFormat;
    }
  }
  return {
    id: "preview",
    title: draft.title.trim() || "Untitled chart",
    type: draft.type,
    options: drawable,
    ...(chart.query?.x.grain ? { grain: chart.query.x.grain } : {}),
    ...queryNames(draft.type, chart.query),
  };
}
