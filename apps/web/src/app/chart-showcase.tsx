import type { Chart, DatasetRow } from "@seed/store";
import { DashboardChart } from "@/components/dashboard-chart";

export interface ShowcaseItem {
  chart: Chart;
  rows: DatasetRow[];
}

/** One stored chart of each type, drawn from its dataset. */
export function ChartShowcase({ items }: { items: ShowcaseItem[] }) {
  return (
    <div className="grid-wide">
      {items.map((item) => (
        <DashboardChart key={item.chart.id} chart={item.chart} rows={item.rows} headingLevel="h3" />
      ))}
    </div>
  );
}
