import { Component, type CSSProperties, type ErrorInfo, type ReactNode } from "react";
import type { BaseChartProps } from "../types";
import { EmptyState } from "./states";

declare const process: { env: Record<string, string | undefined> };

interface ChartErrorBoundaryProps {
  chartName: string;
  children: ReactNode;
  /** A new value (e.g. new data) clears a caught error, so the chart tries again. */
  resetKey?: unknown;
  /** Wraps the error state, e.g. in a box of the chart's size. */
  wrap?: (errorState: ReactNode) => ReactNode;
}

/** Keeps a chart that throws while drawing to its own plot box, so the rest of the page works. */
export class ChartErrorBoundary extends Component<
  ChartErrorBoundaryProps,
  { error: Error | null }
> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // dev only, written out so bundlers drop it: React's own onCaughtError logs it in production
    if (typeof process !== "undefined" && process.env.NODE_ENV !== "production") {
      console.error(`${this.props.chartName} could not be drawn`, error, info.componentStack);
    }
  }

  override componentDidUpdate(previous: ChartErrorBoundaryProps): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) {
      this.setState({ error: null });
    }
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const errorState = (
      <div role="alert" data-testid="seed-chart-error" style={{ display: "contents" }}>
        <EmptyState message="This chart could not be drawn." reason={error.message || null} />
      </div>
    );
    return this.props.wrap ? this.props.wrap(errorState) : errorState;
  }
}

/**
 * The outer boundary of every chart: a throw anywhere in the chart (data checks, summary,
 * legend, formatters), not only while drawing the plot, shows the error state in a figure of
 * the chart's size. The frame's inner boundary keeps legend and summary when only drawing fails.
 */
export function ChartBoundary<Row>({
  chartName,
  props,
  children,
}: {
  chartName: string;
  props: Omit<BaseChartProps<Row>, "data"> & { data: unknown };
  children: ReactNode;
}) {
  const plotStyle: CSSProperties = props.aspectRatio
    ? { aspectRatio: String(props.aspectRatio) }
    : { height: props.height ?? 300 };
  if (props.width !== undefined) plotStyle.width = props.width;
  return (
    <ChartErrorBoundary
      chartName={chartName}
      resetKey={props.data}
      wrap={(errorState) => (
        <figure
          className={props.className ? `seed-chart ${props.className}` : "seed-chart"}
          style={props.style}
          data-chart={chartName}
          aria-label={props.title ?? chartName}
        >
          <div className="seed-chart-plot" style={plotStyle}>
            {errorState}
          </div>
        </figure>
      )}
    >
      {children}
    </ChartErrorBoundary>
  );
}
