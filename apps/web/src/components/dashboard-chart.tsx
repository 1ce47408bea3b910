"use client";

import { AreaChart, BarChart, LineChart, PieChart } from "@seed/charts";
import type { QueryResult } from "@seed/store";
import { Card } from "@seed/ui";
import { type ReactNode, useMemo } from "react";
import type { ChartView } from "./chart-view";

type ResultRow = QueryResult["rows"][number];

// Formatters are functions, so they are built here on the client from the stored options.
function useValueFormatter(chart: ChartView): ((value: number) => string) | undefined {
  const format = chart.options.numberFormat;
  return useMemo(() => {
    if (!format) return undefined;
    const formatter = new Intl.NumberFormat("en-US", format);
    return (value: number) => formatter.format(value);
  }, [format]);
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
  const valueFormatter = useValueFormatter(chart);
  if (!result) {
    return (
      <Card title={chart.title} titleAs={headingLevel}>
        <p role="status">This chart cannot be drawn: {error ?? "it has no result."}</p>
      </Card>
    );
  }
  const legend = chart.options.showLegend === false ? false : "bottom";
  const stack = chart.options.stack ?? "none";
  const series = result.series.map((entry) => ({ key: entry.key, label: entry.label }));
  const common = {
    data: result.rows,
    title: chart.title,
    height,
    locale: "en-US",
    legend,
    valueFormatter,
  } as const;
  let drawn: ReactNode;
  switch (chart.type) {
    case "line":
      drawn = (
        <LineChart<ResultRow>
          {...common}
          index="x"
          series={series}
          curve={chart.options.curve ?? "monotone"}
        />
      );
      break;
    case "area":
      drawn = (
        <AreaChart<ResultRow>
          {...common}
          index="x"
          series={series}
          curve={chart.options.curve ?? "monotone"}
          stack={stack}
        />
      );
      break;
    case "bar":
      drawn = (
        <BarChart<ResultRow>
          {...common}
          index="x"
          series={series}
          stack={stack}
          horizontal={chart.options.horizontal ?? false}
        />
      );
      break;
    case "pie":
      drawn = (
        <PieChart<ResultRow>
          {...common}
          index="x"
          value={series[0]?.key ?? ""}
          variant={chart.options.donut ? "donut" : "pie"}
        />
      );
      break;
  }
  return (
    <Card title={chart.title} titleAs={headingLevel}>
      {drawn}
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
