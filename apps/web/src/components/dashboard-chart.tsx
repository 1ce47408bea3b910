"use client";

import { AreaChart, BarChart, LineChart, PieChart } from "@seed/charts";
import { annotate } from "@seed/charts/annotations";
import { CalendarHeatmap } from "@seed/charts/calendar-heatmap";
import { ComboChart } from "@seed/charts/combo-chart";
import { ScatterChart } from "@seed/charts/scatter-chart";
import { TableChart } from "@seed/charts/table-chart";
import { duplicateXNote } from "@seed/model";
import type { QueryResult } from "@seed/store";
import { Card } from "@seed/ui";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useMemo, useRef, useSyncExternalStore } from "react";
import { chartDrawing } from "./chart-drawing";
import { ChartExport } from "./chart-export";
import { defaultChartLocale } from "./chart-format";
import type { ChartView } from "./chart-view";
import { type CrossFilterLink, legendHref, type ValueClick, valueClickHref } from "./cross-filter";
import {
  clickDrills,
  type DrillLink,
  drillClickHref,
  drillCrumbs,
  drillLegendHref,
  drillTarget,
} from "./drill-down";

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
  drill,
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
  /**
   * On a page with filters, for a chart with a time axis of years, quarters or months: a click on
   * a period drills into it (its value clicks then drill rather than filter), a breadcrumb leads back.
   */
  drill?: DrillLink | undefined;
}) {
  const visitorLocale = useVisitorLocale();
  const router = useRouter();
  // Formatters are functions, so they are built here on the client from the stored options.
  const drawingProps = useMemo(
    () => (result ? chartDrawing(chart, result, visitorLocale, height) : null),
    [chart, result, visitorLocale, height],
  );
  // Annotations reach the kit through `annotate`, made once per drawing (a new value places them again).
  const annotations = useMemo(
    () =>
      drawingProps && drawingProps.annotations.length > 0
        ? annotate(drawingProps.annotations)
        : undefined,
    [drawingProps],
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
  // A scatter's colours are a breakdown's series by name: its clicks and legend name the series
  // by its label, which links read by key; its rows are points, not the query's rows.
  const scatter = drawingProps.type === "scatter";
  const seriesKeyOf = (name: string | undefined) =>
    scatter ? result.series.find((entry) => entry.label === name)?.key : name;
  // Legend entries choose a value where they stand for one (a pie's slices, a breakdown's
  // series); elsewhere they keep hiding and showing series.
  const legendChooses = pie ? crossFilter?.on.x : crossFilter?.on.series;
  const drills = drill !== undefined && clickDrills(drill.drill);
  const clicks = {
    ...(drills
      ? {
          onValueChange: (event: ValueClick | null) => {
            if (event && event.rowIndexes === undefined) {
              go(drillClickHref(drill, result, event.rowIndex));
            }
          },
        }
      : crossFilter
        ? {
            onValueChange: (event: ValueClick | null) => {
              if (!event) return;
              if (!scatter) return go(valueClickHref(crossFilter, result, event));
              // a point stands for its colour's series only (x is a position, no category)
              const seriesKey = seriesKeyOf(event.seriesKey);
              if (seriesKey !== undefined) go(legendHref(crossFilter, result, false, seriesKey));
            },
          }
        : {}),
    ...(drills && pie
      ? { onLegendSelect: (key: string) => go(drillLegendHref(drill, result, key)) }
      : crossFilter && legendChooses
        ? {
            onLegendSelect: (key: string) => {
              const seriesKey = seriesKeyOf(key);
              if (seriesKey !== undefined) go(legendHref(crossFilter, result, pie, seriesKey));
            },
          }
        : {}),
  };
  // what the line, area, bar and combo charts take beside their own props
  const cartesian = { ...clicks, annotations, fallback };
  let drawn: ReactNode;
  switch (drawingProps.type) {
    case "line":
      drawn = <LineChart<ResultRow> {...drawingProps.props} {...cartesian} />;
      break;
    case "area":
      drawn = <AreaChart<ResultRow> {...drawingProps.props} {...cartesian} />;
      break;
    case "bar":
      drawn = <BarChart<ResultRow> {...drawingProps.props} {...cartesian} />;
      break;
    case "combo":
      drawn = <ComboChart<ResultRow> {...drawingProps.props} {...cartesian} />;
      break;
    case "pie":
      drawn = <PieChart<ResultRow> {...drawingProps.props} {...clicks} fallback={fallback} />;
      break;
    case "calendar":
      drawn = (
        <CalendarHeatmap<ResultRow> {...drawingProps.props} {...clicks} fallback={fallback} />
      );
      break;
    case "scatter":
      drawn = <ScatterChart<ResultRow> {...drawingProps.props} {...clicks} fallback={fallback} />;
      break;
    case "table":
      // Its rows are HTML in the page already: no drawing to stand in for it. A row's header is
      // a button only where pressing it leads somewhere (a drill, or a filter by x).
      drawn = (
        <TableChart<ResultRow>
          {...drawingProps.props}
          {...(drills || crossFilter?.on.x ? { onValueChange: clicks.onValueChange } : {})}
        />
      );
      break;
  }
  // points may share x: a scatter is not told to combine them
  const notes = scatter
    ? result.notes.filter((note) => note !== duplicateXNote(result.duplicateX ?? 0))
    : result.notes;
  const hint = chartHint(crossFilter, drill, drawingProps.type);
  const crumbs = drill ? drillCrumbs(drill) : [];
  return (
    <Card title={chart.title} titleAs={headingLevel}>
      {crumbs.length > 0 ? (
        <nav
          className="chart-drill"
          aria-label={`${drill?.drill.kind === "category" ? "Levels" : "Periods"} of ${chart.title}`}
        >
          <ol>
            {crumbs.map((crumb, level) => (
              // a value may repeat across levels (a city named as its state): keyed by level;
              // a long value is cut with an ellipsis, its whole text in the title
              <li key={level} title={crumb.label}>
                {crumb.href === null ? (
                  <span aria-current="page">{crumb.label}</span>
                ) : (
                  <Link href={crumb.href} scroll={false}>
                    {crumb.label}
                  </Link>
                )}
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <div ref={drawing} className={hint ? "chart-cross-filter" : undefined}>
        {drawn}
      </div>
      {hint ? (
        <p className="chart-hint no-print" title={hint}>
          {hint}
        </p>
      ) : null}
      <ChartExport
        target={drawing}
        title={chart.title}
        formats={drawingProps.type === "table" ? ["csv"] : undefined}
      />
      {notes.length > 0 ? (
        <ul className="chart-notes">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}

/**
 * What a chart that acts on click tells its reader: "Select a bar to see its quarters.", "Select
 * a bar to filter the dashboard by region."
 */
function chartHint(
  link: CrossFilterLink | undefined,
  drill: DrillLink | undefined,
  type: ChartView["type"],
): string | null {
  const mark = {
    line: "point",
    area: "point",
    bar: "bar",
    pie: "slice",
    table: "row",
    scatter: "point",
    combo: "bar or point",
    calendar: "day",
  }[type];
  const target = drillTarget(drill?.drill);
  if (target !== null) {
    const series = link?.on.series;
    return series
      ? `Select a ${mark} to see ${target}, a legend entry to filter the dashboard by ${series.column}.`
      : `Select a ${mark} to see ${target}.`;
  }
  if (!link) return null;
  const { x, series } = link.on;
  if (x) return `Select a ${mark} to filter the dashboard by ${x.column}.`;
  // A table has no legend: its series' columns filter nothing.
  if (series && type !== "table")
    return `Select a ${type === "bar" ? "bar" : type === "scatter" ? "point or legend entry" : "legend entry"} to filter the dashboard by ${series.column}.`;
  return null;
}
