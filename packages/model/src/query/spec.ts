import { z } from "zod";
import {
  additiveAggregates,
  breakdownColumnTypes,
  type ChartType,
  chartTypeSpecs,
  filterOperators,
  filterOperatorsByType,
  measureShows,
  numericAggregates,
  queryAggregates,
  queryLimits,
  relativeAnchors,
  relativeKinds,
  relativeUnits,
  splitsByBreakdown,
} from "../chart-types.js";
import { columnTypeSpecs, isTimeType, timeGrains } from "../column-types.js";
import { parseExpression } from "../expression/check.js";
import { expressionLimits } from "../expression/tree.js";
import type { DatasetColumnType } from "../vocabulary.js";

// A chart's query: what to group by, what to measure, how to filter. Stored as JSON with the chart,
// parsed with chartQuerySchema, then checked against the dataset's columns with checkQuery.

const columnName = z
  .string({ error: "Choose a column." })
  .trim()
  .min(1, "Choose a column.")
  .max(64, "Column names are at most 64 characters.");

const filterValue = z.union(
  [
    z.string().max(queryLimits.maxFilterText, `At most ${queryLimits.maxFilterText} characters.`),
    z.number().refine(Number.isFinite, "Enter a finite number."),
    z.boolean(),
  ],
  { error: "Enter a value." },
);

const comparison = z.object({
  column: columnName,
  op: z.enum(["eq", "neq", "lt", "lte", "gt", "gte"]),
  value: filterValue,
});
const inList = z.object({
  column: columnName,
  op: z.literal("in"),
  values: z
    .array(filterValue)
    .min(1, "Give at least one value.")
    .max(queryLimits.maxInValues, `At most ${queryLimits.maxInValues} values.`),
});
const between = z.object({
  column: columnName,
  op: z.literal("between"),
  from: filterValue,
  to: filterValue,
});
const emptiness = z.object({ column: columnName, op: z.enum(["empty", "not_empty"]) });
const relative = z.object({
  column: columnName,
  op: z.literal("relative"),
  unit: z.enum(relativeUnits, { error: "Choose day, week, month, quarter or year." }),
  which: z.enum(relativeKinds, { error: "Choose last, this or previous." }),
  n: z
    .number()
    .int("Enter a whole number.")
    .min(1, "Enter at least 1.")
    .max(queryLimits.maxLastN, `At most ${queryLimits.maxLastN}.`)
    .optional(),
  /** Periods back: 1 is the period just before (what a previous-period comparison reads). */
  shift: z.number().int().min(0).max(1_000).optional(),
  /** The same range this many years before (a stat tile's year-over-year comparison). */
  yearsBack: z.number().int().min(0).max(100).optional(),
  /** Counted back from today (the default) or from the column's newest value. */
  anchor: z
    .enum(relativeAnchors, { error: "Count back from today or the newest value." })
    .optional(),
});

export const queryFilterSchema = z.discriminatedUnion(
  "op",
  [comparison, inList, between, emptiness, relative],
  { error: `Choose an operator: ${filterOperators.join(", ")}.` },
);
export type QueryFilter = z.infer<typeof queryFilterSchema>;

export const queryMeasureSchema = z.object({
  column: columnName.nullable().default(null),
  aggregate: z.enum(queryAggregates, { error: "Choose an aggregate." }),
  label: z.string().trim().max(80, "Labels are at most 80 characters.").optional(),
  /**
   * With aggregate "formula": numbers of aggregates over the rows of each group, written in the
   * expression language, e.g. `sum([revenue]) / sum([orders])` (an average price per order).
   */
  formula: z
    .string()
    .trim()
    .max(
      expressionLimits.maxLength,
      `Keep formulas under ${expressionLimits.maxLength + 1} characters.`,
    )
    .optional(),
  /**
   * Only the rows that pass every one of these count toward this measure ("count where", "sum
   * where"); the query's own filters still apply to all of them.
   */
  where: z
    .array(queryFilterSchema)
    .min(1, "Add a condition, or count every row.")
    .max(
      queryLimits.maxMeasureFilters,
      `A measure has at most ${queryLimits.maxMeasureFilters} conditions.`,
    )
    .optional(),
  /** As it is (the default), a share of the total, or a running total along x. */
  show: z
    .enum(measureShows, {
      error: "Show the value, a share of the total, a running total or the change.",
    })
    .optional(),
});
export type QueryMeasure = z.infer<typeof queryMeasureSchema>;

export const chartQuerySchema = z
  .object({
    x: z.object({
      column: columnName,
      grain: z.enum(timeGrains, { error: "Choose a time grain." }).optional(),
    }),
    measures: z
      .array(queryMeasureSchema)
      .min(1, "Add at least one measure.")
      .max(queryLimits.maxMeasures, `A chart has at most ${queryLimits.maxMeasures} measures.`),
    breakdown: z
      .object({
        column: columnName,
        top: z
          .number()
          .int("Enter a whole number.")
          .min(1, "Show at least 1 series.")
          .max(queryLimits.maxTop, `At most ${queryLimits.maxTop} series.`)
          .optional(),
      })
      .optional(),
    filters: z
      .array(queryFilterSchema)
      .max(queryLimits.maxFilters, `At most ${queryLimits.maxFilters} filters.`)
      .default([]),
    sort: z
      .object({
        by: z.enum(["x", "value"]),
        direction: z.enum(["asc", "desc"]),
        /** By value: which measure orders the groups (its index; the first by default). */
        measure: z
          .number()
          .int()
          .min(0)
          .max(queryLimits.maxMeasures - 1)
          .optional(),
      })
      .optional(),
    limit: z
      .number()
      .int("Enter a whole number.")
      .min(1, "Enter at least 1.")
      .max(queryLimits.maxLimit, `At most ${queryLimits.maxLimit.toLocaleString("en-US")}.`)
      .optional(),
    /**
     * With a limit: the groups past it (in the query's order) are measured together as one
     * "Other" group, from their rows, instead of left out, so the whole stays whole.
     */
    other: z.boolean().optional(),
  })
  .strict();
export type ChartQuery = z.infer<typeof chartQuerySchema>;
export type ChartQueryInput = z.input<typeof chartQuerySchema>;

/** A column a query may name: a stored column or a calculated field. */
const noColumn = (name: string) => `The dataset has no column "${name}".`;

/**
 * A filter's problems against the dataset's columns under `path` (a chart's filter, a measure's
 * condition, a group's row limit): its column exists, its operator suits the column's type, its
 * values are of that type.
 */
function checkFilterInto(
  byName: ReadonlyMap<string, QueryColumn>,
  add: (path: string, message: string) => void,
  path: string,
  filter: QueryFilter,
): void {
  const column = byName.get(filter.column);
  if (!column) {
    add(`${path}.column`, noColumn(filter.column));
    return;
  }
  if (!filterOperatorsByType[column.type].includes(filter.op)) {
    add(
      `${path}.op`,
      `"${column.name}" is a ${column.type} column; filter it with ${filterOperatorsByType[column.type].join(", ")}.`,
    );
    return;
  }
  if (filter.op === "relative") {
    if (filter.which === "last_n" && filter.n === undefined) add(`${path}.n`, "Enter how many.");
    return;
  }
  const values =
    filter.op === "in"
      ? filter.values
      : filter.op === "between"
        ? [filter.from, filter.to]
        : "value" in filter
          ? [filter.value]
          : [];
  for (const value of values) {
    const problem = valueProblem(column, value);
    if (problem) {
      add(`${path}.value`, problem);
      break;
    }
  }
}
export interface QueryColumn {
  name: string;
  type: DatasetColumnType;
  /** Set for a calculated field (its expression is the dataset's). */
  calculated?: true;
}

/**
 * Problems of a parsed query against a dataset's columns (and the chart type, when given), keyed
 * by field path ("x.column", "measures.1.aggregate", "filters.0.value"); empty when it fits.
 */
export function checkQuery(
  query: ChartQuery,
  columns: readonly QueryColumn[],
  chartType?: ChartType,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (path: string, message: string) => {
    errors[path] = [...(errors[path] ?? []), message];
  };
  const byName = new Map(columns.map((column) => [column.name, column]));
  const find = (path: string, name: string) => {
    const column = byName.get(name);
    if (!column) add(path, noColumn(name));
    return column;
  };

  const checkFilter = (path: string, filter: QueryFilter) =>
    checkFilterInto(byName, add, path, filter);

  const x = find("x.column", query.x.column);
  if (x && query.x.grain !== undefined) {
    if (!isTimeType(x.type)) {
      add("x.grain", `"${x.name}" is a ${x.type} column; only dates and timestamps have a grain.`);
    } else if (!columnTypeSpecs[x.type].grains.includes(query.x.grain)) {
      add("x.grain", `"${x.name}" holds days; choose day or a coarser grain.`);
    }
  }

  const raw = query.measures.filter((measure) => measure.aggregate === "none").length;
  if (raw > 0 && raw < query.measures.length) {
    add("measures", "Use either raw values or aggregates for every measure, not both.");
  }
  if (raw > 0 && query.x.grain !== undefined) {
    add("x.grain", "Raw values have no grain; choose an aggregate to group by a time grain.");
  }
  if (query.sort?.measure !== undefined && query.sort.measure >= query.measures.length) {
    add("sort.measure", "Order by one of the chart's measures.");
  }
  for (const [index, measure] of query.measures.entries()) {
    if (measure.where) {
      if (measure.aggregate === "none") {
        add(
          `measures.${index}.where`,
          "Raw values are not combined; choose an aggregate to count only some rows.",
        );
      }
      for (const [at, filter] of measure.where.entries()) {
        checkFilter(`measures.${index}.where.${at}`, filter);
      }
    }
    const show = measure.show ?? "value";
    if (show === "change_from_previous" && query.x.grain === undefined) {
      add(
        `measures.${index}.show`,
        "A change from the period before needs dates grouped by a grain (day, month, ...).",
      );
    }
    if (show === "change_from_year_before") {
      if (query.x.grain === undefined) {
        add(
          `measures.${index}.show`,
          "A change from a year before needs dates grouped by a grain (day, month, ...).",
        );
      }
      if (query.breakdown) {
        add(
          `measures.${index}.show`,
          "A change from a year before compares each measure as a whole: remove the breakdown.",
        );
      }
    }
    if (show === "share_of_total" || show === "running_total") {
      const words = show === "share_of_total" ? "A share of the total" : "A running total";
      if (!additiveAggregates.includes(measure.aggregate)) {
        add(`measures.${index}.show`, `${words} adds up values: combine rows with sum or count.`);
      }
      if (show === "share_of_total" && query.breakdown) {
        add(
          `measures.${index}.show`,
          "A share of the total is of every row, not of a series: remove the breakdown.",
        );
      }
      if (show === "running_total") {
        const byX =
          query.sort === undefined || (query.sort.by === "x" && query.sort.direction === "asc");
        if (!byX)
          add(`measures.${index}.show`, "A running total adds up along x: order by x ascending.");
        if (query.other) add(`measures.${index}.show`, "A running total has no place for Other.");
      }
    }
    if (measure.aggregate === "formula") {
      if (measure.column !== null) {
        add(
          `measures.${index}.column`,
          "A formula names its columns itself; leave the column out.",
        );
      }
      if (!measure.formula) {
        add(
          `measures.${index}.formula`,
          "Write a formula, such as sum([revenue]) / sum([orders]).",
        );
      } else {
        const parsed = parseExpression(measure.formula, columns, "formula");
        if (!parsed.ok) {
          for (const error of parsed.errors) add(`measures.${index}.formula`, error.message);
        }
      }
      continue;
    }
    if (measure.column === null) {
      if (measure.aggregate !== "count") {
        add(`measures.${index}.column`, "Choose a column to measure.");
      }
      continue;
    }
    const column = find(`measures.${index}.column`, measure.column);
    if (column && numericAggregates.includes(measure.aggregate) && column.type !== "number") {
      add(
        `measures.${index}.aggregate`,
        `"${column.name}" is a ${column.type} column; ${measure.aggregate === "none" ? "raw series" : measure.aggregate} needs numbers.`,
      );
    }
  }
  if (query.breakdown) {
    const column = find("breakdown.column", query.breakdown.column);
    if (column && !breakdownColumnTypes.includes(column.type)) {
      add(
        "breakdown.column",
        `"${column.name}" is a ${column.type} column; break down by a text or true/false column.`,
      );
    }
    if (column && column.name === query.x.column) {
      add("breakdown.column", "The breakdown must differ from the x column.");
    }
    if (query.measures.length > 1) {
      add("breakdown.column", "A breakdown splits one measure; remove the other measures.");
    }
  }
  if (query.other) {
    if (query.limit === undefined) {
      add("other", "Set how many groups to show; the rest is then Other.");
    }
    if (x && (query.x.grain !== undefined || !breakdownColumnTypes.includes(x.type))) {
      add("other", `"${x.name}" is not a category; Other groups text or true/false values.`);
    }
    if (query.breakdown) {
      add("other", "A breakdown has its own Other (series to show); remove one of them.");
    }
    if (raw > 0) add("other", "Raw values are not grouped; choose an aggregate.");
  }
  for (const [index, filter] of query.filters.entries()) checkFilter(`filters.${index}`, filter);
  if (chartType) {
    const spec = chartTypeSpecs[chartType];
    if (!spec.accepts.breakdown && query.breakdown) {
      add("breakdown.column", `A ${spec.label.toLowerCase()} chart has no breakdown.`);
    } else if (query.breakdown && raw > 0 && !splitsByBreakdown(chartType, true)) {
      add(
        "breakdown.column",
        `A ${spec.label.toLowerCase()} chart splits aggregates only; choose an aggregate, or a scatter chart for raw values by group.`,
      );
    }
    if (!spec.accepts.multipleMeasures && query.measures.length > 1) {
      add("measures", `A ${spec.label.toLowerCase()} chart shows exactly one measure.`);
    }
    if (!spec.accepts.rawMeasures && raw > 0) {
      add("measures", `A ${spec.label.toLowerCase()} chart needs an aggregate.`);
    }
    if (!spec.accepts.grain && query.x.grain !== undefined) {
      add("x.grain", `A ${spec.label.toLowerCase()} chart has no time grain.`);
    }
    const grains = spec.accepts.grains;
    if (grains && query.x.grain !== undefined && !grains.includes(query.x.grain)) {
      add(
        "x.grain",
        `A ${spec.label.toLowerCase()} chart groups dates by ${grains.join(" or ")} or not at all.`,
      );
    }
    const tooFew = tooFewMeasures(chartType, query.measures.length);
    if (tooFew) add("measures", tooFew);
    const most = spec.accepts.maxMeasures;
    if (most !== undefined && query.measures.length > most) {
      add(
        "measures",
        `A ${spec.label.toLowerCase()} chart plots one measure against x and sizes its points by a second; remove the other ${query.measures.length - most === 1 ? "measure" : `${query.measures.length - most} measures`}.`,
      );
    }
    const xTypes = spec.accepts.xTypes;
    if (x && xTypes && !xTypes.includes(x.type)) {
      add(
        "x.column",
        `"${x.name}" is a ${x.type} column; a ${spec.label.toLowerCase()} chart's x holds ${xTypes.includes("number") ? "numbers or dates" : "dates"}.`,
      );
    }
  }
  return errors;
}

/** Why a chart of this type cannot draw this many measures for want of more, or null (a combo's bars and line). */
export function tooFewMeasures(type: ChartType, measures: number): string | null {
  const spec = chartTypeSpecs[type];
  const least = spec.accepts.minMeasures;
  if (least === undefined || measures >= least) return null;
  const missing = least - measures;
  return `A ${spec.label.toLowerCase()} chart draws at least ${least} measures, as bars and lines; add ${missing === 1 ? "another measure" : `${missing} more measures`}.`;
}

/** Why a filter value cannot be compared with a column, or null when it can. */
function valueProblem(column: QueryColumn, value: string | number | boolean): string | null {
  const spec = columnTypeSpecs[column.type];
  return spec.filterValueFits(value) ? null : `"${column.name}" ${spec.filterHint}`;
}

/** The problems of one filter standing alone (a group's row limit's condition) under `path`. */
export function filterProblemsAt(
  filter: QueryFilter,
  columns: readonly QueryColumn[],
  path: string,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (at: string, message: string) => {
    errors[at] = [...(errors[at] ?? []), message];
  };
  checkFilterInto(new Map(columns.map((column) => [column.name, column])), add, path, filter);
  return errors;
}

/** Every filter a query compiles: its own, then each measure's conditions. */
export function queryFilters(query: ChartQuery): QueryFilter[] {
  return [...query.filters, ...query.measures.flatMap((measure) => measure.where ?? [])];
}

/** A filter in words, as a measure's label says which rows it counts ("region is North"). */
export function filterPhrase(filter: QueryFilter): string {
  const text = (value: string | number | boolean) => String(value);
  switch (filter.op) {
    case "eq":
      return `${filter.column} is ${text(filter.value)}`;
    case "neq":
      return `${filter.column} is not ${text(filter.value)}`;
    case "lt":
      return `${filter.column} < ${text(filter.value)}`;
    case "lte":
      return `${filter.column} ≤ ${text(filter.value)}`;
    case "gt":
      return `${filter.column} > ${text(filter.value)}`;
    case "gte":
      return `${filter.column} ≥ ${text(filter.value)}`;
    case "between":
      return `${filter.column} from ${text(filter.from)} to ${text(filter.to)}`;
    case "in": {
      const shown = filter.values.slice(0, 3).map(text);
      const more = filter.values.length - shown.length;
      return `${filter.column} is ${shown.join(", ")}${more > 0 ? ` or ${more} more` : ""}`;
    }
    case "empty":
      return `${filter.column} is empty`;
    case "not_empty":
      return `${filter.column} is not empty`;
    case "relative": {
      const from = filter.anchor === "latest" ? " of the data" : "";
      if (filter.which === "this") return `${filter.column} in this ${filter.unit}${from}`;
      if (filter.which === "previous")
        return `${filter.column} in the previous ${filter.unit}${from}`;
      const n = filter.n ?? 1;
      return `${filter.column} in the last ${n} ${filter.unit}${n === 1 ? "" : "s"}${from}`;
    }
  }
}

/** A measure's name as its series is labelled: its own label, else what it measures and where. */
/**
 * What a raw query's result says of rows sharing an x value (a line joins them in an order that
 * means nothing); a scatter chart, whose points may share x, leaves it out.
 */
export function duplicateXNote(rows: number): string {
  return `${rows.toLocaleString("en-US")} rows share an x value with another row; choose an aggregate to combine them.`;
}

export function measureLabel(
  measure: Pick<QueryMeasure, "aggregate" | "label" | "formula" | "where"> & {
    column?: string | null;
  },
): string {
  if (measure.label) return measure.label;
  if (measure.aggregate === "formula") {
    const formula = measure.formula ?? "";
    return measure.where
      ? `${formula} where ${measure.where.map(filterPhrase).join(" and ")}`
      : formula;
  }
  if (!measure.column) {
    return measure.where ? `Count where ${measure.where.map(filterPhrase).join(" and ")}` : "Count";
  }
  const names: Record<QueryMeasure["aggregate"], string> = {
    sum: "Sum of",
    avg: "Average",
    min: "Min of",
    max: "Max of",
    count: "Count of",
    count_distinct: "Distinct",
    median: "Median of",
    p25: "25th percentile of",
    p75: "75th percentile of",
    p90: "90th percentile of",
    p95: "95th percentile of",
    p99: "99th percentile of",
    formula: "",
    none: "",
  };
  const base =
    measure.aggregate === "none" ? measure.column : `${names[measure.aggregate]} ${measure.column}`;
  return measure.where ? `${base} where ${measure.where.map(filterPhrase).join(" and ")}` : base;
}
