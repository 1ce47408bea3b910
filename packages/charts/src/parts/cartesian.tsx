import { useCallback, useMemo, useRef, useState } from "react";
import { isColumnData, prepareColumnFrame } from "../data/columns";
import { columnRange, prepareCartesianFrame } from "../data/rows";
import { type ResolvedSeries, resolveSeries } from "../data/series";
import type { ChartValueEvent } from "../types";
import { CartesianPlot } from "./cartesian-plot";
import type { CartesianBaseProps } from "./cartesian-types";
import { ChartBoundary } from "./chart-error-boundary";
import { ChartFrame } from "./chart-frame";
import { usePrefersReducedMotion } from "./environment";
import { ChartLegend, LegendSkeleton } from "./legend";
import type { DrawnRow } from "./plot-rows";
import type { ChartTooltipItem } from "./tooltip";
import { formatSeriesValue, seriesLabels, useCartesianFormats } from "./use-cartesian-formats";
import { useDataIssues } from "./use-data-issues";
import { useSeriesToggle } from "./use-series-toggle";

export type {
  CartesianBaseProps,
  CartesianChartProps,
  CartesianRootProps,
  ColumnarChartProps,
  DrawnRow,
  SeriesRenderContext,
} from "./cartesian-types";

/** LineChart, AreaChart and BarChart: the body below, inside the chart's own error boundary. */
export function CartesianChartBase<Row>(base: CartesianBaseProps<Row>) {
  return (
    <ChartBoundary chartName={base.chartName} props={base.props}>
      <CartesianChartBody {...base} />
    </ChartBoundary>
  );
}

/** The body of LineChart, AreaChart and BarChart: data checks, downsampling, axes, legend, a11y. */
function CartesianChartBody<Row>({
  props,
  chartName,
  noun,
  Root,
  renderSeries,
  downsample,
  bandIndex,
  vertical,
  stackOffset,
  stacked,
  valueAxisMin,
  reportChartClicks,
  valueAxes,
}: CartesianBaseProps<Row>) {
  const {
    data,
    index,
    locale,
    timeZone = "UTC",
    grid = "horizontal",
    legend = "bottom",
    tooltip = true,
    xAxis,
    yAxis,
    valueFormatter,
    indexFormatter,
    onValueChange,
    onDataIssues,
  } = props;

  const allSeries = useMemo(() => resolveSeries(props.series), [props.series]);
  const keySignature = allSeries.map((s) => s.key).join("\u0000");
  const keys = useMemo(() => (keySignature ? keySignature.split("\u0000") : []), [keySignature]);
  const frame = useMemo(
    () =>
      isColumnData(data) && !bandIndex
        ? prepareColumnFrame(data, keys, props.indexType === "time")
        : prepareCartesianFrame(data, {
            index,
            keys,
            indexKind: props.indexType,
            sortByIndex: !bandIndex,
          }),
    [data, index, keys, props.indexType, bandIndex],
  );

  useDataIssues(chartName, frame.issues, onDataIssues);
  const { hidden, toggle, highlighted, setHighlighted } = useSeriesToggle(
    props.defaultHiddenSeries,
  );

  // zoom (line and area): the plot draws and downsamples only the chosen x range
  const [range, setRange] = useState<[number, number] | null>(null);
  const slice = props.zoom?.slice;
  const shown = useMemo(
    () => (range && slice ? slice(frame, range) : frame),
    [frame, range, slice],
  );

  const visible = useMemo(() => allSeries.filter((s) => !hidden.has(s.key)), [allSeries, hidden]);
  // keyed by a string so inline `series` arrays do not redo downsampling on every render
  const visibleSignature = visible.map((s) => s.key).join("\u0000");
  const visibleColumns = useMemo(
    () =>
      visibleSignature === ""
        ? []
        : visibleSignature
            .split("\u0000")
            .map((key) => shown.values[keys.indexOf(key)] as Float64Array),
    [visibleSignature, keys, shown],
  );

  const liveRegion = useRef<HTMLParagraphElement | null>(null);
  const activeRow = useRef<DrawnRow | null>(null);
  const reducedMotion = usePrefersReducedMotion();

  const { valueFormat, valueTickFormat, indexTickFormat, indexFullFormat } = useCartesianFormats({
    frame,
    locale,
    timeZone,
    vertical,
    percent: stackOffset === "expand",
    xAxis,
    yAxis,
    valueFormatter,
    indexFormatter,
  });

  const status = props.loading ? "loading" : frame.emptyReason ? "empty" : "ready";
  const title = props.title ?? `${noun} of ${seriesLabels(allSeries) || "no series"}`;
  const indexLabel = props.indexLabel ?? index;

  const summary = useMemo(() => {
    if (props.description) return props.description;
    if (frame.emptyReason) return `${title}: ${frame.emptyReason}.`;
    const count = frame.xs.length;
    const firstLabel = frame.categories
      ? (frame.categories[0] ?? "")
      : indexFullFormat(frame.xs[0] ?? 0);
    const lastLabel = frame.categories
      ? (frame.categories[count - 1] ?? "")
      : indexFullFormat(frame.xs[count - 1] ?? 0);
    const ranges = visible.slice(0, 4).flatMap((s) => {
      const range = columnRange(frame.values[allSeries.indexOf(s)] as Float64Array);
      if (!range) return [];
      return [
        `${s.label} from ${formatSeriesValue(s, valueFormat, range[0])} to ${formatSeriesValue(s, valueFormat, range[1])}`,
      ];
    });
    return `${noun} of ${seriesLabels(visible) || "no visible series"} by ${indexLabel}, ${count} ${
      count === 1 ? "point" : "points"
    } from ${firstLabel} to ${lastLabel}${ranges.length ? `; ${ranges.join(", ")}` : ""}.`;
  }, [
    props.description,
    frame,
    title,
    indexFullFormat,
    visible,
    allSeries,
    valueFormat,
    noun,
    indexLabel,
  ]);

  const height = props.height ?? 300;
  const legendNode =
    status === "loading" ? (
      <LegendSkeleton count={allSeries.length} />
    ) : (
      <ChartLegend
        entries={allSeries}
        hidden={hidden}
        onToggle={toggle}
        onSelect={props.onLegendSelect}
        onHighlight={setHighlighted}
      />
    );

  const tooltipItems = useCallback(
    (drawn: DrawnRow): ChartTooltipItem[] =>
      visible.map((s) => {
        const raw = drawn[s.dataKey];
        const value = typeof raw === "number" ? raw : null;
        return {
          key: s.key,
          label: s.label,
          color: s.color,
          value,
          formattedValue: value === null ? "–" : formatSeriesValue(s, valueFormat, value),
        };
      }),
    [visible, valueFormat],
  );

  // columns have no row objects: the caller gets one built from the drawn point
  const rowOf = useCallback(
    (drawn: DrawnRow): Row =>
      Array.isArray(data)
        ? (data[drawn.__row] as Row)
        : (Object.fromEntries([
            [index, drawn.__x],
            ...allSeries.map((s) => [s.key, drawn[s.dataKey]]),
          ]) as Row),
    [data, index, allSeries],
  );

  const report = useCallback(
    (drawn: DrawnRow | undefined | null, series?: ResolvedSeries) => {
      if (!onValueChange) return;
      if (!drawn) {
        onValueChange(null);
        return;
      }
      const event: ChartValueEvent<Row> = {
        row: rowOf(drawn),
        rowIndex: drawn.__row,
      };
      if (series) {
        event.seriesKey = series.key;
        const value = drawn[series.dataKey];
        event.value = typeof value === "number" ? value : null;
      }
      onValueChange(event);
    },
    [onValueChange, rowOf],
  );

  const onPlotKeyDown = useCallback(
    (event: KeyboardEvent) => {
      if (event.key === "Enter" && activeRow.current) report(activeRow.current);
    },
    [report],
  );

  return (
    <ChartFrame
      chartName={chartName}
      title={title}
      summary={summary}
      status={status}
      chartProps={props}
      frame={frame}
      legendPosition={legend}
      legend={legendNode}
      height={height}
      liveRegion={liveRegion}
      onPlotKeyDown={onValueChange ? onPlotKeyDown : undefined}
    >
      {({ width, height: plotHeight }) => (
        <CartesianPlot
          timeZone={timeZone}
          frame={shown}
          visible={visible}
          visibleColumns={visibleColumns}
          width={width}
          height={plotHeight}
          downsample={props.indexType === "category" ? "none" : downsample}
          Root={Root}
          title={title}
          summary={summary}
          vertical={vertical}
          bandIndex={bandIndex}
          stackOffset={stackOffset}
          stacked={stacked}
          grid={grid}
          xAxis={xAxis}
          yAxis={yAxis}
          indexLabel={indexLabel}
          valueAxisMin={valueAxisMin}
          indexTickFormat={indexTickFormat}
          indexFullFormat={indexFullFormat}
          valueTickFormat={valueTickFormat}
          valueFormat={valueFormat}
          tooltip={tooltip}
          tooltipItems={tooltipItems}
          liveRegion={liveRegion}
          activeRow={activeRow}
          rowOf={rowOf}
          animate={(props.animate ?? true) && !reducedMotion}
          highlighted={highlighted}
          renderSeries={renderSeries}
          report={report}
          clickable={reportChartClicks && onValueChange !== undefined}
          syncId={props.syncId}
          annotations={props.annotations}
          valueAxes={valueAxes}
          zoom={
            props.zoom && !bandIndex && frame.xs.length > 1 ? (
              <props.zoom
                range={range}
                onRange={setRange}
                extent={[frame.xs[0] as number, frame.xs[frame.xs.length - 1] as number]}
              />
            ) : null
          }
        />
      )}
    </ChartFrame>
  );
}
