"use client";

import { AreaChart, BarChart, LineChart, PieChart } from "@seed/charts";
import type { QueryResult } from "@seed/store";
import { Card } from "@seed/ui";
import { useRouter } from "next/navigation";
import { type ReactNode, useMemo, useRef, useSyncExternalStore } from "react";
import { chartDrawing } from "./chart-drawing";
import { ChartExport } from "./chart-export";
import { defaultChartLocale } from "./chart-format";
import type { ChartView } from "./chart-view";
import { type CrossFilterLink, legendHref, type ValueClick, valueClickHref } from "./cross-filter";

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
  staticSvg,
  crossFilter,
}: {
  chart: ChartView;
  result: QueryResult | null;
  error?: string | null;
  headingLevel?: "h1" | "h2" | "h3";
  /** Drawing height in px; a dashboard tile passes its own from its rows. */
  height?: number;
  /** The same chart drawn by the server (chartSvg), shown until the kit has drawn it. */
  staticSvg?: string | undefined;
  /**
   * On a filterable page, for a chart whose values stand for a filter's (filtersOnClick): a click
   * on a value or legend entry filters the page by it.
   */
  crossFilter?: CrossFilterLink | undefined;
}) {
  const visitorLocale = useVisitorLocale();
  const router = useRouter();
  // Formatters are functions, so they are built here on the client from the stored options.
  const drawingProps = useMemo(
    () => (result ? chartDrawing(chart, result, visitorLocale, height) : null),
    [chart, result, visitorLocale, height],
  );
  const drawing = useRef<HTMLDivElement>(null);
  if (!result || !drawingProps) {
    return (
      <Card title={chart.title} titleAs={headingLevel}>
        <p role="status">This chart cannot be drawn: {error ?? "it has no result."}</p>
      </Card>
    );
  }
  // The server's drawing, shown over the plot until the kit has drawn: markup chartSvg wrote,
  // every text of the data escaped in it.
  const fallback = staticSvg ? (
    <div className="seed-chart-fallback" dangerouslySetInnerHTML={{ __html: staticSvg }} />
  ) : undefined;
  // Cross-filter: a value or legend entry that stands for a filter's value leads to its link.
  const go = (href: string | null) => {
    if (href !== null) router.push(href, { scroll: false });
  };
  const pie = drawingProps.type === "pie";
  // Legend entries choose a value where they stand for one (a pie's slices, a breakdown's
  // series); elsewhere they keep hiding and showing series.
  const legendChooses = pie ? crossFilter?.on.x : crossFilter?.on.series;
  const clicks = crossFilter
    ? {
        onValueChange: (event: ValueClick | null) => {
          if (event) go(valueClickHref(crossFilter, result, event));
        },
        ...(legendChooses
          ? { onLegendSelect: (key: string) => go(legendHref(crossFilter, result, pie, key)) }
          : {}),
      }
    : {};
  let drawn: ReactNode;
  switch (drawingProps.type) {
    case "line":
      drawn = <LineChart<ResultRow> {...drawingProps.props} {...clicks} fallback={fallback} />;
      break;
    case "area":
      drawn = <AreaChart<ResultRow> {...drawingProps.props} {...clicks} fallback={fallback} />;
      break;
    case "bar":
      drawn = <BarChart<ResultRow> {...drawingProps.props} {...clicks} fallback={fallback} />;
      break;
    case "pie":
      drawn = <PieChart<ResultRow> {...drawingProps.props} {...clicks} fallback={fallback} />;
      break;
  }
  const hint = crossFilter ? crossFilterHint(crossFilter, drawingProps.type) : null;
  return (
    <Card title={chart.title} titleAs={headingLevel}>
      <div ref={drawing} className={hint ? "chart-cross-filter" : undefined}>
        {drawn}
      </div>
      {hint ? (
        <p className="chart-hint no-print" title={hint}>
          {hint}
        </p>
      ) : null}
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

/** What a chart that filters on click tells its reader: "Select a bar to filter by region." */
function crossFilterHint(link: CrossFilterLink, type: ChartView["type"]): string | null {
  const mark = { line: "point", area: "point", bar: "bar", pie: "slice" }[type];
  const { x, series } = link.on;
  if (x) return `Select a ${mark} to filter the dashboard by ${x.column}.`;
  if (series)
    return `Select a ${type === "bar" ? "bar" : "legend entry"} to filter the dashboard by ${series.column}.`;
  return null;
}
