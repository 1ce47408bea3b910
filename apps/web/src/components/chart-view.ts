import {
  acceptedOptions,
  type ChartQueryInput,
  type ChartType,
  measureLabel,
  type TimeGrain,
} from "@seed/model";
import type { Chart, TileDrill } from "@seed/store";

/** What the renderer needs of a stored chart: no query, no dataset, nothing a page does not show. */
export interface ChartView {
  id: string;
  title: string;
  type: Chart["type"];
  options: Chart["options"];
  /** The time grain of the x column, when it has one (periods without data are drawn empty). */
  grain?: TimeGrain;
  /**
   * A scatter chart split by a breakdown: its series are the groups that colour the points, so
   * the measure (y) and the breakdown column (the colours) are named here.
   */
  colorSplit?: { measure: string; column: string };
}

/** What a chart type's drawing needs to know of its query beyond the result (see colorSplit). */
export function queryNames(
  type: ChartType,
  query: Pick<ChartQueryInput, "measures" | "breakdown"> | undefined,
): Pick<ChartView, "colorSplit"> {
  const measure = query?.measures[0];
  return type === "scatter" && query?.breakdown && measure
    ? { colorSplit: { measure: measureLabel(measure), column: query.breakdown.column } }
    : {};
}

/** A chart as pages draw it; only the options its type accepts (the chart-types table) pass. */
export function chartView(chart: Chart): ChartView {
  const options = drawnOptions(chart, acceptedOptions(chart.type, chart.options));
  const grain = chart.query.x.grain;
  return {
    id: chart.id,
    title: chart.title,
    type: chart.type,
    options,
    ...(grain ? { grain } : {}),
    ...queryNames(chart.type, chart.query),
  };
}

/**
 * The options a chart is drawn with: a query that groups its rest into Other already holds the
 * rest as one row, so a pie does not group small slices into a second "Other".
 */
export function drawnOptions(
  chart: Pick<Chart, "type"> & { query: Pick<Chart["query"], "other"> },
  options: Chart["options"],
): Chart["options"] {
  return chart.query.other && chart.type === "pie" ? { ...options, otherThreshold: 0 } : options;
}

/**
 * A drilled chart as pages draw it: at the grain it shows (so periods without data are drawn
 * empty at that grain), its dates written as the kit writes that span (a chart's "year" format
 * would write every quarter of 2016 as "2016").
 */
export function drilledView(view: ChartView, drill: TileDrill | null): ChartView {
  if (drill?.kind !== "time" || drill.trail.length === 0) return view;
  const { dateFormat: _coarse, ...options } = view.options;
  return { ...view, grain: drill.shown, options };
}
