import { type ComponentType, useMemo } from "react";
import { Bar, ComposedChart, Line, YAxis } from "recharts";
import type { CurveType } from "../line-chart/line-chart";
import {
  CartesianChartBase,
  type CartesianChartProps,
  type CartesianRootProps,
  type DrawnRow,
} from "../parts/cartesian";
import { valueAxisOf } from "../parts/cartesian-plot";
import type { ValueAxes } from "../parts/cartesian-types";
import { ANIMATION_MS } from "../parts/environment";
import type { AxisOptions } from "../types";
import { type ComboSeries, comboSeriesKinds } from "./kinds";

export type { ComboSeries, ComboSeriesConfig } from "./kinds";

export interface ComboChartProps<Row> extends Omit<CartesianChartProps<Row>, "series"> {
  /** Series to draw: bars and lines over one index, each on the left or the right axis. */
  series: readonly ComboSeries<Row>[];
  /** The right-hand value axis, drawn when a series has `axis: "right"`. */
  y2Axis?: AxisOptions;
  /** How a line's points are joined (default "monotone"). */
  curve?: CurveType;
  /** Draw lines across missing values instead of breaking them (default false). */
  connectNulls?: boolean;
  /** Corner radius of the bars' top, px (default 3). */
  radius?: number;
}

const Root = ComposedChart as unknown as ComponentType<CartesianRootProps>;

/** Both value axes start at 0 unless told (bars stand on it). */
const VALUE_AXIS_MIN = 0;

/** Recharts' id of the right-hand value axis (the left one keeps Recharts' default, 0). */
const RIGHT_AXIS_ID = "right";

/**
 * The right-hand axis of the series on it, scaled to their drawn values and written in their
 * first one's format unless `options.tickFormatter` says otherwise; the left axis measures the
 * rest, and steps aside (the grid following the right one) when none of the rest is shown.
 */
function rightAxisOf(
  keys: ReadonlySet<string>,
  options: AxisOptions | undefined,
  leftOptions: AxisOptions | undefined,
): ValueAxes {
  return (visible, drawnColumns, height, valueTickFormat) => {
    const onRight = visible.map((s) => keys.has(s.key));
    const rightSeries = visible.filter((_, i) => onRight[i]);
    const leftColumns = drawnColumns.filter((_, i) => !onRight[i]);
    const rightColumns = drawnColumns.filter((_, i) => onRight[i]);
    if (rightSeries.length === 0) return [leftColumns, leftOptions, null];
    const format = rightSeries[0]?.formatter;
    const axis = valueAxisOf(
      rightColumns,
      options,
      options?.tickFormatter ?? (format ? (value) => format(+value) : valueTickFormat),
      VALUE_AXIS_MIN,
      height,
      false,
      false,
      false,
    );
    const node = (
      <YAxis
        {...axis.props}
        yAxisId={RIGHT_AXIS_ID}
        orientation="right"
        width={options?.width ?? axis.width ?? "auto"}
      />
    );
    // nothing shown on the left: the left axis steps aside, scaled as the right one so the grid
    // (which follows it) lines up with the right axis' ticks
    return leftColumns.length > 0
      ? [leftColumns, leftOptions, node]
      : [rightColumns, { ...options, show: false, width: 0 }, node];
  };
}

/**
 * Bars and lines over one index (dates, numbers or names), e.g. revenue as bars and margin as a
 * line: each series on the left value axis or on a second one on the right, with its own scale
 * and format. Bars sit side by side in each band; lines join the bands' centres.
 */
export function ComboChart<Row>(props: ComboChartProps<Row>) {
  const { curve = "monotone", connectNulls = false, radius = 3, y2Axis } = props;
  const kinds = useMemo(() => comboSeriesKinds(props.series), [props.series]);
  const valueAxes = useMemo(() => {
    const rightKeys = new Set(
      [...kinds].filter(([, kind]) => kind.axis === "right").map(([key]) => key),
    );
    return rightKeys.size > 0 ? rightAxisOf(rightKeys, y2Axis, props.yAxis) : undefined;
  }, [kinds, y2Axis, props.yAxis]);
  const few = Array.isArray(props.data) && props.data.length <= 24;
  return (
    <CartesianChartBase
      props={props as CartesianChartProps<Row>}
      chartName="ComboChart"
      noun="Combo chart"
      Root={Root}
      downsample="none"
      bandIndex
      vertical={false}
      stackOffset="none"
      stacked={false}
      reportChartClicks
      valueAxisMin={VALUE_AXIS_MIN}
      valueAxes={valueAxes}
      renderSeries={({ series, highlighted, animate, onSeriesClick }) =>
        // bars first, so lines are drawn over them
        [...series]
          .sort(
            (a, b) =>
              Number(kinds.get(a.key)?.type === "line") - Number(kinds.get(b.key)?.type === "line"),
          )
          .map((s) => {
            const kind = kinds.get(s.key) ?? { type: "bar", axis: "left" };
            const yAxisId = kind.axis === "right" ? RIGHT_AXIS_ID : 0;
            const faded = highlighted !== null && highlighted !== s.key;
            return kind.type === "bar" ? (
              <Bar
                key={s.key}
                dataKey={s.dataKey}
                name={s.label}
                yAxisId={yAxisId}
                fill={s.color}
                fillOpacity={faded ? 0.25 : 1}
                radius={[radius, radius, 0, 0]}
                maxBarSize={48}
                isAnimationActive={animate}
                animationDuration={ANIMATION_MS}
                onClick={(entry: { payload?: unknown }) =>
                  onSeriesClick(s, entry.payload as DrawnRow | undefined)
                }
              />
            ) : (
              <Line
                key={s.key}
                dataKey={s.dataKey}
                name={s.label}
                yAxisId={yAxisId}
                type={curve}
                stroke={s.color}
                strokeWidth={2}
                strokeOpacity={faded ? 0.2 : 1}
                dot={few ? { r: 2.5, fill: s.color } : false}
                connectNulls={connectNulls}
                isAnimationActive={animate}
                animationDuration={ANIMATION_MS}
              />
            );
          })
      }
    />
  );
}
