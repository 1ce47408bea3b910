import type { ComponentType, ReactNode } from "react";
import type { ColumnData } from "../data/columns";
import type { DownsampleMethod } from "../data/downsample";
import type { IndexKind } from "../data/format";
import type { CartesianFrame } from "../data/rows";
import type { ResolvedSeries, RowKey, Series } from "../data/series";
import type { AxisOptions, BaseChartProps, GridLines } from "../types";
import type { ChartAnnotations } from "./annotations";
import type { DrawnRow } from "./plot-rows";

/** Props shared by LineChart, AreaChart and BarChart. */
export interface CartesianChartProps<Row> extends BaseChartProps<Row> {
  /** Row key of the x values (y values for horizontal bars): Dates, ISO strings, numbers or names. */
  index: RowKey<Row>;
  /** Series to draw, each a row key or `{ key, label, color, formatter }`. */
  series: readonly Series<Row>[];
  /** Force how the index is read instead of guessing from its values. */
  indexType?: IndexKind;
  /** Name of the index in the data table and summary (default: the index key). */
  indexLabel?: string;
  /** Formats index values on the axis and in the tooltip. */
  indexFormatter?: (value: number | string) => string;
  /** IANA time zone for dates (default "UTC", so server and browser agree). */
  timeZone?: string;
  xAxis?: AxisOptions;
  yAxis?: AxisOptions;
  /** Which grid lines to draw (default "horizontal"). */
  grid?: GridLines;
  /** Series keys hidden at first; the legend toggles them. */
  defaultHiddenSeries?: readonly RowKey<Row>[];
  /**
   * Charts with the same syncId show their crosshair and tooltip together, matched by x value
   * (the nearest drawn point), so differently downsampled charts stay in step.
   */
  syncId?: string;
  /**
   * Events on the index axis, from `annotate([...])` of `@seed/charts/annotations`: `{ at, label }`
   * draws a marker, `{ at, to, label }` a band. Their labels show in the plot, in the tooltip of
   * the points they cover, to screen readers on those points and in the data table.
   */
  annotations?: ChartAnnotations;
}

/** What a zoom layer (e.g. `BrushZoom` from `@seed/charts/zoom`) gets from a line or area chart. */
export interface ZoomLayerProps {
  /** The x range shown, or null for all of it. */
  range: readonly [number, number] | null;
  onRange: (range: [number, number] | null) => void;
  /** First and last x of the whole data. */
  extent: readonly [number, number];
}

/**
 * A zoom layer for a chart's `zoom` prop: the component drawn in the plot, and how the chart's
 * points are cut to the range it sets (in its own entry, so charts without zoom carry none).
 */
export type ZoomLayer = ComponentType<ZoomLayerProps> & {
  slice: (frame: CartesianFrame, range: readonly [number, number]) => CartesianFrame;
};

/** LineChart and AreaChart also take columns instead of rows. */
export interface ColumnarChartProps<Row> extends Omit<CartesianChartProps<Row>, "data"> {
  /**
   * Rows, or one `{ x, y }` per series key (typed arrays welcome): a million points need no
   * million objects. `index` then only names the x values.
   */
  data: readonly Row[] | ColumnData<Row>;
  /**
   * Drag-to-zoom: pass `BrushZoom` from `@seed/charts/zoom` (its own entry, so charts without
   * zoom carry none of its code). Zooming downsamples the visible range again, at full detail.
   */
  zoom?: ZoomLayer;
}

export type { DrawnRow };

export interface SeriesRenderContext {
  series: readonly ResolvedSeries[];
  highlighted: string | null;
  animate: boolean;
  onSeriesClick: (series: ResolvedSeries, drawn: DrawnRow | undefined) => void;
}

/** The props our cartesian bases hand to the Recharts root chart. */
export interface CartesianRootProps {
  data: DrawnRow[];
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  accessibilityLayer: boolean;
  title: string;
  desc: string;
  "aria-label": string;
  layout?: "horizontal" | "vertical";
  stackOffset?: "none" | "expand";
  throttledEvents?: readonly string[];
  syncId?: string | undefined;
  syncMethod?: (ticks: readonly { value?: unknown }[], state: { activeLabel?: string }) => number;
  onClick?: (state: { activeTooltipIndex?: number | string | null | undefined }) => void;
  children: ReactNode;
}

export interface CartesianBaseProps<Row> {
  props: ColumnarChartProps<Row>;
  chartName: "LineChart" | "AreaChart" | "BarChart" | "ComboChart";
  /** "Line chart", used in the default title and summary. */
  noun: string;
  Root: ComponentType<CartesianRootProps>;
  renderSeries: (context: SeriesRenderContext) => ReactNode;
  downsample: DownsampleMethod;
  /** Bars: a band axis for the index, whatever its kind. */
  bandIndex: boolean;
  /** Horizontal bars: index on the vertical axis. */
  vertical: boolean;
  stackOffset: "none" | "expand";
  /** Series are piled up ("stacked" or "percent"). */
  stacked: boolean;
  /** Default lower bound of the value axis. */
  valueAxisMin: number | "auto";
  /** Clicks anywhere over a point report it (lines, areas); bars report their own clicks. */
  reportChartClicks: boolean;
  /** More value axes than the one (a combo's second axis, on the right). */
  valueAxes?: ValueAxes;
}

/**
 * Extra value axes (a combo's second one, on the right), given the visible series and their drawn
 * values: the drawn values the first axis measures and its options, and the axes drawn. A first
 * axis that measures nothing shown is hidden over the second one's values, so the grid, which
 * follows the first axis, lines up with the second.
 */
export type ValueAxes = (
  visible: readonly ResolvedSeries[],
  drawnColumns: readonly Float64Array[],
  height: number,
  valueTickFormat: (value: number | string) => string,
) => [readonly Float64Array[], AxisOptions | undefined, ReactNode];
