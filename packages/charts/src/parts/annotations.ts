import type { ReactNode } from "react";
import type { IndexKind } from "../data/format";
import type { DrawnRow } from "./plot-rows";

/** An event drawn on the index axis: a marker at `at`, or a band from `at` to `to`. */
export interface ChartAnnotation {
  /** When (a Date, ISO string or number on a time or number axis) or which name (a name axis). */
  at: Date | string | number;
  /** Where a range ends: the annotation is then a band from `at` to `to`. */
  to?: Date | string | number;
  /** Its text: beside the marker, in the tooltip of the points it covers and in the data table. */
  label: string;
  /** Any CSS colour (default: the theme's `--seed-chart-annotation`). */
  color?: string;
}

/** What `annotate()` from `@seed/charts/annotations` makes, for a chart's `annotations` prop. */
export interface ChartAnnotations {
  readonly items: readonly ChartAnnotation[];
  /**
   * Where they fall among the drawn rows, and the layer that draws them (`vertical`: horizontal
   * bars, the index axis is vertical). Made by `annotate()`; the chart calls it.
   */
  readonly place: (
    drawn: readonly DrawnRow[],
    kind: IndexKind,
    bandAxis: boolean,
    vertical: boolean,
  ) => AnnotationPlacement;
}

export interface AnnotationLayerProps {
  placed: readonly PlacedAnnotation[];
  /** Horizontal bars: the index axis is vertical. */
  vertical: boolean;
}

/** An annotation where the plot shows it. */
export interface PlacedAnnotation {
  label: string;
  color: string | undefined;
  /** Start and end on the index axis: numbers on a number or time axis, drawn names on a band axis. */
  from: number | string;
  to: number | string;
  band: boolean;
}

export interface AnnotationPlacement {
  placed: PlacedAnnotation[];
  /** Draws them inside the plot (it reads Recharts' scales there). */
  layer?: ReactNode;
  /**
   * The labels of the annotations on each drawn row they cover, joined by "; ": its tooltip, data
   * table row and screen-reader sentence name the point and then these.
   */
  notes: Map<DrawnRow, string>;
}
