import { z } from "zod";
import {
  chartLocales,
  chartTypeSpecs,
  chartTypes,
  colorRuleConditions,
  comboAxes,
  comboMarks,
  curveTypes,
  dateFormats,
  gapModes,
  legendPositions,
  maxOtherThreshold,
  queryLimits,
  tablePageSizes,
  unsupportedOptions,
  valueLabelModes,
  xNumberFormats,
} from "./chart-types.js";
import { columnTypeSpecs, isTimeType } from "./column-types.js";
import { thresholdTones } from "./dashboard/tiles.js";
import { idSchema, requiredText } from "./fields.js";
import { chartLimits, textLimits } from "./limits.js";
import { numberFormatSchema } from "./number-format.js";
import { type ChartQueryInput, chartQuerySchema } from "./query/spec.js";
import { isIsoDay } from "./values.js";
import type { DatasetColumnType } from "./vocabulary.js";

const annotationDay = (what: string) =>
  z
    .string({ error: `Enter the ${what} as a date such as 2024-03-31.` })
    .trim()
    .refine(isIsoDay, `Enter the ${what} as a date such as 2024-03-31.`);

/**
 * An event typed by hand on a chart's time axis: a marker on one day, or a band from `at` to `to`
 * (both days count), with the text the plot, the tooltip and the data table show.
 */
export const chartAnnotationSchema = z
  .object({
    at: annotationDay("day"),
    to: annotationDay("last day").optional(),
    label: z
      .string({ error: "Write what happened." })
      .trim()
      .min(1, "Write what happened.")
      .max(
        chartLimits.maxAnnotationLabel,
        `An annotation is at most ${chartLimits.maxAnnotationLabel} characters.`,
      ),
  })
  .strict()
  // Only two real days are compared: a bad day is named at its own field, not again here.
  .refine(({ at, to }) => to === undefined || !isIsoDay(at) || !isIsoDay(to) || to >= at, {
    path: ["to"],
    message: "The last day cannot be before the first.",
  });
export type ChartAnnotationInput = z.infer<typeof chartAnnotationSchema>;

const sourceColumn = (what: string) =>
  z
    .string({ error: `Choose the column of ${what}.` })
    .trim()
    .min(1, `Choose the column of ${what}.`)
    .max(64, "Column names are at most 64 characters.");

/**
 * Events read from a dataset, drawn like typed annotations: each row with a day (`at`, a date or
 * timestamp column), an optional last day (`to`) and a text (`label`, a text column). Only the
 * events within the range the chart shows are read, at most chartLimits.maxSourcedAnnotations,
 * and as the chart's reader may see that dataset's rows. The store checks the columns.
 */
export const chartAnnotationSourceSchema = z
  .object({
    datasetId: idSchema("dataset of events"),
    at: sourceColumn("the events' days"),
    to: sourceColumn("the events' last days").optional(),
    label: sourceColumn("the events' texts"),
  })
  .strict();
export type ChartAnnotationSource = z.infer<typeof chartAnnotationSourceSchema>;

/**
 * What is wrong with an annotation source over its dataset's columns, by field ("at", "to",
 * "label"): a missing column, days that are not dates, a text that is not text.
 */
export function annotationSourceProblems(
  source: Pick<ChartAnnotationSource, "at" | "to" | "label">,
  columns: readonly { name: string; type: DatasetColumnType }[],
): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const typeOf = (name: string) => columns.find((column) => column.name === name)?.type;
  const check = (field: "at" | "to" | "label", name: string | undefined) => {
    if (name === undefined) return;
    const type = typeOf(name);
    if (type === undefined) {
      problems[field] = [`The dataset of events has no column "${name}".`];
    } else if (field === "label" ? type !== "string" : !isTimeType(type)) {
      problems[field] = [
        field === "label"
          ? `"${name}" holds ${columnTypeSpecs[type].expected}; the events' texts come from a text column.`
          : `"${name}" holds ${columnTypeSpecs[type].expected}; the events' days come from a date or timestamp column.`,
      ];
    }
  };
  check("at", source.at);
  check("to", source.to);
  check("label", source.label);
  if (source.to !== undefined && source.to === source.at) {
    problems.to = [
      "The last days come from another column than the first; leave it out for one-day events.",
    ];
  }
  return problems;
}

/**
 * A table's conditional colour: the cells of measure `measure` (its position in the query, a
 * breakdown's series all being of the first) whose value meets the condition take the tone, with
 * words beside it (the label, else the tone's name) so the colour is never the only sign.
 */
export const chartColorRuleSchema = z
  .object({
    measure: z
      .number({ error: "Choose a measure." })
      .int("Choose a measure.")
      .min(0, "Choose a measure.")
      .max(queryLimits.maxMeasures - 1, "Choose a measure."),
    when: z.enum(colorRuleConditions, { error: "Choose when the rule applies." }),
    value: z
      .number({ error: "Enter the rule's number." })
      .refine(Number.isFinite, "Enter the rule's number."),
    tone: z.enum(thresholdTones, { error: "Choose good, warning or bad." }),
    label: z
      .string({ error: "The rule's words must be text." })
      .trim()
      .min(1, "Write the rule's words, or leave them out.")
      .max(
        chartLimits.maxColorRuleLabel,
        `A rule's words are at most ${chartLimits.maxColorRuleLabel} characters.`,
      )
      .optional(),
  })
  .strict();
export type ChartColorRuleInput = z.infer<typeof chartColorRuleSchema>;

/** Each colour rule naming a measure the query lacks, by its position among the rules. */
export function colorRuleMeasureProblems(
  rules: readonly { measure: number }[],
  measures: number,
): Array<{ index: number; message: string }> {
  return rules.flatMap((rule, index) =>
    rule.measure >= measures
      ? [
          {
            index,
            message: `This chart has ${measures} measure${measures === 1 ? "" : "s"}: choose one of them.`,
          },
        ]
      : [],
  );
}

/**
 * How a combo chart draws one measure (by its position in the query): as bars or a line, on the
 * left value axis or a second one on the right. Unsaid, the first is bars, the rest lines, all left.
 */
export const comboSeriesSchema = z
  .object({
    type: z.enum(comboMarks, { error: "Draw a measure as bar or line." }).optional(),
    axis: z
      .enum(comboAxes, { error: "Measure a series on the left or the right axis." })
      .optional(),
  })
  .strict();
export type ComboSeriesInput = z.infer<typeof comboSeriesSchema>;

/** Why a combo's series list does not fit its query's measures, or null when it does. */
export function comboSeriesProblem(series: readonly unknown[], measures: number): string | null {
  return series.length > measures
    ? `This chart has ${measures} measure${measures === 1 ? "" : "s"}; comboSeries says how to draw ${series.length}. Remove the last ${series.length - measures === 1 ? "entry" : `${series.length - measures} entries`}.`
    : null;
}

export const chartOptionsSchema = z
  .object({
    stack: z
      .enum(["none", "stacked", "percent"], { error: "Stacking must be none, stacked or percent." })
      .optional(),
    horizontal: z.boolean({ error: "Horizontal must be true or false." }).optional(),
    curve: z.enum(curveTypes, { error: "Curve must be linear, monotone or step." }).optional(),
    numberFormat: numberFormatSchema.optional(),
    donut: z.boolean({ error: "Donut must be true or false." }).optional(),
    showLegend: z.boolean({ error: "Show legend must be true or false." }).optional(),
    legendPosition: z
      .enum(legendPositions, { error: "Legend position must be bottom, top, left or right." })
      .optional(),
    valueLabels: z
      .enum(valueLabelModes, { error: "Value labels must be none, value, percent or name." })
      .optional(),
    otherThreshold: z
      .number({ error: "Enter the share under which slices are grouped as a number." })
      .min(0, "The share for Other cannot be negative.")
      .max(maxOtherThreshold, `Group at most slices under ${maxOtherThreshold * 100}%.`)
      .optional(),
    locale: z.enum(chartLocales, { error: "Choose one of the listed locales." }).optional(),
    dateFormat: z
      .enum(dateFormats, { error: "Date format must be day, month or year." })
      .optional(),
    xNumberFormat: z
      .enum(xNumberFormats, { error: "X-axis number format must be auto or plain." })
      .optional(),
    gaps: z.enum(gapModes, { error: "Periods without data must be break or connect." }).optional(),
    annotations: z
      .array(chartAnnotationSchema, { error: "Annotations must be a list." })
      .max(
        chartLimits.maxAnnotations,
        `A chart has at most ${chartLimits.maxAnnotations} annotations.`,
      )
      .optional(),
    annotationSource: chartAnnotationSourceSchema.optional(),
    pageSize: z
      .literal(tablePageSizes, {
        error: `Rows per page must be ${tablePageSizes.slice(0, -1).join(", ")} or ${tablePageSizes.at(-1)}.`,
      })
      .optional(),
    colorRules: z
      .array(chartColorRuleSchema, { error: "Colour rules must be a list." })
      .max(
        chartLimits.maxColorRules,
        `A table has at most ${chartLimits.maxColorRules} colour rules.`,
      )
      .optional(),
    comboSeries: z
      .array(comboSeriesSchema, { error: "comboSeries must be a list, one entry per measure." })
      .max(queryLimits.maxMeasures, `A chart has at most ${queryLimits.maxMeasures} measures.`)
      .optional(),
  })
  .strict();
export type ChartOptions = z.infer<typeof chartOptionsSchema>;

const chartFields = {
  title: requiredText("title", textLimits.title),
  type: z.enum(chartTypes, {
    error: `Chart type must be ${chartTypes.slice(0, -1).join(", ")} or ${chartTypes.at(-1)}.`,
  }),
  datasetId: idSchema("dataset"),
  /** What the chart draws (the query spec, run by the store's engine). Charts made with the simple form give the two fields below. */
  query: chartQuerySchema.optional(),
  /** Simple form: the x column, drawn as is (the query's x). */
  indexColumn: z
    .string({ error: "Choose the index column." })
    .trim()
    .min(1, "Choose the index column.")
    .max(64, "Column names are at most 64 characters.")
    .optional(),
  /** Simple form: number columns drawn as raw series (the query's measures). */
  seriesColumns: z
    .array(
      z
        .string()
        .trim()
        .min(1, "Series names cannot be empty.")
        .max(64, "Column names are at most 64 characters."),
      { error: "Choose the series columns." },
    )
    .min(1, "Choose at least one series column.")
    .max(chartLimits.maxSeries, `A chart has at most ${chartLimits.maxSeries} series.`)
    .optional(),
  options: chartOptionsSchema.default({}),
};

export const chartInputSchema = z.object(chartFields).superRefine((chart, ctx) => {
  for (const name of unsupportedOptions(chart.type, chart.options)) {
    ctx.addIssue({
      code: "custom",
      path: ["options", name],
      message: `A ${chartTypeSpecs[chart.type].label.toLowerCase()} chart has no ${name} option.`,
    });
  }
  const labelModes: readonly string[] = chartTypeSpecs[chart.type].valueLabels;
  const labels = chart.options.valueLabels;
  if (labels !== undefined && labelModes.length > 0 && !labelModes.includes(labels)) {
    ctx.addIssue({
      code: "custom",
      path: ["options", "valueLabels"],
      message: `Value labels on a ${chartTypeSpecs[chart.type].label.toLowerCase()} chart are one of: ${labelModes.join(", ")}.`,
    });
  }
  // A rule names a measure the query has (the store checks the rest of the query).
  const measures = chart.query?.measures.length ?? chart.seriesColumns?.length;
  if (measures !== undefined) {
    for (const { index, message } of colorRuleMeasureProblems(
      chart.options.colorRules ?? [],
      measures,
    )) {
      ctx.addIssue({ code: "custom", path: ["options", "colorRules", index, "measure"], message });
    }
  }
  const combo = chart.options.comboSeries;
  const problem = combo && measures !== undefined ? comboSeriesProblem(combo, measures) : null;
  if (problem) ctx.addIssue({ code: "custom", path: ["options", "comboSeries"], message: problem });
  if (chart.query) return;
  if (chart.indexColumn === undefined) {
    ctx.addIssue({ code: "custom", path: ["indexColumn"], message: "Choose the index column." });
  }
  if (chart.seriesColumns === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["seriesColumns"],
      message: "Choose at least one series column.",
    });
    return;
  }
  if (chart.type === "pie" && chart.seriesColumns.length !== 1) {
    ctx.addIssue({
      code: "custom",
      path: ["seriesColumns"],
      message: "A pie chart shows exactly one series column.",
    });
  }
  const least = chartTypeSpecs[chart.type].accepts.minMeasures;
  if (least !== undefined && chart.seriesColumns.length < least) {
    ctx.addIssue({
      code: "custom",
      path: ["seriesColumns"],
      message: `A ${chartTypeSpecs[chart.type].label.toLowerCase()} chart shows at least ${least} series columns (bars and a line).`,
    });
  }
  const most = chartTypeSpecs[chart.type].accepts.maxMeasures;
  if (most !== undefined && chart.seriesColumns.length > most) {
    ctx.addIssue({
      code: "custom",
      path: ["seriesColumns"],
      message: `A ${chartTypeSpecs[chart.type].label.toLowerCase()} chart shows at most ${most} series columns (y, then what sizes the points).`,
    });
  }
  const seen = new Set<string>();
  for (const series of chart.seriesColumns) {
    if (seen.has(series)) {
      ctx.addIssue({
        code: "custom",
        path: ["seriesColumns"],
        message: `Series "${series}" is listed twice.`,
      });
    }
    seen.add(series);
  }
  if (chart.indexColumn !== undefined && seen.has(chart.indexColumn)) {
    ctx.addIssue({
      code: "custom",
      path: ["seriesColumns"],
      message: `"${chart.indexColumn}" is the index column; it cannot also be a series.`,
    });
  }
});
export type ChartInput = z.input<typeof chartInputSchema>;
export type ChartPatch = Partial<ChartInput>;

/** A chart's query: the one it gives, or the simple form's columns as raw series. */
export function chartQueryOf(chart: {
  query?: ChartQueryInput | undefined;
  indexColumn?: string | undefined;
  seriesColumns?: readonly string[] | undefined;
}): ChartQueryInput {
  if (chart.query) return chart.query;
  return {
    x: { column: chart.indexColumn ?? "" },
    measures: (chart.seriesColumns ?? []).map((column) => ({ column, aggregate: "none" as const })),
  };
}
