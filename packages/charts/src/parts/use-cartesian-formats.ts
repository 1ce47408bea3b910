import { useMemo } from "react";
import {
  createFullTimeFormatter,
  createNumberFormatter,
  createTickFormatter,
  createTimeFormatter,
  DAY,
  timeFormatOptions,
} from "../data/format";
import type { CartesianFrame } from "../data/rows";
import type { ResolvedSeries, ValueFormatter } from "../data/series";
import type { AxisOptions } from "../types";

export type TickFormat = (value: number | string) => string;

export interface CartesianFormatOptions {
  frame: CartesianFrame;
  locale: string | undefined;
  timeZone: string;
  vertical: boolean;
  /** Stacked to 100%: the value axis shows percentages. */
  percent: boolean;
  xAxis: AxisOptions | undefined;
  yAxis: AxisOptions | undefined;
  valueFormatter: ValueFormatter | undefined;
  indexFormatter: TickFormat | undefined;
}

export interface CartesianFormats {
  /** Values in tooltips, the table and the summary. */
  valueFormat: ValueFormatter;
  /** Value axis ticks: compact and exact ("1.05K"), percent, or the caller's. */
  valueTickFormat: TickFormat;
  /** Index axis ticks: short. */
  indexTickFormat: TickFormat;
  /** Index in tooltips, the table and the summary: full. */
  indexFullFormat: TickFormat;
}

export function formatSeriesValue(series: ResolvedSeries, fallback: ValueFormatter, value: number) {
  return (series.formatter ?? fallback)(value);
}

/** "A, B and C" for titles and summaries. */
export function seriesLabels(series: readonly ResolvedSeries[]): string {
  const labels = series.map((s) => s.label);
  if (labels.length <= 1) return labels.join("");
  return `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
}

/** How a cartesian chart writes its values and index on axes, in tooltips and in the table. */
export function useCartesianFormats({
  frame,
  locale,
  timeZone,
  vertical,
  percent,
  xAxis,
  yAxis,
  valueFormatter,
  indexFormatter,
}: CartesianFormatOptions): CartesianFormats {
  const valueFormat = useMemo(
    () => valueFormatter ?? createNumberFormatter(locale, { maximumFractionDigits: 2 }),
    [valueFormatter, locale],
  );
  const valueTickFormat = useMemo(() => {
    const custom = (vertical ? xAxis : yAxis)?.tickFormatter;
    if (custom) return custom;
    if (percent) {
      const format = createNumberFormatter(locale, { style: "percent", maximumFractionDigits: 0 });
      return (v: number | string) => format(+v);
    }
    if (valueFormatter) return (v: number | string) => valueFormatter(+v);
    return createTickFormatter(locale);
  }, [vertical, xAxis, yAxis, percent, locale, valueFormatter]);

  // index formatting: short for ticks, full for tooltip and table
  const indexNumberFormat = (vertical ? yAxis : xAxis)?.numberFormat;
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
        indexTickFormat: (v: number | string) => tick(+v),
        indexFullFormat: (v: number | string) => full(+v),
      };
    }
    if (frame.kind === "number") {
      const format = createNumberFormatter(locale, indexNumberFormat);
      return {
        indexTickFormat: (v: number | string) => format(+v),
        indexFullFormat: (v: number | string) => format(+v),
      };
    }
    return { indexTickFormat: String, indexFullFormat: String };
  }, [indexFormatter, frame, locale, timeZone, indexNumberFormat]);

  return { valueFormat, valueTickFormat, indexTickFormat, indexFullFormat };
}
