import type { ComponentType } from "react";
import { Bar, BarChart as RechartsBarChart } from "recharts";
import {
  CartesianChartBase,
  type CartesianChartProps,
  type CartesianRootProps,
  type DrawnRow,
} from "../parts/cartesian";
import { ANIMATION_MS } from "../parts/environment";
import { barLabelFormatter, barValueLabels } from "./value-labels";

export interface BarChartProps<Row> extends CartesianChartProps<Row> {
  /** "stacked" piles series up; "percent" stacks them to 100% (default "none": side by side). */
  stack?: "none" | "stacked" | "percent";
  /** Bars grow left to right, with the index on the vertical axis (default false). */
  horizontal?: boolean;
  /** Corner radius of the bars' outer end, px (default 3). */
  radius?: number;
  /** Writes each bar's value at its end (inside the bar when stacked), formatted like the tooltip. */
  valueLabels?: boolean;
}

const Root = RechartsBarChart as unknown as ComponentType<CartesianRootProps>;

/** A bar chart: grouped, stacked or 100%-stacked, vertical or horizontal bars. */
export function BarChart<Row>(props: BarChartProps<Row>) {
  const { stack = "none", horizontal = false, radius = 3, valueLabels = false } = props;
  const noun =
    stack === "percent"
      ? "100% stacked bar chart"
      : stack === "stacked"
        ? "Stacked bar chart"
        : "Bar chart";
  return (
    <CartesianChartBase
      props={{ grid: horizontal ? "vertical" : "horizontal", ...props }}
      chartName="BarChart"
      noun={noun}
      Root={Root}
      downsample="none"
      bandIndex
      vertical={horizontal}
      stackOffset={stack === "percent" ? "expand" : "none"}
      stacked={stack !== "none"}
      reportChartClicks={false}
      valueAxisMin={0}
      renderSeries={({ series, highlighted, animate, onSeriesClick }) =>
        series.map((s, i) => {
          const top = stack === "none" || i === series.length - 1;
          const corner = top ? radius : 0;
          return (
            <Bar
              key={s.key}
              dataKey={s.dataKey}
              name={s.label}
              fill={s.color}
              fillOpacity={highlighted !== null && highlighted !== s.key ? 0.25 : 1}
              stackId={stack === "none" ? undefined : "stack"}
              radius={horizontal ? [0, corner, corner, 0] : [corner, corner, 0, 0]}
              maxBarSize={48}
              isAnimationActive={animate}
              animationDuration={ANIMATION_MS}
              onClick={(entry: { payload?: unknown }) =>
                onSeriesClick(s, entry.payload as DrawnRow | undefined)
              }
            >
              {valueLabels
                ? barValueLabels({
                    series: s,
                    horizontal,
                    stacked: stack !== "none",
                    format: barLabelFormatter(s, props.valueFormatter, props.locale),
                  })
                : null}
            </Bar>
          );
        })
      }
    />
  );
}
