import {
  type ChartSvgOptions,
  calendarSvg,
  chartSvg,
  scatterSvg,
  tableSvg,
} from "@seed/charts/svg";
import type { QueryResult } from "@seed/store";
import {
  calendarSvgOptions,
  chartDrawing,
  chartSvgOptions,
  scatterSvgOptions,
} from "./chart-drawing";
import { defaultChartLocale } from "./chart-format";
import type { ChartView } from "./chart-view";

/** A stored chart's drawing as chartSvg options, in the default locale; none without a result. */
function drawnSvg(
  chart: ChartView,
  result: QueryResult | null,
  width: number,
  height: number,
  extra: Partial<ChartSvgOptions> = {},
): string | undefined {
  if (!result) return undefined;
  // pages render in the default locale; hydration then switches to the visitor's
  const drawing = chartDrawing(chart, result, defaultChartLocale, height);
  if (drawing.type === "table") {
    // A page draws a table as HTML on the server itself; an image gets its first rows.
    return extra.colors
      ? tableSvg({ ...drawing.props, width, height, colors: extra.colors })
      : undefined;
  }
  if (drawing.type === "calendar") {
    return calendarSvg({
      ...calendarSvgOptions(drawing, width),
      ...(extra.colors ? { colors: extra.colors } : {}),
      ...(extra.legend ? { legend: extra.legend } : {}),
    });
  }
  if (drawing.type === "scatter") {
    return scatterSvg({
      ...scatterSvgOptions(drawing, width),
      ...(extra.colors ? { colors: extra.colors } : {}),
      ...(extra.legend ? { legend: extra.legend } : {}),
    });
  }
  return chartSvg({ ...chartSvgOptions(drawing, width), ...extra } as ChartSvgOptions);
}

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
  return drawnSvg(chart, result, width, height);
}

/**
 * The same drawing for a report's image: light colours written out on a white background (an
 * image renderer reads no CSS variables), with a legend.
 */
export function reportChartSvg(
  chart: ChartView,
  result: QueryResult | null,
  width: number,
  height: number,
): string | undefined {
  return drawnSvg(chart, result, width, height, { colors: "light", legend: true });
}
