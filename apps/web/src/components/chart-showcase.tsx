import type { QueryResult } from "@seed/store";
import type { ChartView } from "@/components/chart-view";
import { DashboardChart } from "@/components/dashboard-chart";

export interface ShowcaseItem {
  chart: ChartView;
  result: QueryResult;
}

/** One stored chart of each type, drawn from its query result. */
export function ChartShowcase({ items }: { items: ShowcaseItem[] }) {
  return (
    <div className="grid-wide">
      {items.map((item) => (
        <DashboardChart
          key={item.chart.id}
          chart={item.chart}
          result={item.result}
          headingLevel="h3"
        />
      ))}
    </div>
  );
}
