import { memo, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { createPortal, flushSync } from "react-dom";
import {
  CartesianGrid,
  ScatterChart as RechartsScatterChart,
  usePlotArea,
  useXAxisScale,
  useYAxisScale,
  XAxis,
  YAxis,
} from "recharts";
import {
  createFullTimeFormatter,
  createNumberFormatter,
  createTickFormatter,
  createTimeFormatter,
  DAY,
  timeFormatOptions,
  timeTicks,
} from "../data/format";
import { paletteColor, type RowKey, type ValueFormatter } from "../data/series";
import { csvTime } from "../export/csv";
import { axisTitle, TITLED_X_AXIS_HEIGHT, valueAxisWidth } from "../parts/axis-tick";
import { ChartBoundary } from "../parts/chart-error-boundary";
import { ChartFrame } from "../parts/chart-frame";
import { DataTable } from "../parts/data-table";
import { ChartLegend, LegendSkeleton } from "../parts/legend";
import { type ChartTooltipItem, TooltipPanel, tooltipSentence } from "../parts/tooltip";
import { useDataIssues } from "../parts/use-data-issues";
import { useSeriesToggle } from "../parts/use-series-toggle";
import type { AxisOptions, BaseChartProps, ChartValueEvent, GridLines } from "../types";
import {
  niceDomain,
  pointLimit,
  pointPaths,
  prepareScatterFrame,
  radiiOf,
  type ScatterFrame,
  type ScatterSample,
  type ScatterXKind,
  thinScatter,
} from "./prepare";

export interface ScatterChartProps<Row> extends BaseChartProps<Row> {
  /** Row key of the x values: numbers, or Dates and ISO strings. */
  x: RowKey<Row>;
  /** Row key of the y values (numbers). */
  y: RowKey<Row>;
  /** Row key of a number (0 or more) that sizes each point by area. */
  size?: RowKey<Row>;
  /** Row key of a category that colours the points, one legend entry per value. */
  color?: RowKey<Row>;
  /** Row key naming each point in its tooltip and in the data table (e.g. a car's model). */
  label?: RowKey<Row>;
  /** Names of the columns in tooltips, the data table and the summary (default: their keys). */
  xLabel?: string;
  yLabel?: string;
  sizeLabel?: string;
  colorLabel?: string;
  /** Force how x is read instead of guessing from its values. */
  xType?: ScatterXKind;
  /** Formats x values in the tooltip and the table (default: the locale's numbers or dates). */
  xFormatter?: (value: number) => string;
  /** IANA time zone for dates on x (default "UTC"). */
  timeZone?: string;
  xAxis?: AxisOptions;
  yAxis?: AxisOptions;
  /** Which grid lines to draw (default "both"). */
  grid?: GridLines;
  /**
   * Most points drawn one by one (default 2,000). Past it the plot is cut into cells and each
   * colour keeps one point per cell, shaded by how many it stands for.
   */
  maxPoints?: number;
  /** Colour values hidden at first; the legend toggles them. */
  defaultHiddenGroups?: readonly string[];
}

const MARGIN = { top: 8, right: 16, bottom: 4, left: 4 };
/** Points a hover or tap may miss by, px. */
const REACH = 24;
/** Most points the hidden data table lists. */
const TABLE_LIMIT = 200;
/** A scatter chart: x against y, sized and coloured by columns, thinned by density past a limit. */
export function ScatterChart<Row>(props: ScatterChartProps<Row>) {
  return (
    <ChartBoundary chartName="ScatterChart" props={props}>
      <ScatterBody {...props} />
    </ChartBoundary>
  );
}

interface PointFormats {
  x: (value: number) => string;
  xTick: (value: number | string) => string;
  y: ValueFormatter;
  yTick: (value: number | string) => string;
  size: ValueFormatter;
}

function ScatterBody<Row>(props: ScatterChartProps<Row>) {
  const {
    data,
    x,
    y,
    size,
    color,
    label,
    locale,
    timeZone = "UTC",
    grid = "both",
    legend = "bottom",
    tooltip = true,
    onValueChange,
  } = props;
  const xLabel = props.xLabel ?? x;
  const yLabel = props.yLabel ?? y;
  const sizeLabel = props.sizeLabel ?? size ?? "";
  const colorLabel = props.colorLabel ?? color ?? "";

  const frame = useMemo(
    () => prepareScatterFrame(data, { x, y, size, color, xKind: props.xType, seriesName: yLabel }),
    [data, x, y, size, color, props.xType, yLabel],
  );
  useDataIssues("ScatterChart", frame.issues, props.onDataIssues);
  const { hidden, toggle, highlighted, setHighlighted } = useSeriesToggle(
    props.defaultHiddenGroups,
  );
  const hiddenGroups = useMemo(
    () => new Set(frame.groups.flatMap((name, k) => (hidden.has(name) ? [k] : []))),
    [frame.groups, hidden],
  );
  const colors = useMemo(() => frame.groups.map((_, k) => paletteColor(k)), [frame.groups]);

  const formats = useMemo((): PointFormats => {
    const yFormat =
      props.valueFormatter ?? createNumberFormatter(locale, { maximumFractionDigits: 2 });
    let xFormat: (value: number) => string;
    let xTick: (value: number | string) => string;
    if (props.xFormatter) {
      const custom = props.xFormatter;
      xFormat = custom;
      xTick = (v) => custom(+v);
    } else if (frame.xKind === "time") {
      const [first, last] = frame.xRange ?? [0, 0];
      let dateOnly = timeZone === "UTC";
      for (let i = 0; dateOnly && i < Math.min(frame.xs.length, 64); i++) {
        if ((frame.xs[i] as number) % DAY !== 0) dateOnly = false;
      }
      const tick = createTimeFormatter(
        locale,
        timeFormatOptions(dateOnly ? Math.max(last - first, 2 * DAY) : last - first, timeZone),
      );
      xFormat = createFullTimeFormatter(locale, timeZone, !dateOnly);
      xTick = (v) => tick(+v);
    } else if (props.xAxis?.numberFormat) {
      const format = createNumberFormatter(locale, props.xAxis.numberFormat);
      xFormat = format;
      xTick = (v) => format(+v);
    } else {
      xFormat = createNumberFormatter(locale, { maximumFractionDigits: 2 });
      xTick = createTickFormatter(locale);
    }
    return {
      x: xFormat,
      xTick: props.xAxis?.tickFormatter ?? xTick,
      y: yFormat,
      yTick:
        props.yAxis?.tickFormatter ??
        (props.valueFormatter ? (v: number | string) => yFormat(+v) : createTickFormatter(locale)),
      size: createNumberFormatter(locale, { maximumFractionDigits: 2 }),
    };
  }, [
    props.valueFormatter,
    props.xFormatter,
    props.xAxis?.numberFormat,
    props.xAxis?.tickFormatter,
    props.yAxis?.tickFormatter,
    locale,
    frame,
    timeZone,
  ]);

  const itemsOf = useCallback(
    (point: number, count: number): ChartTooltipItem[] => {
      const group = frame.group[point] as number;
      const swatch = colors[group] ?? paletteColor(0);
      const items: ChartTooltipItem[] = [
        {
          key: "x",
          label: xLabel,
          color: swatch,
          value: frame.xs[point] as number,
          formattedValue: formats.x(frame.xs[point] as number),
        },
        {
          key: "y",
          label: yLabel,
          color: swatch,
          value: frame.ys[point] as number,
          formattedValue: formats.y(frame.ys[point] as number),
        },
      ];
      if (frame.sizes) {
        const s = frame.sizes[point] as number;
        items.push({
          key: "size",
          label: sizeLabel,
          color: swatch,
          value: Number.isNaN(s) ? null : s,
          formattedValue: Number.isNaN(s) ? "–" : formats.size(s),
        });
      }
      if (color) {
        items.push({
          key: "color",
          label: colorLabel,
          color: swatch,
          value: null,
          formattedValue: frame.groups[group] ?? "",
        });
      }
      if (count > 1) {
        items.push({
          key: "count",
          label: "Points here",
          color: swatch,
          value: count,
          formattedValue: formats.size(count),
        });
      }
      return items;
    },
    [frame, colors, formats, xLabel, yLabel, sizeLabel, colorLabel, color],
  );

  const rows = Array.isArray(data) ? (data as readonly Row[]) : [];
  const nameOf = useCallback(
    (point: number): string => {
      const row = rows[frame.rowIndex[point] as number] as Record<string, unknown> | undefined;
      const named = label && row ? row[label] : undefined;
      if (typeof named === "string" && named !== "") return named;
      if (typeof named === "number" && Number.isFinite(named)) return String(named);
      return `${formats.x(frame.xs[point] as number)}, ${formats.y(frame.ys[point] as number)}`;
    },
    [rows, frame, label, formats],
  );

  const report = useCallback(
    (point: number | null) => {
      if (!onValueChange) return;
      if (point === null) {
        onValueChange(null);
        return;
      }
      const rowIndex = frame.rowIndex[point] as number;
      const event: ChartValueEvent<Row> = {
        row: rows[rowIndex] as Row,
        rowIndex,
        seriesKey: color ? frame.groups[frame.group[point] as number] : y,
        value: frame.ys[point] as number,
      };
      onValueChange(event);
    },
    [onValueChange, frame, rows, color, y],
  );

  const status = props.loading ? "loading" : frame.emptyReason ? "empty" : "ready";
  const title =
    props.title ?? `Scatter chart of ${yLabel} by ${xLabel}${color ? ` and ${colorLabel}` : ""}`;
  const summary = useMemo(() => {
    if (props.description) return props.description;
    if (frame.emptyReason) return `${title}: ${frame.emptyReason}.`;
    const count = frame.xs.length;
    const [x0, x1] = frame.xRange ?? [0, 0];
    const [y0, y1] = frame.yRange ?? [0, 0];
    const groups = color
      ? `; ${frame.groups.length} ${colorLabel} groups, most points in ${frame.groups[0]}`
      : "";
    return `Scatter chart of ${count} ${count === 1 ? "point" : "points"}, ${xLabel} from ${formats.x(
      x0,
    )} to ${formats.x(x1)}, ${yLabel} from ${formats.y(y0)} to ${formats.y(y1)}${groups}.`;
  }, [props.description, frame, title, color, colorLabel, xLabel, yLabel, formats]);

  const liveRegion = useRef<HTMLParagraphElement | null>(null);
  const keyHandler = useRef<((event: KeyboardEvent) => void) | null>(null);
  const onPlotKeyDown = useCallback((event: KeyboardEvent) => keyHandler.current?.(event), []);

  const legendNode =
    status === "loading" ? (
      <LegendSkeleton count={2} />
    ) : color ? (
      <ChartLegend
        entries={frame.groups.map((name, k) => ({
          key: name,
          label: name,
          color: colors[k] ?? paletteColor(k),
        }))}
        hidden={hidden}
        onToggle={toggle}
        onSelect={props.onLegendSelect}
        onHighlight={setHighlighted}
      />
    ) : null;

  return (
    <ChartFrame
      chartName="ScatterChart"
      title={title}
      summary={summary}
      status={status}
      chartProps={props}
      frame={frame}
      legendPosition={color ? legend : false}
      legend={legendNode}
      height={props.height ?? 300}
      liveRegion={liveRegion}
      onPlotKeyDown={onPlotKeyDown}
    >
      {({ width, height }) => (
        <ScatterPlot
          frame={frame}
          width={width}
          height={height}
          title={title}
          summary={summary}
          grid={grid}
          timeZone={timeZone}
          xAxis={props.xAxis}
          yAxis={props.yAxis}
          xLabel={xLabel}
          yLabel={yLabel}
          formats={formats}
          colors={colors}
          hiddenGroups={hiddenGroups}
          highlighted={highlighted === null ? -1 : frame.groups.indexOf(highlighted)}
          limit={pointLimit(props.maxPoints)}
          itemsOf={itemsOf}
          nameOf={nameOf}
          tooltip={
            tooltip === false
              ? null
              : (point, count) => {
                  const items = itemsOf(point, count);
                  const name = nameOf(point);
                  if (typeof tooltip === "function") {
                    const rowIndex = frame.rowIndex[point] as number;
                    return tooltip({ label: name, row: rows[rowIndex] as Row, rowIndex, items });
                  }
                  return <TooltipPanel label={name} items={items} />;
                }
          }
          liveRegion={liveRegion}
          keyHandler={keyHandler}
          report={onValueChange ? report : null}
          sizeLabel={size ? sizeLabel : null}
          colorLabel={color ? colorLabel : null}
        />
      )}
    </ChartFrame>
  );
}

interface ScatterPlotProps {
  frame: ScatterFrame;
  width: number;
  height: number;
  title: string;
  summary: string;
  grid: GridLines;
  timeZone: string;
  xAxis: AxisOptions | undefined;
  yAxis: AxisOptions | undefined;
  xLabel: string;
  yLabel: string;
  sizeLabel: string | null;
  colorLabel: string | null;
  formats: PointFormats;
  colors: readonly string[];
  hiddenGroups: ReadonlySet<number>;
  highlighted: number;
  limit: number;
  itemsOf: (point: number, count: number) => ChartTooltipItem[];
  nameOf: (point: number) => string;
  tooltip: ((point: number, count: number) => ReactNode) | null;
  liveRegion: { current: HTMLParagraphElement | null };
  keyHandler: { current: ((event: KeyboardEvent) => void) | null };
  report: ((point: number | null) => void) | null;
}

/** Axes, grid, the points and the hidden data table, at the measured size. */
function ScatterPlot(p: ScatterPlotProps) {
  const { frame, width, height } = p;
  const xNice = useMemo(() => {
    if (frame.xKind !== "time" || !frame.xRange) return niceDomain(frame.xRange, p.xAxis);
    const [first, last] = frame.xRange;
    const ticks = timeTicks(first, last, Math.max(2, Math.floor(width / 90)), p.timeZone);
    return { domain: [first, last] as [number, number], ticks };
  }, [frame.xKind, frame.xRange, width, p.timeZone, p.xAxis]);
  const yMin = p.yAxis?.min;
  const yMax = p.yAxis?.max;
  const yNice = useMemo(
    () => niceDomain(frame.yRange, { min: yMin, max: yMax }),
    [frame.yRange, yMin, yMax],
  );
  const yWidth = p.yAxis?.width ?? valueAxisWidth(yNice.ticks, (v) => p.formats.yTick(v));
  const plotWidth = Math.max(1, width - yWidth - MARGIN.left - MARGIN.right);
  const plotHeight = Math.max(1, height - 30 - MARGIN.top - MARGIN.bottom);

  const sample = useMemo(
    () => thinScatter(frame, plotWidth, plotHeight, p.limit, p.hiddenGroups),
    [frame, plotWidth, plotHeight, p.limit, p.hiddenGroups],
  );
  const radii = useMemo(() => radiiOf(frame, sample), [frame, sample]);
  const [portal, setPortal] = useState<HTMLDivElement | null>(null);

  // the table lists at most TABLE_LIMIT drawn points, spread along x, the extremes of y kept
  const tableRows = useMemo(() => tablePoints(frame, sample), [frame, sample]);
  const thinned = sample.cell > 0;
  // each column of the data table and the CSV once: its name, its raw value and its text
  const columns = useMemo(() => {
    const sizeOf = (point: number) => {
      const s = frame.sizes?.[point];
      return s === undefined || Number.isNaN(s) ? null : s;
    };
    const groupOf = (point: number) => frame.groups[frame.group[point] as number] ?? "";
    const all: TableColumn[] = [
      {
        key: "y",
        label: p.yLabel,
        raw: (point) => frame.ys[point] as number,
        text: (point) => p.formats.y(frame.ys[point] as number),
      },
    ];
    if (p.sizeLabel !== null) {
      all.push({
        key: "size",
        label: p.sizeLabel,
        raw: sizeOf,
        text: (point) => {
          const s = sizeOf(point);
          return s === null ? "–" : p.formats.size(s);
        },
      });
    }
    if (p.colorLabel !== null) {
      all.push({ key: "color", label: p.colorLabel, raw: groupOf, text: groupOf });
    }
    if (thinned) {
      all.push({
        key: "count",
        label: "Points here",
        raw: (_, k) => sample.counts[k] as number,
        text: (_, k) => p.formats.size(sample.counts[k] as number),
      });
    }
    return all;
  }, [frame, sample, thinned, p.yLabel, p.sizeLabel, p.colorLabel, p.formats]);

  return (
    <>
      <RechartsScatterChart
        width={width}
        height={height}
        margin={MARGIN}
        accessibilityLayer
        title={p.title}
        desc={p.summary}
        aria-label={`${p.title}. Use the arrow keys to move between points.`}
      >
        {p.grid !== "none" ? (
          <CartesianGrid
            strokeDasharray="3 3"
            horizontal={p.grid === "horizontal" || p.grid === "both"}
            vertical={p.grid === "vertical" || p.grid === "both"}
          />
        ) : null}
        <XAxis
          type="number"
          dataKey="x"
          domain={xNice.domain}
          ticks={xNice.ticks}
          allowDataOverflow
          hide={p.xAxis?.show === false}
          tickFormatter={p.formats.xTick}
          minTickGap={16}
          height={p.xAxis?.label ? TITLED_X_AXIS_HEIGHT : 30}
          label={axisTitle(p.xAxis?.label, "x")}
        />
        <YAxis
          type="number"
          dataKey="y"
          domain={yNice.domain}
          ticks={yNice.ticks}
          allowDataOverflow
          interval={0}
          hide={p.yAxis?.show === false}
          tickFormatter={p.formats.yTick}
          width={yWidth}
          label={axisTitle(p.yAxis?.label, "y")}
        />
        <ScatterLayer
          frame={frame}
          sample={sample}
          radii={radii}
          colors={p.colors}
          highlighted={p.highlighted}
          tooltip={p.tooltip}
          itemsOf={p.itemsOf}
          nameOf={p.nameOf}
          liveRegion={p.liveRegion}
          keyHandler={p.keyHandler}
          report={p.report}
          portal={portal}
        />
      </RechartsScatterChart>
      <div ref={setPortal} className="seed-scatter-tooltip-layer" />
      <DataTable
        caption={
          tableRows.length < sample.points.length
            ? `${p.title} (${tableRows.length} of ${sample.points.length} drawn points)`
            : p.title
        }
        indexLabel={p.xLabel}
        columns={columns}
        rows={tableRows.map((k) => {
          const point = sample.points[k] as number;
          return {
            key: String(point),
            label: `${p.formats.x(frame.xs[point] as number)} (${p.nameOf(point)})`,
            cells: columns.map((column) => column.text(point, k)),
          };
        })}
        csv={() => [
          [p.xLabel, ...columns.map((column) => column.label)],
          ...Array.from(sample.points, (point, k) => [
            frame.xKind === "time"
              ? csvTime(frame.xs[point] as number)
              : (frame.xs[point] as number),
            ...columns.map((column) => column.raw(point, k)),
          ]),
        ]}
      />
    </>
  );
}

/** A column of the data table and the CSV: a point's raw value and its text (`k`: its position in the sample). */
interface TableColumn {
  key: string;
  label: string;
  raw: (point: number, k: number) => number | string | null;
  text: (point: number, k: number) => string;
}

/** Positions into `sample.points` of the points the data table lists. */
function tablePoints(frame: ScatterFrame, sample: ScatterSample): number[] {
  const all = Array.from(sample.points.keys());
  const byX = all.sort(
    (a, b) =>
      (frame.xs[sample.points[a] as number] as number) -
        (frame.xs[sample.points[b] as number] as number) || a - b,
  );
  if (byX.length <= TABLE_LIMIT) return byX;
  let low = byX[0] as number;
  let high = low;
  for (const k of byX) {
    const v = frame.ys[sample.points[k] as number] as number;
    if (v < (frame.ys[sample.points[low] as number] as number)) low = k;
    if (v > (frame.ys[sample.points[high] as number] as number)) high = k;
  }
  const picked = new Set<number>([low, high]);
  const slots = TABLE_LIMIT - 2;
  for (let i = 0; i < slots; i++) {
    picked.add(byX[Math.round((i * (byX.length - 1)) / (slots - 1))] as number);
  }
  // where an extreme was also a spread point, the next points along x fill its place
  for (let i = 0; picked.size < TABLE_LIMIT && i < byX.length; i++) picked.add(byX[i] as number);
  return byX.filter((k) => picked.has(k));
}

interface ScatterLayerProps {
  frame: ScatterFrame;
  sample: ScatterSample;
  radii: Float32Array;
  colors: readonly string[];
  highlighted: number;
  tooltip: ((point: number, count: number) => ReactNode) | null;
  itemsOf: (point: number, count: number) => ChartTooltipItem[];
  nameOf: (point: number) => string;
  liveRegion: { current: HTMLParagraphElement | null };
  keyHandler: { current: ((event: KeyboardEvent) => void) | null };
  report: ((point: number | null) => void) | null;
  portal: HTMLDivElement | null;
}

/** Inside the Recharts chart: places the drawn points with its scales, then handles the pointer. */
function ScatterLayer(p: ScatterLayerProps) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const area = usePlotArea();
  const positions = useMemo(() => {
    const n = p.sample.points.length;
    const px = new Float32Array(n);
    const py = new Float32Array(n);
    if (!xScale || !yScale) return null;
    for (let k = 0; k < n; k++) {
      const point = p.sample.points[k] as number;
      px[k] = xScale(p.frame.xs[point] as number) ?? NaN;
      py[k] = yScale(p.frame.ys[point] as number) ?? NaN;
    }
    return { px, py };
  }, [p.sample, p.frame, xScale, yScale]);
  if (!positions || !area) return null;
  return (
    <>
      <ScatterMarks
        frame={p.frame}
        sample={p.sample}
        radii={p.radii}
        px={positions.px}
        py={positions.py}
        colors={p.colors}
        highlighted={p.highlighted}
      />
      <ScatterPointer {...p} px={positions.px} py={positions.py} area={area} />
    </>
  );
}

/** The points: one path per colour and shade, so a thousand points are a handful of elements. */
const ScatterMarks = memo(function ScatterMarks(props: {
  frame: ScatterFrame;
  sample: ScatterSample;
  radii: Float32Array;
  px: Float32Array;
  py: Float32Array;
  colors: readonly string[];
  highlighted: number;
}) {
  const { frame, sample, radii, px, py } = props;
  const paths = useMemo(
    () => pointPaths(frame, sample, radii, px, py),
    [frame, sample, radii, px, py],
  );
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG group is never focusable
    <g className="seed-scatter-points" aria-hidden="true">
      {paths.map(({ group, shade, d }) => {
        const dimmed = props.highlighted >= 0 && props.highlighted !== group;
        return (
          <path
            key={`${group}-${shade}`}
            d={d}
            fill={props.colors[group]}
            fillOpacity={dimmed ? 0.12 : shade}
            stroke={props.colors[group]}
            strokeOpacity={dimmed ? 0.2 : 0.9}
            strokeWidth={0.75}
          />
        );
      })}
    </g>
  );
});

/**
 * The pointer and the keyboard: the nearest drawn point within reach is active (ringed, its
 * tooltip shown and its sentence written to the live region). Arrow keys move through the points
 * by x (left, right) or by y (up, down); Home and End go to the ends; Enter reports; Escape leaves.
 */
function ScatterPointer(
  p: ScatterLayerProps & {
    px: Float32Array;
    py: Float32Array;
    area: { x: number; y: number; width: number; height: number };
  },
) {
  const [active, setActive] = useState<number | null>(null);
  const { sample, px, py } = p;
  // another sample (a group hidden, a new size) holds other points at those positions
  const [shownSample, setShownSample] = useState(sample);
  if (shownSample !== sample) {
    setShownSample(sample);
    setActive(null);
  }
  // ...and what the live region said of the old one is no longer shown
  const { liveRegion } = p;
  useEffect(
    () => () => {
      if (sample && liveRegion.current) liveRegion.current.textContent = "";
    },
    [sample, liveRegion],
  );
  const byX = useMemo(
    () =>
      Array.from(sample.points.keys()).sort(
        (a, b) => (px[a] as number) - (px[b] as number) || (py[b] as number) - (py[a] as number),
      ),
    [sample, px, py],
  );
  const byY = useMemo(
    () =>
      Array.from(sample.points.keys()).sort(
        (a, b) => (py[b] as number) - (py[a] as number) || (px[a] as number) - (px[b] as number),
      ),
    [sample, px, py],
  );

  const show = useCallback(
    (k: number | null) => {
      // drawn in this event, not in a task after it: a pointer move's update would otherwise
      // wait for the scheduler and miss the next frame (the line charts' Recharts store renders
      // synchronously, too)
      flushSync(() => setActive(k));
      // written into the DOM, as TooltipAnnouncer does for the other charts: no render
      const region = p.liveRegion.current;
      if (!region) return;
      const point = k === null ? 0 : (sample.points[k] as number);
      region.textContent =
        k === null
          ? ""
          : tooltipSentence(p.nameOf(point), p.itemsOf(point, sample.counts[k] as number));
    },
    [sample, p.liveRegion, p.nameOf, p.itemsOf],
  );

  const nearest = (x: number, y: number): number | null => {
    let best = -1;
    let bestDistance = Infinity;
    for (let k = 0; k < px.length; k++) {
      const dx = (px[k] as number) - x;
      const dy = (py[k] as number) - y;
      const d = dx * dx + dy * dy;
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    if (best < 0) return null;
    const reach = REACH + (p.radii[best] as number);
    return bestDistance <= reach * reach ? best : null;
  };

  const step = (order: readonly number[], from: number | null, by: number): number | null => {
    if (order.length === 0) return null;
    if (from === null) return order[by > 0 ? 0 : order.length - 1] ?? null;
    const at = order.indexOf(from);
    return order[Math.min(order.length - 1, Math.max(0, at + by))] ?? null;
  };

  p.keyHandler.current = (event: KeyboardEvent) => {
    let next: number | null | undefined;
    if (event.key === "ArrowRight") next = step(byX, active, 1);
    else if (event.key === "ArrowLeft") next = step(byX, active, -1);
    else if (event.key === "ArrowUp") next = step(byY, active, 1);
    else if (event.key === "ArrowDown") next = step(byY, active, -1);
    else if (event.key === "Home") next = byX[0] ?? null;
    else if (event.key === "End") next = byX[byX.length - 1] ?? null;
    else if (event.key === "Escape") next = null;
    else if (event.key === "Enter") {
      if (active !== null && p.report) p.report(sample.points[active] as number);
      return;
    } else return;
    event.preventDefault();
    show(next);
  };

  const local = (event: { clientX: number; clientY: number; currentTarget: Element }) => {
    const svg = (event.currentTarget as SVGElement).ownerSVGElement;
    const box = (svg ?? event.currentTarget).getBoundingClientRect();
    return nearest(event.clientX - box.left, event.clientY - box.top);
  };

  const k = active !== null && active < sample.points.length ? active : null;
  const point = k === null ? null : (sample.points[k] as number);
  const ring = k === null ? 0 : (p.radii[k] as number) + 3;
  return (
    <>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the pointer's layer; the keyboard moves through the same points from the chart surface (arrow keys, Enter) */}
      <rect
        className="seed-scatter-hit"
        x={p.area.x}
        y={p.area.y}
        width={p.area.width}
        height={p.area.height}
        fill="transparent"
        onPointerMove={(event) => {
          const found = local(event);
          if (found !== active) show(found);
        }}
        // Recharts' own pointer handling (its tooltip state) has nothing to do here: keeping the
        // moves from it keeps a hover to this component's one render
        onMouseMove={(event) => event.stopPropagation()}
        onPointerLeave={(event) => {
          if (event.pointerType === "mouse") show(null);
        }}
        onClick={(event) => {
          const found = local(event);
          show(found);
          p.report?.(found === null ? null : (sample.points[found] as number));
        }}
        style={p.report ? { cursor: "pointer" } : undefined}
      />
      {k !== null && point !== null && p.portal
        ? createPortal(
            <>
              {/* the ring and the tooltip are HTML over the plot, moved by transforms: a hover
                  never repaints the SVG (its paths hold every point) */}
              <div
                className="seed-scatter-active"
                style={{
                  width: 2 * ring,
                  height: 2 * ring,
                  transform: `translate(${(p.px[k] as number) - ring}px, ${(p.py[k] as number) - ring}px)`,
                }}
              />
              {p.tooltip ? (
                <div
                  className="seed-scatter-tooltip"
                  style={{
                    transform:
                      `translate(${p.px[k]}px, ${p.py[k]}px) ` +
                      `translate(${(p.px[k] as number) > p.area.x + p.area.width / 2 ? "calc(-100% - 12px)" : "12px"}, ` +
                      `${(p.py[k] as number) > p.area.y + p.area.height / 2 ? "calc(-100% - 12px)" : "12px"})`,
                  }}
                >
                  {p.tooltip(point, sample.counts[k] as number)}
                </div>
              ) : null}
            </>,
            p.portal,
          )
        : null}
    </>
  );
}
