import { LabelList } from "recharts";
import { createNumberFormatter } from "../data/format";
import type { ResolvedSeries, ValueFormatter } from "../data/series";

/**
 * The formatter a bar's value label uses: the series' own, else the chart's, else the same
 * Intl default the tooltip and table use, so a value reads alike everywhere.
 */
export function barLabelFormatter(
  series: ResolvedSeries,
  valueFormatter: ValueFormatter | undefined,
  locale: string | undefined,
): (value: unknown) => string {
  const format =
    series.formatter ??
    valueFormatter ??
    createNumberFormatter(locale, { maximumFractionDigits: 2 });
  // gaps (null) and non-numbers get no label rather than a dash on the axis line
  return (value) => (typeof value === "number" && Number.isFinite(value) ? format(value) : "");
}

/**
 * Value labels of one bar series: past the bar's end, or inside it when bars are stacked (a
 * halo of the background colour keeps them readable on any fill).
 */
export function barValueLabels(options: {
  series: ResolvedSeries;
  horizontal: boolean;
  stacked: boolean;
  format: (value: unknown) => string;
}) {
  const { series, horizontal, stacked, format } = options;
  return (
    <LabelList
      dataKey={series.dataKey}
      position={stacked ? "center" : horizontal ? "right" : "top"}
      formatter={format}
      className="seed-chart-value-label"
      fill="var(--seed-chart-fg)"
      stroke="var(--seed-chart-bg)"
      strokeWidth={3}
      paintOrder="stroke"
      fontSize={12}
    />
  );
}
