import { acceptedOptions } from "@seed/model";
import type { Chart } from "@seed/store";

/** What the renderer needs of a stored chart: no query, no dataset, nothing a page does not show. */
export interface ChartView {
  id: string;
  title: string;
  type: Chart["type"];
  options: Chart["options"];
}

/** A chart as pages draw it; only the options its type accepts (the chart-types table) pass. */
export function chartView(chart: Chart): ChartView {
  const options = acceptedOptions(chart.type, chart.options);
  return { id: chart.id, title: chart.title, type: chart.type, options };
}
