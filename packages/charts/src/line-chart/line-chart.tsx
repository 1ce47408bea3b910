import type { ComponentType } from "react";
import { Line, LineChart as RechartsLineChart } from "recharts";
import type { DownsampleMethod } from "../data/downsample";
import {
  CartesianChartBase,
  type CartesianRootProps,
  type ColumnarChartProps,
} from "../parts/cartesian";
import { ANIMATION_MS } from "../parts/environment";

export type CurveType = "linear" | "monotone" | "natural" | "step" | "stepBefore" | "stepAfter";

export interface LineChartProps<Row> extends ColumnarChartProps<Row> {
  /** How points are joined (default "monotone"). */
  curve?: CurveType;
  /** Draw across missing values instead of breaking the line (default false). */
  connectNulls?: boolean;
  /** Draw a dot on every point (default: only when there are few points). */
  dots?: boolean;
  /** Downsampling for series longer than the plot is wide (default "minmax-lttb": MinMaxLTTB). */
  downsample?: DownsampleMethod;
}

const Root = RechartsLineChart as unknown as ComponentType<CartesianRootProps>;

/** A line chart of one or more series over an index of dates, numbers or names. */
export function LineChart<Row>(props: LineChartProps<Row>) {
  const { curve = "monotone", connectNulls = false, dots, downsample = "minmax-lttb" } = props;
  return (
    <CartesianChartBase
      props={props}
      chartName="LineChart"
      noun="Line chart"
      Root={Root}
      downsample={downsample}
      bandIndex={false}
      vertical={false}
      stackOffset="none"
      stacked={false}
      reportChartClicks={true}
      valueAxisMin="auto"
      renderSeries={({ series, highlighted, animate }) =>
        series.map((s) => (
          <Line
            key={s.key}
            dataKey={s.dataKey}
            name={s.label}
            type={curve}
            stroke={s.color}
            strokeWidth={2}
            strokeOpacity={highlighted && highlighted !== s.key ? 0.2 : 1}
            dot={
              dots ??
              (Array.isArray(props.data) && props.data.length <= 24
                ? { r: 2.5, fill: s.color }
                : false)
            }
            connectNulls={connectNulls}
            isAnimationActive={animate}
            animationDuration={ANIMATION_MS}
          />
        ))
      }
    />
  );
}
