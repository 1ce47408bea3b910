import type { CSSProperties, ReactNode, RefObject } from "react";
import { useEffect, useId } from "react";
import { type DataIssue, describeIssues } from "../data/rows";
import type { BaseChartProps } from "../types";
import { ChartErrorBoundary } from "./chart-error-boundary";
import type { LegendPosition } from "./legend";
import { EmptyState, LoadingState } from "./states";
import { usePlotWidth } from "./use-plot-width";

/** The props of a chart that its frame reads as they are. */
export type FrameChartProps = Pick<
  BaseChartProps<unknown>,
  "emptyMessage" | "aspectRatio" | "width" | "initialWidth" | "className" | "style" | "fallback"
>;

export interface ChartFrameProps {
  chartName: string;
  title: string;
  summary: string;
  status: "loading" | "empty" | "ready";
  /** The chart's own props: empty message (default "No data to display"), size, class and style. */
  chartProps: FrameChartProps;
  /** What preparing the rows found: why nothing is drawn, and the issues listed under the plot. */
  frame: { emptyReason: string | null; issues?: readonly DataIssue[] | undefined };
  legendPosition: LegendPosition | false;
  legend: ReactNode;
  /** Plot height in px; ignored when aspectRatio is set. */
  height: number;
  liveRegion: RefObject<HTMLParagraphElement | null>;
  /** Keys pressed while focus is inside the plot (the chart surface). */
  onPlotKeyDown?: ((event: KeyboardEvent) => void) | undefined;
  /** Draws the chart at the measured size. */
  children: (size: { width: number; height: number }) => ReactNode;
}

/**
 * What every chart shares: the labelled figure, a plot box of fixed size (so nothing shifts when
 * data, loading or hydration change), legend placement, summary, live region and data table.
 */
export function ChartFrame(props: ChartFrameProps) {
  const summaryId = useId();
  const { chartProps, frame } = props;
  const { aspectRatio, width, initialWidth = 640 } = chartProps;
  const [plotRef, measuredWidth] = usePlotWidth(width, initialWidth);
  const plotHeight = aspectRatio
    ? Math.round((measuredWidth || initialWidth) / aspectRatio)
    : props.height;
  const plotStyle: CSSProperties = aspectRatio
    ? { aspectRatio: String(aspectRatio) }
    : { height: props.height };
  if (width !== undefined) plotStyle.width = width;
  const showLegend = props.legendPosition !== false && props.status !== "empty";
  const { onPlotKeyDown } = props;
  useEffect(() => {
    const plot = plotRef.current;
    if (!plot || !onPlotKeyDown) return;
    plot.addEventListener("keydown", onPlotKeyDown);
    return () => plot.removeEventListener("keydown", onPlotKeyDown);
  }, [plotRef, onPlotKeyDown]);

  return (
    <figure
      className={chartProps.className ? `seed-chart ${chartProps.className}` : "seed-chart"}
      style={chartProps.style}
      data-chart={props.chartName}
      data-legend={showLegend ? props.legendPosition : undefined}
      aria-label={props.title}
      aria-describedby={summaryId}
      aria-busy={props.status === "loading" || undefined}
    >
      {showLegend ? props.legend : null}
      <div ref={plotRef} className="seed-chart-plot" style={plotStyle}>
        {chartProps.fallback}
        {props.status === "loading" ? (
          <LoadingState />
        ) : props.status === "empty" ? (
          <EmptyState
            message={chartProps.emptyMessage ?? "No data to display"}
            reason={frame.emptyReason}
          />
        ) : measuredWidth !== null ? (
          <ChartErrorBoundary chartName={props.chartName}>
            <Drawing draw={props.children} width={measuredWidth} height={plotHeight} />
          </ChartErrorBoundary>
        ) : null}
      </div>
      {props.status !== "loading" && frame.issues?.length ? (
        // the data issues on screen too, not only through onDataIssues: a count that opens to
        // the development warning's lines ("row 2 (cost): …", ten and "…and 5 more")
        <details className="seed-chart-issues">
          <summary>
            {frame.issues.length} data issue{frame.issues.length === 1 ? "" : "s"}: skipped or
            changed to draw
          </summary>
          <p>{describeIssues(props.chartName, frame.issues).replace(/^.*\n/, "")}</p>
        </details>
      ) : null}
      <p id={summaryId} className="seed-chart-sr-only">
        {props.status === "loading" ? `Loading ${props.title}` : props.summary}
      </p>
      <p
        ref={props.liveRegion}
        className="seed-chart-sr-only"
        aria-live="polite"
        aria-atomic="true"
      />
    </figure>
  );
}

/** Calls the draw function while rendering under the error boundary, so its throws are caught too. */
function Drawing(props: {
  draw: ChartFrameProps["children"];
  width: number;
  height: number;
}): ReactNode {
  return props.draw({ width: props.width, height: props.height });
}
