import type { ReactNode } from "react";

/** One series line in a tooltip. */
export interface ChartTooltipItem {
  key: string;
  label: string;
  color: string;
  value: number | null;
  formattedValue: string;
}

/** What a custom tooltip render prop receives. */
export interface ChartTooltipContext<Row> {
  /** The index value (or slice name), formatted. */
  label: string;
  /** The caller's row behind the point (the first row of an "Other" slice). */
  row: Row;
  /** Position of that row in the caller's data array. */
  rowIndex: number;
  items: ChartTooltipItem[];
}

/** Custom tooltip content; return null to show nothing. */
export type ChartTooltipRender<Row> = (context: ChartTooltipContext<Row>) => ReactNode;

/** The default tooltip: a label and one line per series, styled by the theme tokens. */
export function TooltipPanel({
  label,
  items,
}: {
  label: string;
  items: readonly ChartTooltipItem[];
}) {
  return (
    <div className="seed-chart-tooltip">
      <p className="seed-chart-tooltip-label">{label}</p>
      <dl className="seed-chart-tooltip-list">
        {items.map((item) => (
          <div key={item.key} className="seed-chart-tooltip-row">
            <dt>
              <span className="seed-chart-tooltip-dot" style={{ background: item.color }} />
              <span>{item.label}</span>
            </dt>
            <dd>{item.formattedValue}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The sentence a screen reader hears for a tooltip. */
export function tooltipSentence(label: string, items: readonly ChartTooltipItem[]): string {
  return `${label}: ${items.map((item) => `${item.label} ${item.formattedValue}`).join(", ")}`;
}
