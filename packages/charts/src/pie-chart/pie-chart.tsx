import { type ReactNode, useCallback, useMemo, useRef } from "react";
import { Label, Pie, PieChart as RechartsPieChart, Tooltip } from "recharts";
import { createNumberFormatter } from "../data/format";
import { type PieSlice, preparePieFrame } from "../data/pie";
import { paletteColor, type RowKey, type SeriesConfig } from "../data/series";
import { ChartBoundary } from "../parts/chart-error-boundary";
import { ChartFrame } from "../parts/chart-frame";
import { DataTable } from "../parts/data-table";
import { ANIMATION_MS, usePrefersReducedMotion } from "../parts/environment";
import { ChartLegend, LegendSkeleton } from "../parts/legend";
import {
  type ChartTooltipItem,
  TooltipAnnouncer,
  TooltipPanel,
  tooltipSentence,
} from "../parts/tooltip";
import { useDataIssues } from "../parts/use-data-issues";
import { useSeriesToggle } from "../parts/use-series-toggle";
import type { BaseChartProps, ChartValueEvent } from "../types";
import { CenterLabel } from "./center-label";
import { fitPieLabel, labelWidth, pieRadius } from "./pie-labels";

export interface PieChartProps<Row> extends BaseChartProps<Row> {
  /** Row key of each slice's name. */
  index: RowKey<Row>;
  /** Name of the slice names in the title, summary, data table and CSV (default: the index key). */
  indexLabel?: string;
  /** Row key of each slice's value, or `{ key, label, formatter }`. */
  value: RowKey<Row> | SeriesConfig<Row>;
  /** "donut" leaves a hole for a centre label (default "pie"). */
  variant?: "pie" | "donut";
  /** Donut centre: content, a function of the formatted total, or false (default: the total). */
  centerLabel?: ReactNode | ((total: number, formattedTotal: string) => ReactNode) | false;
  /** Caption under the default centre total (default "Total"). */
  centerCaption?: string;
  /** Slice labels: percent (default), value, name, or false for none. */
  labels?: "percent" | "value" | "name" | false;
  /** Slices below this share of the total (0..1) are grouped into "Other" (default 0.03; 0 turns it off). */
  otherThreshold?: number;
  otherLabel?: string;
  /** Slice colours in order (default: the theme palette). */
  colors?: readonly string[];
}

/** Inner radius of a donut as a share of its outer radius. */
const DONUT_HOLE = 0.62;

interface DrawnSlice extends PieSlice {
  fill: string;
  fillOpacity: number;
  share: number;
}

/** A pie or donut chart; small slices are grouped into "Other" and negative values are skipped. */
export function PieChart<Row>(props: PieChartProps<Row>) {
  return (
    <ChartBoundary chartName="PieChart" props={props}>
      <PieChartBody {...props} />
    </ChartBoundary>
  );
}

function PieChartBody<Row>(props: PieChartProps<Row>) {
  const {
    data,
    index,
    locale,
    legend = "bottom",
    tooltip = true,
    variant = "pie",
    labels = "percent",
    otherThreshold = 0.03,
    otherLabel = "Other",
    onValueChange,
    onDataIssues,
  } = props;
  const valueConfig: SeriesConfig<Row> =
    typeof props.value === "string" ? { key: props.value } : props.value;
  const valueKey = valueConfig.key;
  const valueLabel = valueConfig.label ?? valueKey;
  const indexLabel = props.indexLabel ?? index;

  const frame = useMemo(
    () => preparePieFrame(data, { index, value: valueKey, otherThreshold, otherLabel }),
    [data, index, valueKey, otherThreshold, otherLabel],
  );
  useDataIssues("PieChart", frame.issues, onDataIssues);
  const { hidden, toggle, highlighted, setHighlighted } = useSeriesToggle();

  const format = useMemo(
    () =>
      valueConfig.formatter ??
      props.valueFormatter ??
      createNumberFormatter(locale, { maximumFractionDigits: 2 }),
    [valueConfig.formatter, props.valueFormatter, locale],
  );
  const compactFormat = useMemo(
    () =>
      valueConfig.formatter ??
      props.valueFormatter ??
      createNumberFormatter(locale, { notation: "compact", maximumFractionDigits: 1 }),
    [valueConfig.formatter, props.valueFormatter, locale],
  );
  const percentFormat = useMemo(
    () => createNumberFormatter(locale, { style: "percent", maximumFractionDigits: 1 }),
    [locale],
  );

  const colored = useMemo(
    () =>
      frame.slices.map((slice, i) => ({
        ...slice,
        fill: props.colors?.[i] ?? (slice.isOther ? "var(--seed-chart-8)" : paletteColor(i)),
      })),
    [frame, props.colors],
  );
  const drawn: DrawnSlice[] = useMemo(() => {
    const shown = colored.filter((slice) => !hidden.has(slice.name));
    const total = shown.reduce((sum, slice) => sum + slice.value, 0);
    return shown.map((slice) => ({
      ...slice,
      share: total > 0 ? slice.value / total : 0,
      fillOpacity: highlighted !== null && highlighted !== slice.name ? 0.3 : 1,
    }));
  }, [colored, hidden, highlighted]);
  const visibleTotal = drawn.reduce((sum, slice) => sum + slice.value, 0);

  const noun = variant === "donut" ? "Donut chart" : "Pie chart";
  const title = props.title ?? `${noun} of ${valueLabel} by ${indexLabel}`;
  const status = props.loading ? "loading" : frame.emptyReason ? "empty" : "ready";
  const summary = useMemo(() => {
    if (props.description) return props.description;
    if (frame.emptyReason) return `${title}: ${frame.emptyReason}.`;
    const largest = drawn.reduce<DrawnSlice | null>(
      (best, slice) => (best === null || slice.value > best.value ? slice : best),
      null,
    );
    return `${noun} of ${valueLabel} by ${indexLabel}: ${drawn.length} ${
      drawn.length === 1 ? "slice" : "slices"
    } totalling ${format(visibleTotal)}${
      largest ? `; the largest is ${largest.name} at ${percentFormat(largest.share)}` : ""
    }.`;
  }, [
    props.description,
    frame,
    title,
    drawn,
    noun,
    valueLabel,
    indexLabel,
    format,
    visibleTotal,
    percentFormat,
  ]);

  const liveRegion = useRef<HTMLParagraphElement | null>(null);
  const activeSlice = useRef<DrawnSlice | null>(null);
  const reducedMotion = usePrefersReducedMotion();

  const itemsOf = useCallback(
    (slice: DrawnSlice): ChartTooltipItem[] => [
      {
        key: valueKey,
        label: valueLabel,
        color: slice.fill,
        value: slice.value,
        formattedValue: `${format(slice.value)} (${percentFormat(slice.share)})`,
      },
    ],
    [valueKey, valueLabel, format, percentFormat],
  );
  const describeSlice = useCallback(
    (slice: DrawnSlice) => tooltipSentence(slice.name, itemsOf(slice)),
    [itemsOf],
  );
  const report = useCallback(
    (slice: DrawnSlice | null | undefined) => {
      if (!onValueChange) return;
      const rowIndex = slice?.rows[0];
      if (!slice || rowIndex === undefined) {
        onValueChange(null);
        return;
      }
      const event: ChartValueEvent<Row> = {
        row: (data as Row[])[rowIndex] as Row,
        rowIndex,
        seriesKey: valueKey,
        value: slice.value,
      };
      if (slice.rows.length > 1) event.rowIndexes = slice.rows;
      onValueChange(event);
    },
    [onValueChange, data, valueKey],
  );

  const renderTooltip = useCallback(
    ({ active, payload }: { active?: boolean; payload?: readonly { payload?: unknown }[] }) => {
      const slice = payload?.[0]?.payload as DrawnSlice | undefined;
      if (!active || !slice) return null;
      const items = itemsOf(slice);
      const firstRow = slice.rows[0] ?? 0;
      if (typeof tooltip === "function") {
        return tooltip({
          label: slice.name,
          row: (data as Row[])[firstRow] as Row,
          rowIndex: firstRow,
          items,
        });
      }
      return <TooltipPanel label={slice.name} items={items} />;
    },
    [itemsOf, tooltip, data],
  );

  const legendNode =
    status === "loading" ? (
      <LegendSkeleton count={3} />
    ) : (
      <ChartLegend
        entries={colored.map((slice) => ({
          key: slice.name,
          label: slice.name,
          color: slice.fill,
        }))}
        hidden={hidden}
        onToggle={toggle}
        onSelect={props.onLegendSelect}
        onHighlight={setHighlighted}
      />
    );

  const formattedTotal = format(visibleTotal);
  const center =
    variant !== "donut" || props.centerLabel === false
      ? null
      : typeof props.centerLabel === "function"
        ? props.centerLabel(visibleTotal, formattedTotal)
        : (props.centerLabel ?? null);

  const labelText = (entry: { value?: number; name?: string; percent?: number }) => {
    if (labels === "value") return format(entry.value ?? 0);
    if (labels === "name") return entry.name ?? "";
    return percentFormat(entry.percent ?? 0);
  };

  return (
    <ChartFrame
      chartName="PieChart"
      title={title}
      summary={summary}
      status={status}
      chartProps={props}
      frame={frame}
      legendPosition={legend}
      legend={legendNode}
      height={props.height ?? 300}
      liveRegion={liveRegion}
      onPlotKeyDown={
        onValueChange
          ? (event) => {
              if (event.key === "Enter" && activeSlice.current) report(activeSlice.current);
            }
          : undefined
      }
    >
      {({ width, height }) => {
        // room beside the pie for the widest label; each label is then fitted where it lands
        const radius = pieRadius(
          width,
          height,
          labels
            ? Math.max(
                0,
                ...drawn.map((slice) => labelWidth(labelText({ ...slice, percent: slice.share }))),
              )
            : 0,
        );
        // Recharts' label and label-line props: the slice, and where its label goes
        type LabelProps = { cx: number; x: number; y: number; name?: string; value?: number };
        const placed = (entry: LabelProps & { percent?: number }, x = entry.x, y = entry.y) => {
          // anchored as Recharts anchors its labels: away from the centre
          const anchor: "start" | "end" | "middle" =
            x > entry.cx ? "start" : x < entry.cx ? "end" : "middle";
          const text = fitPieLabel(
            labelText(entry),
            x,
            y,
            anchor,
            width,
            height,
            labels === "name",
          );
          return text === null ? null : { text, anchor };
        };
        return (
          <>
            <RechartsPieChart
              width={width}
              height={height}
              accessibilityLayer
              title={title}
              desc={summary}
              aria-label={`${title}. Use the arrow keys to move between slices.`}
            >
              <Pie
                data={drawn}
                dataKey="value"
                nameKey="name"
                outerRadius={radius}
                innerRadius={variant === "donut" ? radius * DONUT_HOLE : 0}
                paddingAngle={drawn.length > 1 ? 1 : 0}
                stroke="var(--seed-chart-bg)"
                // outside labels that would cross the svg's edge are shortened (names) or hidden
                label={
                  labels
                    ? (entry: LabelProps) => {
                        const label = placed(entry);
                        return label ? (
                          <text
                            x={entry.x}
                            y={entry.y}
                            textAnchor={label.anchor}
                            dominantBaseline="central"
                            className="recharts-pie-label-text"
                          >
                            {label.text}
                          </text>
                        ) : (
                          <g />
                        );
                      }
                    : false
                }
                labelLine={
                  labels
                    ? (line: LabelProps & { points: { x: number; y: number }[] }) => {
                        const [from, to] = line.points;
                        return from && to && placed(line, to.x, to.y) ? (
                          <path
                            className="recharts-pie-label-line"
                            d={`M${from.x},${from.y}L${to.x},${to.y}`}
                            stroke="var(--seed-chart-axis-line)"
                            fill="none"
                          />
                        ) : (
                          <g />
                        );
                      }
                    : false
                }
                isAnimationActive={(props.animate ?? true) && !reducedMotion}
                animationBegin={0}
                animationDuration={ANIMATION_MS}
                onClick={(entry: { payload?: unknown }) => report(entry.payload as DrawnSlice)}
                cornerRadius={variant === "donut" ? 2 : 0}
              >
                {variant === "donut" && props.centerLabel !== false ? (
                  <Label
                    position="center"
                    content={({ viewBox }) => {
                      const box = viewBox as { cx?: number; cy?: number } | undefined;
                      return (
                        <CenterLabel
                          cx={box?.cx ?? width / 2}
                          cy={box?.cy ?? height / 2}
                          innerRadius={radius * DONUT_HOLE}
                          custom={center}
                          total={formattedTotal}
                          compactTotal={compactFormat(visibleTotal)}
                          caption={props.centerCaption ?? "Total"}
                        />
                      );
                    }}
                  />
                ) : null}
              </Pie>
              {tooltip !== false ? (
                <Tooltip content={renderTooltip} isAnimationActive={false} />
              ) : null}
              <TooltipAnnouncer
                liveRegion={liveRegion}
                activeRow={activeSlice}
                describe={describeSlice}
              />
            </RechartsPieChart>
            <DataTable
              caption={title}
              indexLabel={indexLabel}
              columns={[
                { key: "value", label: valueLabel },
                { key: "share", label: "Share" },
              ]}
              rows={drawn.map((slice) => ({
                key: slice.name,
                label: slice.name,
                cells: [format(slice.value), percentFormat(slice.share)],
              }))}
              // the caller's names and raw values, like the cartesian charts' CSV
              csv={() => [
                [indexLabel, valueLabel],
                ...drawn.map((slice) => [slice.name, slice.value]),
              ]}
            />
          </>
        );
      }}
    </ChartFrame>
  );
}
