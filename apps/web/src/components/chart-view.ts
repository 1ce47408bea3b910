import type { Chart } from "@seed/store";

/** What the renderer needs of a stored chart: no query, no dataset, nothing a page does not show. */
export interface ChartView {
  id: string;
  title: string;
  type: Chart["type"];
  options: Chart["options"];
}

export function chartView(chart: Chart): ChartView {
  return { id: chart.id, title: chart.title, type: chart.type, options: chart.options };
}
