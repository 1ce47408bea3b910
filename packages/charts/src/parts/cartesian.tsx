import { type ComponentType, type ReactNode, useCallback, useMemo, useRef } from "react";
import { CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { type DownsampleMethod, selectDrawnPositions } from "../data/downsample";
import {
  createFullTimeFormatter,
  createNumberFormatter,
  createTimeFormatter,
  type IndexKind,
  timeFormatOptions,
  timeTicks,
} from "../data/format";
import { type CartesianFrame, prepareCartesianFrame } from "../data/rows";
import {
  type ResolvedSeries,
  type RowKey,
  resolveSeries,
  type Series,
  type ValueFormatter,
} from "../data/series";
import type { AxisOptions, BaseChartProps, ChartValueEvent, GridLines } from "../types";
import { TooltipAnnouncer } from "./announcer";
import { ChartFrame } from "./chart-frame";
import { DataTable } from "./data-table";
import { usePrefersReducedMotion } from "./environment";
import { ChartLegend, LegendSkeleton } from "./legend";
import { buildDrawnRows, columnRange, type DrawnRow } from "./plot-rows";
import { type ChartTooltipItem, TooltipPanel, tooltipSentence } from "./tooltip";
import { useDataIssues } from "./use-data-issues";
import { useSeriesToggle } from "./use-series-toggle";

/** Props shared by LineChart, AreaChart and BarChart. */
export interface CartesianChartProps<Row> extends BaseChartProps<Row> {
  /** Row key of the x values (y values for horizontal bars): Dates, ISO strings, numbers or names. */
  index: RowKey<Row>;
  /** Series to draw, each a row key or `{ key, label, color, formatter }`. */
  series: readonly Series<Row>[];
  /** Force how the index is read instead of guessing from its values. */
  indexType?: IndexKind;
  /** Name of the index in the data table and summary (default: the index key). */
  indexLabel?: string;
  /** Formats index values on the axis and in the tooltip. */
  indexFormatter?: (value: number | string) => string;
  /** IANA time zone for dates (default "UTC", so server and browser agree). */
  timeZone?: string;
  xAxis?: AxisOptions;
  yAxis?: AxisOptions;
  /** Which grid lines to draw (default "horizontal"). */
  grid?: GridLines;
  /** Series keys hidden at first; the legend toggles them. */
  defaultHiddenSeries?: readonly RowKey<Row>[];
}

export type { DrawnRow };

export interface SeriesRenderContext {
  series: readonly ResolvedSeries[];
  highlighted: string | null;
  animate: boolean;
  onSeriesClick: (series: ResolvedSeries, drawn: DrawnRow | undefined) => void;
}

/** The props our cartesian bases hand to the Recharts root chart. */
export interface CartesianRootProps {
  data: DrawnRow[];
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  accessibilityLayer: boolean;
  title: string;
  desc: string;
  "aria-label": string;
  layout?: "horizontal" | "vertical";
  stackOffset?: "none" | "expand";
  throttledEvents?: readonly string[];
  onClick?: (state: { activeTooltipIndex?: number | string | null | undefined }) => void;
  children: ReactNode;
}

export interface CartesianBaseProps<Row> {
  props: CartesianChartProps<Row>;
  chartName: "LineChart" | "AreaChart" | "BarChart";
  /** "Line chart", used in the default title and summary. */
  noun: string;
  Root: ComponentType<CartesianRootProps>;
  renderSeries: (context: SeriesRenderContext) => ReactNode;
  downsample: DownsampleMethod;
  /** Bars: a band axis for the index, whatever its kind. */
  bandIndex: boolean;
  /** Horizontal bars: index on the vertical axis. */
  vertical: boolean;
  stackOffset: "none" | "expand";
  /** Default lower bound of the value axis. */
  valueAxisMin: number | "auto";
  /** Clicks anywhere over a point report it (lines, areas); bars report their own clicks. */
  reportChartClicks: boolean;
}

const NO_THROTTLING: readonly string[] = [];
const MARGIN = { top: 8, right: 16, bottom: 4, left: 4 };
const DAY = 86_400_000;
/** Above this many drawn points, animation is skipped whatever the props say. */
const ANIMATION_LIMIT = 600;
/** Most rows the hidden data table lists; longer drawings are reduced with LTTB again. */
const TABLE_LIMIT = 200;

function formatSeriesValue(series: ResolvedSeries, fallback: ValueFormatter, value: number) {
  return (series.formatter ?? fallback)(value);
}

function seriesLabels(series: readonly ResolvedSeries[]): string {
  const labels = series.map((s) => s.label);
  if (labels.length <= 1) return labels.join("");
  return `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
}

/** The body of LineChart, AreaChart and BarChart: data checks, downsampling, axes, legend, a11y. */
export function CartesianChartBase<Row>({
  props,
  chartName,
  noun,
  Root,
  renderSeries,
  downsample,
  bandIndex,
  vertical,
  stackOffset,
  valueAxisMin,
  reportChartClicks,
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
      prepareCartesianFrame(data, {
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

  const visible = useMemo(() => allSeries.filter((s) => !hidden.has(s.key)), [allSeries, hidden]);
  // keyed by a string so inline `series` arrays do not redo downsampling on every render
  const visibleSignature = visible.map((s) => s.key).join("\u0000");
  const visibleColumns = useMemo(
    () =>
      visibleSignature === ""
        ? []
        : visibleSignature
            .split("\u0000")
            .map((key) => frame.values[keys.indexOf(key)] as Float64Array),
    [visibleSignature, keys, frame],
  );

  const liveRegion = useRef<HTMLParagraphElement | null>(null);
  const activeRow = useRef<DrawnRow | null>(null);
  const reducedMotion = usePrefersReducedMotion();

  // number formatting
  const valueFormat = useMemo(
    () => valueFormatter ?? createNumberFormatter(locale, { maximumFractionDigits: 2 }),
    [valueFormatter, locale],
  );
  const percent = stackOffset === "expand";
  const valueTickFormat = useMemo(() => {
    const custom = (vertical ? xAxis : yAxis)?.tickFormatter;
    if (custom) return custom;
    if (percent) {
      const format = createNumberFormatter(locale, { style: "percent", maximumFractionDigits: 0 });
      return (v: number | string) => format(Number(v));
    }
    if (valueFormatter) return (v: number | string) => valueFormatter(Number(v));
    const format = createNumberFormatter(locale, { notation: "compact", maximumFractionDigits: 1 });
    return (v: number | string) => format(Number(v));
  }, [vertical, xAxis, yAxis, percent, locale, valueFormatter]);

  // index formatting: short for ticks, full for tooltip and table
  const { indexTickFormat, indexFullFormat } = useMemo(() => {
    if (indexFormatter) return { indexTickFormat: indexFormatter, indexFullFormat: indexFormatter };
    if (frame.kind === "time") {
      const first = frame.xs[0] ?? 0;
      const last = frame.xs[frame.xs.length - 1] ?? 0;
      // whole UTC days (ISO dates like 2024-01-31) never show a time of day
      let dateOnly = timeZone === "UTC";
      for (let i = 0; dateOnly && i < Math.min(frame.xs.length, 64); i++) {
        if ((frame.xs[i] as number) % DAY !== 0) dateOnly = false;
      }
      const span = dateOnly ? Math.max(last - first, 2 * DAY) : last - first;
      const tick = createTimeFormatter(locale, timeFormatOptions(span, timeZone));
      const full = createFullTimeFormatter(locale, timeZone, !dateOnly);
      return {
        indexTickFormat: (v: number | string) => tick(Number(v)),
        indexFullFormat: (v: number | string) => full(Number(v)),
      };
    }
    if (frame.kind === "number") {
      const format = createNumberFormatter(locale);
      return {
        indexTickFormat: (v: number | string) => format(Number(v)),
        indexFullFormat: (v: number | string) => format(Number(v)),
      };
    }
    return { indexTickFormat: String, indexFullFormat: String };
  }, [indexFormatter, frame, locale, timeZone]);

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
  const describeDrawn = useCallback(
    (drawn: DrawnRow) => tooltipSentence(indexFullFormat(drawn.__x), tooltipItems(drawn)),
    [indexFullFormat, tooltipItems],
  );

  const report = useCallback(
    (drawn: DrawnRow | undefined | null, series?: ResolvedSeries) => {
      if (!onValueChange) return;
      if (!drawn) {
        onValueChange(null);
        return;
      }
      const event: ChartValueEvent<Row> = {
        row: (data as Row[])[drawn.__row] as Row,
        rowIndex: drawn.__row,
      };
      if (series) {
        event.seriesKey = series.key;
        const value = drawn[series.dataKey];
        event.value = typeof value === "number" ? value : null;
      }
      onValueChange(event);
    },
    [onValueChange, data],
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
      emptyMessage={props.emptyMessage ?? "No data to display"}
      emptyReason={frame.emptyReason}
      legendPosition={legend}
      legend={legendNode}
      height={height}
      aspectRatio={props.aspectRatio}
      width={props.width}
      initialWidth={props.initialWidth ?? 640}
      className={props.className}
      style={props.style}
      liveRegion={liveRegion}
      onPlotKeyDown={onValueChange ? onPlotKeyDown : undefined}
    >
      {({ width, height: plotHeight }) => (
        <CartesianPlot
          frame={frame}
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
          describeDrawn={describeDrawn}
          liveRegion={liveRegion}
          activeRow={activeRow}
          data={data}
          animate={(props.animate ?? true) && !reducedMotion}
          highlighted={highlighted}
          renderSeries={renderSeries}
          report={report}
          clickable={reportChartClicks && onValueChange !== undefined}
        />
      )}
    </ChartFrame>
  );
}

interface CartesianPlotProps<Row> {
  frame: CartesianFrame;
  visible: readonly ResolvedSeries[];
  visibleColumns: readonly Float64Array[];
  width: number;
  height: number;
  downsample: DownsampleMethod;
  Root: ComponentType<CartesianRootProps>;
  title: string;
  summary: string;
  vertical: boolean;
  bandIndex: boolean;
  stackOffset: "none" | "expand";
  grid: GridLines;
  xAxis: AxisOptions | undefined;
  yAxis: AxisOptions | undefined;
  indexLabel: string;
  valueAxisMin: number | "auto";
  indexTickFormat: (value: number | string) => string;
  indexFullFormat: (value: number | string) => string;
  valueTickFormat: (value: number | string) => string;
  valueFormat: ValueFormatter;
  tooltip: CartesianChartProps<Row>["tooltip"];
  tooltipItems: (drawn: DrawnRow) => ChartTooltipItem[];
  describeDrawn: (drawn: DrawnRow) => string;
  liveRegion: { current: HTMLParagraphElement | null };
  activeRow: { current: DrawnRow | null };
  data: readonly Row[];
  animate: boolean;
  highlighted: string | null;
  renderSeries: (context: SeriesRenderContext) => ReactNode;
  report: (drawn: DrawnRow | undefined | null, series?: ResolvedSeries) => void;
  clickable: boolean;
}

function CartesianPlot<Row>(p: CartesianPlotProps<Row>) {
  const { frame, visible, visibleColumns, width, height, vertical } = p;
  const indexAxis = vertical ? p.yAxis : p.xAxis;
  const valueAxis = vertical ? p.xAxis : p.yAxis;
  const valueAxisWidth = valueAxis?.width ?? (vertical ? undefined : 56);
  // about one point per pixel of plot width
  const threshold = Math.max(32, Math.round(width - (valueAxisWidth ?? 56) - 24));

  const drawn = useMemo(() => {
    const positions =
      p.downsample === "none"
        ? null
        : selectDrawnPositions(frame.xs, visibleColumns, threshold, p.downsample);
    return buildDrawnRows(frame, positions);
  }, [frame, visibleColumns, threshold, p.downsample]);

  // a screen-reader table of thousands of rows helps nobody and slows every page; keep the shape
  const tableRows = useMemo(() => {
    if (drawn.length <= TABLE_LIMIT) return drawn;
    const xs = drawn.map((_, i) => i);
    const columns = visible.map((s) =>
      drawn.map((row) => {
        const v = row[s.dataKey];
        return typeof v === "number" ? v : Number.NaN;
      }),
    );
    const picked = selectDrawnPositions(xs, columns, TABLE_LIMIT, "lttb");
    return picked ? picked.map((i) => drawn[i] as DrawnRow) : drawn;
  }, [drawn, visible]);

  const numericIndex = !p.bandIndex && frame.kind !== "category";
  const ticks = useMemo(() => {
    if (!numericIndex || frame.kind !== "time" || frame.xs.length === 0) return undefined;
    const span = vertical ? height : width;
    return timeTicks(
      frame.xs[0] as number,
      frame.xs[frame.xs.length - 1] as number,
      Math.max(2, Math.floor(span / 90)),
    );
  }, [numericIndex, frame, vertical, width, height]);

  const animate =
    p.animate && drawn.length <= ANIMATION_LIMIT && frame.xs.length <= 5 * ANIMATION_LIMIT;
  const showGridH = p.grid === "horizontal" || p.grid === "both";
  const showGridV = p.grid === "vertical" || p.grid === "both";

  const renderTooltip = useCallback(
    ({ active, payload }: { active?: boolean; payload?: readonly { payload?: unknown }[] }) => {
      const row = payload?.[0]?.payload as DrawnRow | undefined;
      if (!active || !row) return null;
      const items = p.tooltipItems(row);
      const label = p.indexFullFormat(row.__x);
      if (typeof p.tooltip === "function") {
        return p.tooltip({
          label,
          row: p.data[row.__row] as Row,
          rowIndex: row.__row,
          items,
        });
      }
      return <TooltipPanel label={label} items={items} />;
    },
    [p.tooltipItems, p.indexFullFormat, p.tooltip, p.data],
  );

  const indexDomain = numericIndex ? (["dataMin", "dataMax"] as const) : undefined;
  const valueDomain: [number | string, number | string] =
    p.stackOffset === "expand"
      ? [0, 1]
      : [valueAxis?.min ?? p.valueAxisMin, valueAxis?.max ?? "auto"];

  const indexAxisProps = {
    dataKey: "__x",
    type: numericIndex ? ("number" as const) : ("category" as const),
    domain: indexDomain as never,
    ticks,
    hide: indexAxis?.show === false,
    tickFormatter: indexAxis?.tickFormatter ?? p.indexTickFormat,
    label: indexAxis?.label
      ? {
          value: indexAxis.label,
          position: vertical ? ("insideLeft" as const) : ("insideBottom" as const),
          offset: 0,
          angle: vertical ? -90 : 0,
        }
      : undefined,
    height: !vertical && indexAxis?.label ? 44 : undefined,
    minTickGap: 16,
    // The first and last category always keep their label (the demo's first bar lost it).
    interval: "preserveStartEnd" as const,
    allowDuplicatedCategory: false,
  };
  const valueAxisProps = {
    type: "number" as const,
    domain: valueDomain as never,
    hide: valueAxis?.show === false,
    tickFormatter: p.valueTickFormat,
    label: valueAxis?.label
      ? {
          value: valueAxis.label,
          position: vertical ? ("insideBottom" as const) : ("insideLeft" as const),
          angle: vertical ? 0 : -90,
          offset: vertical ? 0 : 10,
        }
      : undefined,
    allowDataOverflow: false,
  };

  return (
    <>
      <p.Root
        data={drawn}
        width={width}
        height={height}
        margin={MARGIN}
        accessibilityLayer
        title={p.title}
        desc={p.summary}
        aria-label={`${p.title}. Use the arrow keys to move between points.`}
        layout={vertical ? "vertical" : "horizontal"}
        stackOffset={p.stackOffset}
        // the drawn data is small, so handle the pointer at once instead of on the next frame
        throttledEvents={NO_THROTTLING}
        onClick={
          p.clickable
            ? (state) => {
                const i = Number(state.activeTooltipIndex);
                p.report(Number.isInteger(i) ? drawn[i] : null);
              }
            : undefined
        }
      >
        {p.grid !== "none" ? (
          <CartesianGrid
            horizontal={showGridH}
            vertical={showGridV}
            strokeDasharray="3 3"
            {...(showGridV ? {} : { verticalCoordinatesGenerator: () => [] })}
            {...(showGridH ? {} : { horizontalCoordinatesGenerator: () => [] })}
          />
        ) : null}
        {vertical ? (
          <>
            <XAxis {...valueAxisProps} height={valueAxis?.label ? 44 : undefined} />
            <YAxis {...indexAxisProps} width={indexAxis?.width ?? 96} />
          </>
        ) : (
          <>
            <XAxis {...indexAxisProps} />
            <YAxis {...valueAxisProps} width={valueAxisWidth} />
          </>
        )}
        {p.tooltip !== false ? <Tooltip content={renderTooltip} isAnimationActive={false} /> : null}
        {p.renderSeries({
          series: visible,
          highlighted: p.highlighted,
          animate,
          onSeriesClick: (series, row) => p.report(row, series),
        })}
        <TooltipAnnouncer
          liveRegion={p.liveRegion}
          activeRow={p.activeRow}
          describe={p.describeDrawn}
        />
      </p.Root>
      <DataTable
        caption={
          tableRows.length < drawn.length
            ? `${p.title} (${tableRows.length} of ${drawn.length} drawn points, peaks kept)`
            : p.title
        }
        indexLabel={p.indexLabel}
        columns={visible}
        rows={tableRows.map((row) => ({
          key: String(row.__row),
          label: p.indexFullFormat(row.__x),
          cells: visible.map((s) => {
            const v = row[s.dataKey];
            return typeof v === "number" ? (s.formatter ?? p.valueFormat)(v) : "–";
          }),
        }))}
      />
    </>
  );
}
