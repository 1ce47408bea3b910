import {
  type KeyboardEvent,
  memo,
  type ReactNode,
  useCallback,
  useMemo,
  useRef,
  useState,
} from "react";
import { createNumberFormatter, DAY } from "../data/format";
import type { RowKey, ValueFormatter } from "../data/series";
import { ChartBoundary } from "../parts/chart-error-boundary";
import { ChartFrame } from "../parts/chart-frame";
import { DataTable } from "../parts/data-table";
import { useIsomorphicLayoutEffect } from "../parts/environment";
import { type ChartTooltipItem, TooltipPanel } from "../parts/tooltip";
import { useDataIssues } from "../parts/use-data-issues";
import type { BaseChartProps, ChartValueEvent } from "../types";
import {
  binCount,
  binsOf,
  type CalendarBins,
  type CalendarFrame,
  type CalendarLayout,
  calendarFormats,
  cellPaths,
  emptyStroke,
  isoDay,
  layoutCalendar,
  MAX_YEARS,
  pitchFor,
  prepareCalendarFrame,
  rampOf,
  safeLocale,
  yearHeight,
} from "./prepare";

export interface CalendarHeatmapProps<Row>
  extends Omit<BaseChartProps<Row>, "legend" | "onLegendSelect" | "aspectRatio" | "animate"> {
  /** Row key of each row's day: a Date, a ms timestamp or an ISO string ("2012-01-31"). */
  date: RowKey<Row>;
  /** Row key of the value (a number) that colours the day. Rows of one day are summed. */
  value: RowKey<Row>;
  /** Name of the values in the tooltip, table and summary (default: the `value` key). */
  valueLabel?: string;
  /** IANA time zone that decides the day of Dates and timestamps (default "UTC"). */
  timeZone?: string;
  /** First day of the week: 1 Monday (default) or 0 Sunday. */
  weekStart?: 0 | 1;
  /**
   * Colours of the bins, least to most: as many equal-width bins as colours. Default 5 bins of
   * the theme's first palette colour mixed into its background (light and dark).
   */
  colors?: readonly string[];
  /** The bins and their value ranges under the calendar (default true). */
  legend?: boolean;
}

/** A calendar of days, a column per week and a row per weekday, each day coloured by its value. */
export function CalendarHeatmap<Row>(props: CalendarHeatmapProps<Row>) {
  return (
    <ChartBoundary chartName="CalendarHeatmap" props={{ ...props, legend: undefined }}>
      <CalendarBody {...props} />
    </ChartBoundary>
  );
}

interface Formats {
  day: (day: number) => string;
  date: (day: number) => string;
  month: (day: number) => string;
  weekday: (weekday: number) => string;
  value: ValueFormatter;
}

function CalendarBody<Row>(props: CalendarHeatmapProps<Row>) {
  const { data, date, value, onValueChange } = props;
  const locale = safeLocale(props.locale);
  const weekStart = props.weekStart === 0 ? 0 : 1;
  const valueLabel = props.valueLabel ?? value;
  const frame = useMemo(
    () => prepareCalendarFrame(data, { date, value, timeZone: props.timeZone }),
    [data, date, value, props.timeZone],
  );
  useDataIssues("CalendarHeatmap", frame.issues, props.onDataIssues);
  const count = binCount(props.colors);
  const bins = useMemo(() => binsOf(frame.range, count), [frame.range, count]);
  const ramp = useMemo(
    () => rampOf(bins.edges.length - 1, props.colors),
    [bins.edges.length, props.colors],
  );
  const formats = useMemo(
    (): Formats => ({
      ...calendarFormats(locale),
      value: props.valueFormatter ?? createNumberFormatter(locale, { maximumFractionDigits: 2 }),
    }),
    [locale, props.valueFormatter],
  );

  // the box fits the drawing at the width last drawn (the initial width on the server)
  const [drawnWidth, setDrawnWidth] = useState(props.width ?? props.initialWidth ?? 640);
  const height =
    props.height ?? Math.max(120, frame.years.length * yearHeight(pitchFor(drawnWidth)));

  const status = props.loading ? "loading" : frame.emptyReason ? "empty" : "ready";
  const title = props.title ?? `Calendar heatmap of ${valueLabel}`;
  const summary = useMemo(() => {
    if (props.description) return props.description;
    if (frame.emptyReason) return `${title}: ${frame.emptyReason}.`;
    return describeCalendar(frame, valueLabel, formats, locale);
  }, [props.description, frame, title, valueLabel, formats, locale]);

  const rows = Array.isArray(data) ? (data as readonly Row[]) : [];
  const report = useCallback(
    (at: number | null) => {
      if (!onValueChange) return;
      const members = at === null ? undefined : frame.rows[at];
      if (at === null || !members?.length) {
        onValueChange(null);
        return;
      }
      const rowIndex = members[0] as number;
      const v = frame.values[at] as number;
      const event: ChartValueEvent<Row> = {
        row: rows[rowIndex] as Row,
        rowIndex,
        seriesKey: value,
        value: Number.isNaN(v) ? null : v,
      };
      if (members.length > 1) event.rowIndexes = members;
      onValueChange(event);
    },
    [onValueChange, frame, rows, value],
  );

  const liveRegion = useRef<HTMLParagraphElement | null>(null);
  const legendNode =
    status === "ready" ? <CalendarLegend bins={bins} ramp={ramp} format={formats.value} /> : null;

  return (
    <ChartFrame
      chartName="CalendarHeatmap"
      title={title}
      summary={summary}
      status={status}
      chartProps={props}
      frame={frame}
      legendPosition={props.legend === false ? false : "bottom"}
      legend={legendNode}
      height={height}
      liveRegion={liveRegion}
    >
      {({ width, height: boxHeight }) => (
        <CalendarPlot
          frame={frame}
          bins={bins}
          ramp={ramp}
          width={width}
          height={boxHeight}
          weekStart={weekStart}
          title={title}
          summary={summary}
          valueLabel={valueLabel}
          dateLabel={date}
          formats={formats}
          liveRegion={liveRegion}
          report={onValueChange ? report : null}
          onWidth={setDrawnWidth}
          tooltip={
            props.tooltip === false
              ? null
              : (at, label, items) => {
                  const custom = props.tooltip;
                  // a custom tooltip gets the day's (first) row; a day without rows has none
                  const rowIndex = at >= 0 ? frame.rows[at]?.[0] : undefined;
                  if (typeof custom === "function" && rowIndex !== undefined) {
                    return custom({ label, row: rows[rowIndex] as Row, rowIndex, items });
                  }
                  return <TooltipPanel label={label} items={items} />;
                }
          }
        />
      )}
    </ChartFrame>
  );
}

/** The summary sentence: what, how many days, from when to when, and the values' range. */
export function describeCalendar(
  frame: CalendarFrame,
  valueLabel: string,
  formats: Pick<Formats, "date" | "value">,
  locale: string | undefined,
): string {
  const count = createNumberFormatter(locale)(frame.valued);
  const first = frame.days[0] as number;
  const last = frame.days[frame.days.length - 1] as number;
  const [min, max] = frame.range ?? [0, 0];
  let text = `Calendar heatmap of ${valueLabel}, ${count} ${frame.valued === 1 ? "day" : "days"} from ${formats.date(first)} to ${formats.date(last)}; from ${formats.value(min)} to ${formats.value(max)}.`;
  if (frame.hiddenDays > 0) {
    text += ` Only the latest ${MAX_YEARS} years with data are drawn; ${frame.hiddenDays} earlier ${frame.hiddenDays === 1 ? "day is" : "days are"} not.`;
  }
  if (frame.summedDays > 0) {
    text += ` ${frame.summedDays} ${frame.summedDays === 1 ? "day has" : "days have"} several rows, summed.`;
  }
  return text;
}

/** A legend entry laid out as the other charts' (their buttons' box), but not a button. */
const LEGEND_ENTRY = {
  display: "inline-flex",
  alignItems: "center",
  gap: "0.375rem",
  minHeight: "1.5rem",
  padding: "0.125rem 0.375rem",
} as const;

/** The bins with their ranges as text, and the look of a day without data. */
function CalendarLegend(props: {
  bins: CalendarBins;
  ramp: readonly string[];
  format: ValueFormatter;
}) {
  const { edges } = props.bins;
  const n = edges.length - 1;
  const items: { key: string; label: string; fill: string; stroke: string }[] = [];
  for (let k = 0; k < n; k++) {
    const from = props.format(edges[k] as number);
    const to = props.format(edges[k + 1] as number);
    items.push({
      key: String(k),
      label: from === to ? from : `${from} – ${to}`,
      fill: props.ramp[k] ?? "currentColor",
      stroke: props.ramp[k] ?? "currentColor",
    });
  }
  items.push({ key: "none", label: "No data", fill: "transparent", stroke: emptyStroke() });
  return (
    // at most 13 entries, never a scrolling list (a scroll box with nothing to focus in it)
    <ul
      className="seed-chart-legend"
      aria-label="Legend: colours of the values"
      style={{ maxHeight: "none", overflow: "visible" }}
    >
      {items.map((item) => (
        <li key={item.key} className="seed-chart-legend-item" data-bin={item.key}>
          <span style={LEGEND_ENTRY}>
            <span
              className="seed-chart-swatch"
              style={{ background: item.fill, color: item.stroke, borderWidth: 1 }}
            />
            <span className="seed-chart-legend-name">{item.label}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

interface CalendarPlotProps {
  frame: CalendarFrame;
  bins: CalendarBins;
  ramp: readonly string[];
  width: number;
  height: number;
  weekStart: 0 | 1;
  title: string;
  summary: string;
  valueLabel: string;
  dateLabel: string;
  formats: Formats;
  liveRegion: { current: HTMLParagraphElement | null };
  report: ((at: number | null) => void) | null;
  onWidth: (width: number) => void;
  tooltip: ((at: number, label: string, items: ChartTooltipItem[]) => ReactNode) | null;
}

/** The calendar's SVG in a box that scrolls when it is taller or wider, and its data table. */
function CalendarPlot(p: CalendarPlotProps) {
  const { frame, width, onWidth } = p;
  useIsomorphicLayoutEffect(() => onWidth(width), [width, onWidth]);
  const layout = useMemo(
    () => layoutCalendar(frame, p.bins, width, p.weekStart),
    [frame, p.bins, width, p.weekStart],
  );
  const byDay = useMemo(() => {
    const map = new Map<number, number>();
    layout.cells.forEach((cell, k) => {
      map.set(cell.day, k);
    });
    return map;
  }, [layout]);
  const [active, setActive] = useState<number | null>(null);
  const [shownLayout, setShownLayout] = useState(layout);
  if (shownLayout !== layout) {
    setShownLayout(layout);
    setActive(null);
  }
  const cell = active === null ? undefined : layout.cells[active];

  const describe = useCallback(
    (k: number): { label: string; items: ChartTooltipItem[]; sentence: string } => {
      const c = layout.cells[k] as (typeof layout.cells)[number];
      const label = p.formats.day(c.day);
      const v = c.at < 0 ? NaN : (frame.values[c.at] as number);
      const text = c.at < 0 ? "no data" : Number.isNaN(v) ? "no value" : p.formats.value(v);
      const items: ChartTooltipItem[] = [
        {
          key: "value",
          label: p.valueLabel,
          color: c.bin >= 0 ? (p.ramp[c.bin] ?? "currentColor") : "transparent",
          value: Number.isNaN(v) ? null : v,
          formattedValue: text,
        },
      ];
      const members = c.at < 0 ? 0 : (frame.rows[c.at]?.length ?? 0);
      if (members > 1) {
        items.push({
          key: "rows",
          label: "Rows summed",
          color: "transparent",
          value: members,
          formattedValue: String(members),
        });
      }
      return { label, items, sentence: `${label}: ${text}` };
    },
    [layout, frame, p.formats, p.valueLabel, p.ramp],
  );

  const show = (k: number | null) => {
    setActive(k);
    const region = p.liveRegion.current;
    if (region) region.textContent = k === null ? "" : describe(k).sentence;
  };

  /** The drawn day nearest `day` in the direction of travel (skipped years are jumped over). */
  const seek = (day: number, forward: boolean): number | null => {
    const exact = byDay.get(day);
    if (exact !== undefined) return exact;
    const cells = layout.cells;
    if (cells.length === 0) return null;
    let lo = 0;
    let hi = cells.length - 1;
    // first cell after `day`
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cells[mid] as { day: number }).day > day) hi = mid;
      else lo = mid + 1;
    }
    if (forward) return (cells[lo] as { day: number }).day > day ? lo : cells.length - 1;
    return (cells[lo] as { day: number }).day > day ? Math.max(0, lo - 1) : lo;
  };

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const cells = layout.cells;
    if (cells.length === 0) return;
    const from = cell ?? null;
    const start = from
      ? from.day
      : (cells[cells.findIndex((c) => c.at >= 0)] ?? (cells[0] as { day: number })).day;
    let next: number | null | undefined;
    const monthShift = (months: number) => {
      const d = new Date(start * DAY);
      const target = new Date(0);
      // day 0 of the month after: the last day of the month wanted, whose length caps the date
      target.setUTCFullYear(d.getUTCFullYear(), d.getUTCMonth() + months + 1, 0);
      const t = target.setUTCDate(Math.min(d.getUTCDate(), target.getUTCDate()));
      return Number.isNaN(t) ? null : seek(Math.round(t / DAY), months > 0);
    };
    if (!from && /^Arrow|^Page|^Home$|^End$/.test(event.key)) next = byDay.get(start) ?? 0;
    else if (event.key === "ArrowDown") next = seek(start + 1, true);
    else if (event.key === "ArrowUp") next = seek(start - 1, false);
    else if (event.key === "ArrowRight") next = seek(start + 7, true);
    else if (event.key === "ArrowLeft") next = seek(start - 7, false);
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = cells.length - 1;
    else if (event.key === "PageDown") next = monthShift(event.shiftKey ? 12 : 1);
    else if (event.key === "PageUp") next = monthShift(event.shiftKey ? -12 : -1);
    else if (event.key === "Escape") next = null;
    else if (event.key === "Enter" || event.key === " ") {
      if (from && p.report) {
        event.preventDefault();
        p.report(from.at < 0 ? null : from.at);
      }
      return;
    } else return;
    event.preventDefault();
    show(next ?? null);
  };

  const cellAt = (event: { clientX: number; clientY: number; currentTarget: Element }) => {
    const box = event.currentTarget.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    // cells are few per column: look them up by their square
    for (let k = 0; k < layout.cells.length; k++) {
      const c = layout.cells[k] as (typeof layout.cells)[number];
      if (x >= c.x && x < c.x + layout.pitch && y >= c.y && y < c.y + layout.pitch) return k;
    }
    return null;
  };

  const tip = cell && active !== null && p.tooltip ? describe(active) : null;
  const stroke = emptyStroke();
  return (
    <>
      <div
        className="seed-calendar-scroll"
        style={{ position: "relative", width: "100%", height: "100%", overflow: "auto" }}
      >
        <svg
          // the class of the other charts' surface: the stylesheet's focus ring, the fallback
          // hidden once this is drawn, and exportChart's SVG and PNG find it
          className="recharts-surface seed-calendar"
          width={layout.width}
          height={layout.height}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          role="application"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the calendar is one focusable grid (an application): arrow keys move through its days
          tabIndex={0}
          aria-label={`${p.title}. Use the arrow keys to move between days, Page Up and Page Down by month.`}
          style={{ display: "block", fontSize: 10 }}
          onKeyDown={onKeyDown}
          onBlur={() => show(null)}
          onPointerMove={(event) => {
            const found = cellAt(event);
            if (found !== active) show(found);
          }}
          onPointerLeave={(event) => {
            if (event.pointerType === "mouse") show(null);
          }}
          onClick={(event) => {
            const found = cellAt(event);
            show(found);
            const c = found === null ? undefined : layout.cells[found];
            p.report?.(c && c.at >= 0 ? c.at : null);
          }}
        >
          <title>{p.title}</title>
          <desc>{p.summary}</desc>
          <CalendarMarks layout={layout} ramp={p.ramp} stroke={stroke} formats={p.formats} />
          {cell ? (
            <rect
              className="seed-calendar-active"
              x={cell.x - 1}
              y={cell.y - 1}
              width={layout.size + 2}
              height={layout.size + 2}
              fill="none"
              stroke="var(--seed-chart-focus)"
              strokeWidth={2}
              pointerEvents="none"
            />
          ) : null}
        </svg>
        {tip && cell ? (
          <div
            className="seed-scatter-tooltip"
            style={{
              transform:
                `translate(${cell.x}px, ${cell.y}px) ` +
                `translate(${cell.x > layout.width / 2 ? "calc(-100% - 8px)" : `${layout.size + 8}px`}, ` +
                `${cell.y > layout.height / 2 ? "calc(-100% - 8px)" : `${layout.size + 8}px`})`,
            }}
          >
            {p.tooltip?.(cell.at, tip.label, tip.items)}
          </div>
        ) : null}
      </div>
      <CalendarTable
        frame={frame}
        formats={p.formats}
        title={p.title}
        valueLabel={p.valueLabel}
        dateLabel={p.dateLabel}
      />
    </>
  );
}

/** The drawn marks, apart from the pointer's state: a hover re-renders none of them. */
function CalendarMarksInner(props: {
  layout: CalendarLayout;
  ramp: readonly string[];
  stroke: string;
  formats: Formats;
}) {
  const { layout, ramp, stroke, formats } = props;
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG group is never focusable
    <g aria-hidden="true">
      {layout.yearLabels.map((label) => (
        <text
          key={`y${label.year}`}
          x={label.x}
          y={label.y}
          fill="var(--seed-chart-fg)"
          fontSize={12}
          fontWeight={600}
        >
          {label.year}
        </text>
      ))}
      {layout.monthLabels.map((label) => (
        <text key={`m${label.day}`} x={label.x} y={label.y} fill="var(--seed-chart-axis)">
          {formats.month(label.day)}
        </text>
      ))}
      {layout.weekdayLabels.map((label) => (
        <text
          key={`w${label.y}`}
          x={label.x}
          y={label.y}
          textAnchor="end"
          fill="var(--seed-chart-axis)"
        >
          {formats.weekday(label.weekday)}
        </text>
      ))}
      {cellPaths(layout).map((part) =>
        part.bin < 0 ? (
          <path
            key="none"
            className="seed-calendar-cells"
            data-bin="none"
            d={part.d}
            fill="none"
            stroke={stroke}
            strokeWidth={1}
          />
        ) : (
          <path
            key={part.bin}
            className="seed-calendar-cells"
            data-bin={part.bin}
            d={part.d}
            fill={ramp[part.bin]}
          />
        ),
      )}
    </g>
  );
}

// pure: the root index inlines this module, and a bundle of LineChart alone must drop it whole
const CalendarMarks = /* @__PURE__ */ memo(CalendarMarksInner);

/** Most days the hidden table lists (the latest): four years, and its rows stay a few thousand nodes. */
const TABLE_LIMIT = 1500;

function CalendarTable(props: {
  frame: CalendarFrame;
  formats: Formats;
  title: string;
  valueLabel: string;
  dateLabel: string;
}) {
  const { frame, formats } = props;
  const total = frame.days.length;
  const listed: number[] = [];
  for (let k = Math.max(0, total - TABLE_LIMIT); k < total; k++) listed.push(k);
  return (
    <DataTable
      caption={
        listed.length < total
          ? `${props.title} (the latest ${listed.length} of ${total} days)`
          : props.title
      }
      indexLabel={props.dateLabel}
      columns={[{ key: "value", label: props.valueLabel }]}
      rows={listed.map((k) => {
        const v = frame.values[k] as number;
        return {
          key: String(frame.days[k]),
          label: formats.date(frame.days[k] as number),
          cells: [Number.isNaN(v) ? "–" : formats.value(v)],
        };
      })}
      csv={() => [
        [props.dateLabel, props.valueLabel],
        ...Array.from(frame.days, (day, k) => {
          const v = frame.values[k] as number;
          return [isoDay(day), Number.isNaN(v) ? null : v];
        }),
      ]}
    />
  );
}
