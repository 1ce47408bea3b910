import { type ComponentType, type ReactNode, useCallback, useMemo } from "react";
import { CartesianGrid, getNiceTickValues, Tooltip, XAxis, YAxis } from "recharts";
import { collapsedSpanTicks, drawableBound } from "../data/domain";
import { type DownsampleMethod, selectDrawnPositions } from "../data/downsample";
import { timeTicks } from "../data/format";
import type { CartesianFrame } from "../data/rows";
import type { ResolvedSeries, ValueFormatter } from "../data/series";
import { csvTime } from "../export/csv";
import type { AxisOptions, GridLines } from "../types";
import type { ChartAnnotations } from "./annotations";
import {
  axisTitle,
  charsFitting,
  indexLabelChars,
  shorten,
  shortTick,
  TITLED_X_AXIS_HEIGHT,
  valueAxisWidth,
} from "./axis-tick";
import type {
  CartesianChartProps,
  CartesianRootProps,
  SeriesRenderContext,
  ValueAxes,
} from "./cartesian-types";
import { DataTable } from "./data-table";
import { buildDrawnRows, type DrawnRow, nearestTick, valueExtent } from "./plot-rows";
import { PointerGate } from "./pointer-gate";
import { type ChartTooltipItem, TooltipAnnouncer, TooltipPanel, tooltipSentence } from "./tooltip";

const NO_THROTTLING: readonly string[] = [];
const MARGIN = { top: 8, right: 16, bottom: 4, left: 4 };
/** Above this many drawn points, animation is skipped whatever the props say. */
const ANIMATION_LIMIT = 600;
/** Most rows the hidden data table lists; longer drawings are reduced with LTTB again. */
const TABLE_LIMIT = 200;

export interface CartesianPlotProps<Row> {
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
  stacked: boolean;
  grid: GridLines;
  xAxis: AxisOptions | undefined;
  yAxis: AxisOptions | undefined;
  indexLabel: string;
  valueAxisMin: number | "auto";
  /** Time zone whose midnights, month and year starts time ticks fall on. */
  timeZone: string;
  indexTickFormat: (value: number | string) => string;
  indexFullFormat: (value: number | string) => string;
  valueTickFormat: (value: number | string) => string;
  valueFormat: ValueFormatter;
  tooltip: CartesianChartProps<Row>["tooltip"];
  tooltipItems: (drawn: DrawnRow) => ChartTooltipItem[];
  liveRegion: { current: HTMLParagraphElement | null };
  activeRow: { current: DrawnRow | null };
  rowOf: (drawn: DrawnRow) => Row;
  animate: boolean;
  highlighted: string | null;
  renderSeries: (context: SeriesRenderContext) => ReactNode;
  report: (drawn: DrawnRow | undefined | null, series?: ResolvedSeries) => void;
  clickable: boolean;
  syncId: string | undefined;
  /** A zoom layer, drawn inside the chart so it can use Recharts' scales. */
  zoom: ReactNode;
  annotations: ChartAnnotations | undefined;
  /** More value axes than the one (a combo's second axis, on the right). */
  valueAxes?: ValueAxes;
}

/** The plot area: downsampling, axes, grid, tooltip, series and the hidden data table. */
export function CartesianPlot<Row>(p: CartesianPlotProps<Row>) {
  const { frame, visible, visibleColumns, width, height, vertical } = p;
  const indexAxis = vertical ? p.yAxis : p.xAxis;
  const valueAxis = vertical ? p.xAxis : p.yAxis;
  // about one point per pixel of plot width (the value axis is about 56 px wide)
  const threshold = Math.max(32, Math.round(width - (valueAxis?.width ?? 56) - 24));

  const drawn = useMemo(() => {
    const positions =
      p.downsample === "none"
        ? null
        : selectDrawnPositions(frame.xs, visibleColumns, threshold, p.downsample);
    return buildDrawnRows(frame, positions);
  }, [frame, visibleColumns, threshold, p.downsample]);

  // the drawn rows' values per visible series (NaN: a gap): a few hundred, not millions
  const drawnColumns = useMemo(
    () =>
      visible.map((s) =>
        Float64Array.from(drawn, (row) => {
          const v = row[s.dataKey];
          return typeof v === "number" ? v : NaN;
        }),
      ),
    [drawn, visible],
  );

  const placement = useMemo(
    () => p.annotations?.place(drawn, frame.kind, p.bandIndex, vertical),
    [drawn, p.annotations, frame.kind, p.bandIndex, vertical],
  );
  const notes = placement?.notes;
  // a point's name in its tooltip, in the data table and to screen readers: with its annotations
  const labelOf = useCallback(
    (row: DrawnRow) => {
      const note = notes?.get(row);
      return p.indexFullFormat(row.__x) + (note ? ` — ${note}` : "");
    },
    [notes, p.indexFullFormat],
  );

  // a screen-reader table of thousands of rows helps nobody and slows every page; keep the shape
  // (and every annotated row)
  const tableRows = useMemo(() => {
    if (drawn.length <= TABLE_LIMIT) return drawn;
    const xs = drawn.map((_, i) => i);
    const picked = selectDrawnPositions(xs, drawnColumns, TABLE_LIMIT, "lttb");
    if (!picked) return drawn;
    const kept = new Set(picked);
    return drawn.filter((row, i) => kept.has(i) || notes?.has(row));
  }, [drawn, drawnColumns, notes]);

  const numericIndex = !p.bandIndex && frame.kind !== "category";
  const ticks = useMemo(() => {
    if (!numericIndex || frame.xs.length === 0) return undefined;
    if (frame.kind !== "time") {
      return collapsedSpanTicks(frame.xs[0] as number, frame.xs[frame.xs.length - 1] as number);
    }
    const span = vertical ? height : width;
    return timeTicks(
      frame.xs[0] as number,
      frame.xs[frame.xs.length - 1] as number,
      Math.max(2, Math.floor(span / 90)),
      p.timeZone,
    );
  }, [numericIndex, frame, vertical, width, height, p.timeZone]);

  const animate =
    p.animate && drawn.length <= ANIMATION_LIMIT && frame.xs.length <= 5 * ANIMATION_LIMIT;
  const showGridH = p.grid === "horizontal" || p.grid === "both";
  const showGridV = p.grid === "vertical" || p.grid === "both";

  const renderTooltip = useCallback(
    ({ active, payload }: { active?: boolean; payload?: readonly { payload?: unknown }[] }) => {
      const row = payload?.[0]?.payload as DrawnRow | undefined;
      if (!active || !row) return null;
      const items = p.tooltipItems(row);
      const label = labelOf(row);
      if (typeof p.tooltip === "function") {
        return p.tooltip({
          label,
          row: p.rowOf(row),
          rowIndex: row.__row,
          items,
        });
      }
      return <TooltipPanel label={label} items={items} />;
    },
    [p.tooltipItems, labelOf, p.tooltip, p.rowOf],
  );
  const describe = useCallback(
    (row: DrawnRow) => tooltipSentence(labelOf(row), p.tooltipItems(row)),
    [labelOf, p.tooltipItems],
  );

  const indexDomain = numericIndex ? (["dataMin", "dataMax"] as const) : undefined;
  const indexFormat = indexAxis?.tickFormatter ?? p.indexTickFormat;
  const indexChars = vertical
    ? charsFitting((indexAxis?.width ?? 96) - 12)
    : indexLabelChars(Math.max(width / Math.max(1, frame.xs.length), width / 6));
  const indexAxisProps = {
    dataKey: "__x",
    type: numericIndex ? ("number" as const) : ("category" as const),
    domain: indexDomain as never,
    ticks,
    hide: indexAxis?.show === false,
    tickFormatter: (value: number | string) => shorten(indexFormat(value), indexChars),
    tick: shortTick(indexFormat, indexChars),
    label: axisTitle(indexAxis?.label, vertical ? "y" : "x"),
    height: !vertical && indexAxis?.label ? TITLED_X_AXIS_HEIGHT : undefined,
    minTickGap: 16,
    // The first and last category always keep their label (the demo's first bar lost it).
    interval: "preserveStartEnd" as const,
    allowDuplicatedCategory: false,
  };
  // a combo's right-hand axis takes its series; the value axis measures the rest
  const [leftColumns, leftOptions, moreAxes] = p.valueAxes?.(
    visible,
    drawnColumns,
    height,
    p.valueTickFormat,
  ) ?? [drawnColumns, valueAxis];
  const leftAxis = valueAxisOf(
    leftColumns,
    leftOptions,
    p.valueTickFormat,
    p.valueAxisMin,
    height,
    vertical,
    p.stacked,
    p.stackOffset === "expand",
  );

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
        syncId={p.syncId}
        syncMethod={nearestTick}
        onClick={
          p.clickable
            ? (state) => {
                const i = +(state.activeTooltipIndex as number);
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
            <XAxis
              {...leftAxis.props}
              height={valueAxis?.label ? TITLED_X_AXIS_HEIGHT : undefined}
            />
            <YAxis {...indexAxisProps} width={indexAxis?.width ?? 96} />
          </>
        ) : (
          <>
            <XAxis {...indexAxisProps} />
            {/* as wide as the longest tick label, so "$52,000.00" is never clipped */}
            <YAxis {...leftAxis.props} width={leftOptions?.width ?? leftAxis.width ?? "auto"} />
            {moreAxes}
          </>
        )}

        {placement?.layer}
        {p.renderSeries({
          series: visible,
          highlighted: p.highlighted,
          animate,
          onSeriesClick: (series, row) => p.report(row, series),
        })}
        {p.zoom}
        {/* synced charts show each other's tooltips, so theirs must be there from the start */}
        <PointerGate drawn={drawn} eager={p.syncId !== undefined}>
          {p.tooltip !== false ? (
            <Tooltip content={renderTooltip} isAnimationActive={false} />
          ) : null}
        </PointerGate>
        <TooltipAnnouncer liveRegion={p.liveRegion} activeRow={p.activeRow} describe={describe} />
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
          label: labelOf(row),
          cells: visible.map((s) => {
            const v = row[s.dataKey];
            return typeof v === "number" ? (s.formatter ?? p.valueFormat)(v) : "–";
          }),
        }))}
        csv={() => [
          [p.indexLabel, ...visible.map((s) => s.label)],
          ...drawn.map((row) => [
            frame.kind === "time" ? csvTime(row.__x as number) : row.__x,
            ...visible.map((s) => row[s.dataKey] ?? null),
          ]),
        ]}
      />
    </>
  );
}

/**
 * A value axis's Recharts props and the width its longest tick label needs: bounded by `options`
 * (never cutting drawn values off), Recharts' nice ticks of the drawn extent, `vertical` for the
 * bottom axis of horizontal bars. Positional, as it is called once per axis on every render.
 */
export function valueAxisOf(
  columns: readonly Float64Array[],
  options: AxisOptions | undefined,
  tickFormat: (value: number | string) => string,
  min: number | "auto",
  height: number,
  vertical: boolean,
  stacked: boolean,
  percent: boolean,
) {
  const domain: [number | string, number | string] = percent
    ? [0, 1]
    : [drawableBound(options?.min, min), drawableBound(options?.max, "auto")];
  // the extent of what is drawn (Recharts' own domain), widened to bounds that leave no data out
  // (bounds that leave data out are widened to it by Recharts, so only wider ones count)
  const extent = percent ? [0, 1] : valueExtent(columns, stacked);
  const [low, high] = domain;
  const bounds: [number, number] | null = extent && [
    typeof low === "number" && low <= (extent[0] as number) ? low : (extent[0] as number),
    typeof high === "number" && high >= (extent[1] as number) ? high : (extent[1] as number),
  ];
  // a span too small for its magnitude (1 and 1 + 2e-16): Recharts' ticks would repeat (never
  // for the [0, 1] of percent stacks)
  const ticks = bounds ? collapsedSpanTicks(bounds[0], bounds[1]) : undefined;
  // the ticks Recharts draws: its own nice ticks of the extent (the same function), or ours
  const width = bounds && valueAxisWidth(ticks ?? getNiceTickValues(bounds, 5), tickFormat);
  const props = {
    type: "number" as const,
    domain: domain as never,
    ticks,
    hide: options?.show === false,
    tickFormatter: tickFormat,
    label: axisTitle(options?.label, vertical ? "x" : "y"),
    allowDataOverflow: false,
    // about five ticks up a plot this tall never overlap: show them all without measuring text
    // (not under a fixed bound: Recharts clamps its nice ticks to it, and clamped ones repeat)
    ...(!vertical && height >= 120 && !domain.some((bound) => typeof bound === "number")
      ? { interval: 0 }
      : {}),
  };
  return { props, width };
}
