import { chartSvg } from "@seed/charts/svg";
import type { QueryResult } from "@seed/store";
import { chartDrawing, chartSvgOptions } from "./chart-drawing";
import { defaultChartLocale } from "./chart-format";
import type { ChartView } from "./chart-view";

/**
 * A stored chart drawn by the server as SVG at a plot size, for the page's HTML before any script
 * runs (DashboardChart shows it until the kit has drawn); none without a result. Server code
 * only: chartSvg never goes to the browser.
 */
export function serverChartSvg(
  chart: ChartView,
  result: QueryResult | null,
  width: number,
  height: number,
): string | undefined {
  if (!result) return undefined;
  // pages render in the default locale; hydration then switches to the visitor's
  const drawing = chartDrawing(chart, result, defaultChartLocale, height);
  return chartSvg(chartSvgOptions(drawing, width));
}

/**
 * The same drawing for a report's image: light colours written out on a white background (an
 * image renderer reads no CSS variables), with a legend; none without a result.
 */
export function reportChartSvg(
  chart: ChartView,
  result: QueryResult | null,
  width: number,
  height: number,
): string | undefined {
  if (!result) return undefined;
  const drawing = chartDrawing(chart, result, defaultChartLocale, height);
  return chartSvg({ ...chartSvgOptions(drawing, width), colors: "light", legend: true });
}
