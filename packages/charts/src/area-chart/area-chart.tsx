import { type ComponentType, useId } from "react";
import { Area, AreaChart as RechartsAreaChart } from "recharts";
import type { DownsampleMethod } from "../data/downsample";
import {
  CartesianChartBase,
  type CartesianRootProps,
  type ColumnarChartProps,
} from "../parts/cartesian";
import { ANIMATION_MS } from "../parts/environment";

export type AreaCurveType = "linear" | "monotone" | "natural" | "step" | "stepBefore" | "stepAfter";

export interface AreaChartProps<Row> extends ColumnarChartProps<Row> {
  /** How points are joined (default "monotone"). */
  curve?: AreaCurveType;
  /** Draw across missing values instead of breaking the area (default false). */
  connectNulls?: boolean;
  /** "stacked" piles series up; "percent" stacks them to 100% (default "none"). */
  stack?: "none" | "stacked" | "percent";
  /** Fill with a vertical gradient fading to transparent (default true). */
  gradient?: boolean;
  /** Downsampling for series longer than the plot is wide (default "minmax-lttb": MinMaxLTTB). */
  downsample?: DownsampleMethod;
}

const Root = RechartsAreaChart as unknown as ComponentType<CartesianRootProps>;

/** An area chart: overlaid, stacked or 100%-stacked series, with optional gradient fill. */
export function AreaChart<Row>(props: AreaChartProps<Row>) {
  const {
    curve = "monotone",
    connectNulls = false,
    stack = "none",
    gradient = true,
    downsample = "minmax-lttb",
  } = props;
  const gradientId = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  return (
    <CartesianChartBase
      props={props}
      chartName="AreaChart"
      noun={
        stack === "percent"
          ? "100% stacked area chart"
          : stack === "stacked"
            ? "Stacked area chart"
            : "Area chart"
      }
      Root={Root}
      downsample={downsample}
      bandIndex={false}
      vertical={false}
      stackOffset={stack === "percent" ? "expand" : "none"}
      stacked={stack !== "none"}
      reportChartClicks={true}
      valueAxisMin={0}
      renderSeries={({ series, highlighted, animate }) => (
        <>
          {gradient ? (
            <defs>
              {series.map((s) => (
                <linearGradient
                  key={s.key}
                  id={`${gradientId}-${s.dataKey}`}
                  x1="0"
                  y1="0"
                  x2="0"
                  y2="1"
                >
                  <stop
                    offset="5%"
                    stopColor={s.color}
                    stopOpacity={stack === "none" ? 0.4 : 0.7}
                  />
                  <stop
                    offset="95%"
                    stopColor={s.color}
                    stopOpacity={stack === "none" ? 0.02 : 0.3}
                  />
                </linearGradient>
              ))}
            </defs>
          ) : null}
          {series.map((s) => {
            const dimmed = highlighted !== null && highlighted !== s.key;
            return (
              <Area
                key={s.key}
                dataKey={s.dataKey}
                name={s.label}
                type={curve}
                stroke={s.color}
                strokeWidth={2}
                strokeOpacity={dimmed ? 0.2 : 1}
                fill={gradient ? `url(#${gradientId}-${s.dataKey})` : s.color}
                fillOpacity={dimmed ? 0.08 : gradient ? 1 : 0.3}
                stackId={stack === "none" ? undefined : "stack"}
                connectNulls={connectNulls}
                dot={false}
                isAnimationActive={animate}
                animationDuration={ANIMATION_MS}
              />
            );
          })}
        </>
      )}
    />
  );
}
