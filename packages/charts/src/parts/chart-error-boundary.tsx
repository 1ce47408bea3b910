import { Component, type ErrorInfo, type ReactNode } from "react";
import { EmptyState } from "./states";

interface ChartErrorBoundaryProps {
  chartName: string;
  children: ReactNode;
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
    // the caller's console is the only place the stack can go; the page shows the reason
    console.error(`${this.props.chartName} could not be drawn`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" data-testid="seed-chart-error" style={{ display: "contents" }}>
        <EmptyState message="This chart could not be drawn." reason={error.message || null} />
      </div>
    );
  }
}
