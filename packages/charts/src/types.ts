import type { CSSProperties, ReactNode } from "react";
import type { DataIssue } from "./data/rows";
import type { ValueFormatter } from "./data/series";
import type { LegendPosition } from "./parts/legend";
import type { ChartTooltipRender } from "./parts/tooltip";

/** What `onValueChange` reports: the clicked point, bar or slice with the caller's row. */
export interface ChartValueEvent<Row> {
  row: Row;
  /** Position of the row in the caller's data array. */
  rowIndex: number;
  /** Every row's position when the mark stands for several (a pie's "Other"): `row` is the first. */
  rowIndexes?: readonly number[];
  /** The series clicked, when the chart knows it (bars and slices). */
  seriesKey?: string;
  value?: number | null;
}

/** Props every chart takes. */
export interface BaseChartProps<Row> {
  data: readonly Row[];
  /** Accessible name of the chart; defaults to a name built from the series. */
  title?: string;
  /** One-sentence summary for screen readers; defaults to one computed from the data. */
  description?: string;
  /** Plot height in px (default 300). The legend sits outside this box. */
  height?: number;
  /** Plot width / height; used instead of `height` when set. */
  aspectRatio?: number;
  /** Fixed width in px; by default the chart fills its container's width. */
  width?: number;
  /** Width used for server rendering and hydration before the container is measured (default 640). */
  initialWidth?: number;
  /** BCP 47 locale for numbers and dates (default: the runtime's). */
  locale?: string;
  /** Where the legend goes, or false for none (default "bottom"). */
  legend?: LegendPosition | false;
  /** true (default) for the themed tooltip, false for none, or a function for custom content. */
  tooltip?: boolean | ChartTooltipRender<Row>;
  /** Formats values when a series has no formatter of its own. */
  valueFormatter?: ValueFormatter;
  /** Called with the clicked point (or null when the click hit no point). */
  onValueChange?: (event: ChartValueEvent<Row> | null) => void;
  /**
   * Called with a legend entry's key (a series key; a pie's slice name) when it is pressed,
   * instead of hiding or showing it: e.g. to filter a dashboard by that series.
   */
  onLegendSelect?: (key: string) => void;
  /** Called with every row or value that was skipped as invalid. */
  onDataIssues?: (issues: readonly DataIssue[]) => void;
  /** Shows a skeleton of the same size instead of the chart. */
  loading?: boolean;
  /** Text of the empty state (default "No data to display"). */
  emptyMessage?: string;
  /**
   * Drawn in the plot box until the chart has drawn itself: in server HTML, before any script
   * runs. Give it the class `seed-chart-fallback` (placed over the box, hidden once the chart's
   * own SVG is there), e.g. an SVG from `@seed/charts/svg` at the plot's size.
   */
  fallback?: ReactNode;
  /** Animate on mount; off anyway under prefers-reduced-motion and for large data. */
  animate?: boolean;
  className?: string;
  style?: CSSProperties;
}

/** Axis settings: shown by default with an automatic domain. */
export interface AxisOptions {
  show?: boolean;
  label?: string;
  /** A number, "auto" (a nice rounded bound) or "dataMin" / "dataMax". */
  min?: number | "auto" | "dataMin";
  max?: number | "auto" | "dataMax";
  tickFormatter?: (value: number | string) => string;
  /**
   * Intl options for a number index on this axis (x, or y of horizontal bars): its ticks,
   * tooltip, data table and summary, e.g. `{ useGrouping: false }` for years written 1900.
   * Dates, names and the value axis ignore it; `indexFormatter` replaces it everywhere and
   * `tickFormatter` on the ticks.
   */
  numberFormat?: Intl.NumberFormatOptions;
  /** Width reserved for a vertical axis, px (default: the value axis fits its longest label). */
  width?: number;
}

export type GridLines = "horizontal" | "vertical" | "both" | "none";
