"use client";

import { AreaChart, BarChart, LineChart, PieChart } from "@seed/charts";
import type { Chart, DatasetRow } from "@seed/store";
import { Card } from "@seed/ui";
import { type ReactNode, useMemo } from "react";

// Formatters are functions, so they are built here on the client from the stored options.
function useValueFormatter(chart: Chart): ((value: number) => string) | undefined {
  const format = chart.options.numberFormat;
  return useMemo(() => {
    if (!format) return undefined;
    const formatter = new Intl.NumberFormat("en-US", format);
    return (value: number) => formatter.format(value);
  }, [format]);
}

/** One stored chart drawn with @seed/charts; rows come from the server as props. */
export function DashboardChart({
  chart,
  rows,
  headingLevel = "h2",
}: {
  chart: Chart;
  rows: DatasetRow[];
  headingLevel?: "h2" | "h3";
}) {
  const valueFormatter = useValueFormatter(chart);
  const legend = chart.options.showLegend === false ? false : "bottom";
  const stack = chart.options.stack ?? "none";
  const common = {
    data: rows,
    title: chart.title,
    height: 280,
    locale: "en-US",
    legend,
    valueFormatter,
  } as const;
  let drawn: ReactNode;
  switch (chart.type) {
    case "line":
      drawn = (
        <LineChart<DatasetRow>
          {...common}
          index={chart.indexColumn}
          series={chart.seriesColumns}
          curve={chart.options.curve ?? "monotone"}
        />
      );
      break;
    case "area":
      drawn = (
        <AreaChart<DatasetRow>
          {...common}
          index={chart.indexColumn}
          series={chart.seriesColumns}
          curve={chart.options.curve ?? "monotone"}
          stack={stack}
        />
      );
      break;
    case "bar":
      drawn = (
        <BarChart<DatasetRow>
          {...common}
          index={chart.indexColumn}
          series={chart.seriesColumns}
          stack={stack}
          horizontal={chart.options.horizontal ?? false}
        />
      );
      break;
    case "pie":
      drawn = (
        <PieChart<DatasetRow>
          {...common}
          index={chart.indexColumn}
          value={chart.seriesColumns[0] ?? ""}
          variant={chart.options.donut ? "donut" : "pie"}
        />
      );
      break;
  }
  return (
    <Card title={chart.title} titleAs={headingLevel}>
      {drawn}
    </Card>
  );
}
