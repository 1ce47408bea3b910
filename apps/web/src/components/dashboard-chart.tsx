"use client";

import { AreaChart, BarChart, LineChart, PieChart } from "@seed/charts";
import { optionsWithDefaults, withMissingBuckets } from "@seed/model";
import type { QueryResult } from "@seed/store";
import { Card } from "@seed/ui";
import { type ReactNode, useMemo, useRef, useSyncExternalStore } from "react";
import { ChartExport } from "./chart-export";
import {
  chartDateFormatter,
  chartIndexAxis,
  chartValueFormatter,
  defaultChartLocale,
  resolveChartLocale,
} from "./chart-format";
import type { ChartView } from "./chart-view";

type ResultRow = QueryResult["rows"][number];

function subscribeToLanguage(onChange: () => void) {
  window.addEventListener("languagechange", onChange);
  return () => window.removeEventListener("languagechange", onChange);
}

/**
 * The browser's language; pages (cached, shared by all visitors) render with the default, and
 * hydration then switches to the visitor's without a mismatch.
 */
function useVisitorLocale(): string {
  return useSyncExternalStore(
    subscribeToLanguage,
    () => navigator.language,
    () => defaultChartLocale,
  );
}

/** Periods filled in as empty past this many rows would cost more than the gap says: drawn as is. */
const maxFilledRows = 5_000;

/** How shares of a total are written when the chart sets no number format: 41.2%. */
const shareFormat = { style: "percent", maximumFractionDigits: 1 } as const;
/** How changes from the period before are written when the chart sets no format: +12.5%. */
const changeFormat = { ...shareFormat, signDisplay: "exceptZero" } as const;

// Formatters are functions, so they are built here on the client from the stored options.
function useChartFormatting(chart: ChartView, result: QueryResult | null) {
  const visitorLocale = useVisitorLocale();
  const { dateFormat, xNumberFormat, locale: choice } = chart.options;
  const locale = resolveChartLocale(choice, visitorLocale);
  // Shares and changes are fractions: drawn as percentages unless the chart sets a format.
  const units = new Set(result?.series.map((entry) => entry.unit) ?? []);
  const only = units.size === 1 ? [...units][0] : undefined;
  const numberFormat =
    chart.options.numberFormat ??
    (only === "share" ? shareFormat : only === "change" ? changeFormat : undefined);
  return useMemo(
    () => ({
      locale,
      valueFormatter: chartValueFormatter(numberFormat, locale),
      indexFormatter: chartDateFormatter(dateFormat, locale),
      indexAxis: chartIndexAxis(xNumberFormat, result?.rows.map((row) => row.x) ?? []),
    }),
    [numberFormat, dateFormat, xNumberFormat, locale, result],
  );
}

/** The x values of a query's rows, written by the date format (a pie names its slices by them). */
function rowsWithNames(
  rows: readonly ResultRow[],
  format: ((value: number | string) => string) | undefined,
): readonly ResultRow[] {
  if (!format) return rows;
  return rows.map((row) =>
    typeof row.x === "string" || typeof row.x === "number" ? { ...row, x: format(row.x) } : row,
  );
}

/**
 * One stored chart drawn with @seed/charts from its query result (rows come from the server as
 * props). A chart whose query no longer fits its dataset shows why instead.
 */
export function DashboardChart({
  chart,
  result,
  error = null,
  headingLevel = "h2",
  height = 280,
}: {
  chart: ChartView;
  result: QueryResult | null;
  error?: string | null;
  headingLevel?: "h1" | "h2" | "h3";
  /** Drawing height in px; a dashboard tile passes its own from its rows. */
  height?: number;
}) {
  const { locale, valueFormatter, indexFormatter, indexAxis } = useChartFormatting(chart, result);
  const pieRows = useMemo(
    () => (chart.type === "pie" && result ? rowsWithNames(result.rows, indexFormatter) : []),
    [chart.type, result, indexFormatter],
  );
  // Defaults come from the model, so the editor shows what pages draw.
  const options = optionsWithDefaults(chart.type, chart.options);
  // Lines and areas over dated periods break where a period has no data, unless told to connect.
  const gapped =
    (chart.type === "line" || chart.type === "area") &&
    chart.grain !== undefined &&
    options.gaps !== "connect";
  const drawnRows = useMemo(
    () =>
      result && gapped && chart.grain
        ? withMissingBuckets(
            result.rows,
            chart.grain,
            result.series.map((entry) => entry.key),
            maxFilledRows,
          )
        : (result?.rows ?? []),
    [result, gapped, chart.grain],
  );
  const drawing = useRef<HTMLDivElement>(null);
  if (!result) {
    return (
      <Card title={chart.title} titleAs={headingLevel}>
        <p role="status">This chart cannot be drawn: {error ?? "it has no result."}</p>
      </Card>
    );
  }
  const legend = options.showLegend === false ? false : options.legendPosition;
  const { stack } = options;
  const series = result.series.map((entry) => ({ key: entry.key, label: entry.label }));
  const common = {
    data: result.rows,
    title: chart.title,
    height,
    locale,
    legend,
    valueFormatter,
  } as const;
  // Line, area and bar charts draw the result's series over its index.
  const indexed = {
    ...common,
    data: drawnRows,
    index: "x",
    indexLabel: result.x.label,
    series,
    indexFormatter,
  } as const;
  let drawn: ReactNode;
  switch (chart.type) {
    case "line":
      drawn = (
        <LineChart<ResultRow>
          {...indexed}
          xAxis={indexAxis}
          curve={options.curve}
          connectNulls={options.gaps === "connect"}
        />
      );
      break;
    case "area":
      drawn = (
        <AreaChart<ResultRow>
          {...indexed}
          xAxis={indexAxis}
          curve={options.curve}
          stack={stack}
          connectNulls={options.gaps === "connect"}
        />
      );
      break;
    case "bar":
      drawn = (
        <BarChart<ResultRow>
          {...indexed}
          // horizontal bars hold the index on the vertical axis
          {...(options.horizontal ? { yAxis: indexAxis } : { xAxis: indexAxis })}
          stack={stack}
          horizontal={options.horizontal}
          valueLabels={options.valueLabels === "value"}
        />
      );
      break;
    case "pie":
      drawn = (
        <PieChart<ResultRow>
          {...common}
          data={pieRows}
          index="x"
          indexLabel={result.x.label}
          value={series[0] ?? ""}
          variant={options.donut ? "donut" : "pie"}
          labels={options.valueLabels === "none" ? false : options.valueLabels}
          otherThreshold={options.otherThreshold}
        />
      );
      break;
  }
  return (
    <Card title={chart.title} titleAs={headingLevel}>
      <div ref={drawing}>{drawn}</div>
      <ChartExport target={drawing} title={chart.title} />
      {result.notes.length > 0 ? (
        <ul className="chart-notes">
          {result.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
