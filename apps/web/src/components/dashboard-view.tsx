import type { RenderedDashboard } from "@seed/store";
import { Heading, StatTile, Text } from "@seed/ui";
import { chartView } from "@/components/chart-view";
import { DashboardChart } from "@/components/dashboard-chart";

/** A rendered dashboard: stat tiles and charts from their query results (server component). */
export function DashboardView({ rendered }: { rendered: RenderedDashboard }) {
  const { dashboard, tiles } = rendered;
  const stats = tiles.filter((tile) => tile.kind === "stat");
  const charts = tiles.filter((tile) => tile.kind === "chart");
  return (
    <>
      <Heading level={1}>{dashboard.title}</Heading>
      {dashboard.status === "draft" ? (
        <Text size="sm">
          <strong>Draft preview:</strong> only signed-in users can see this dashboard.
        </Text>
      ) : null}
      {dashboard.description ? <Text muted>{dashboard.description}</Text> : null}
      {stats.length > 0 ? (
        <section aria-label="Key figures" className="grid">
          {stats.map((tile) => (
            <StatTile
              key={tile.id}
              label={tile.label}
              value={tile.value}
              format={tile.format ?? undefined}
              icon={tile.icon ?? undefined}
              delta={tile.delta ?? undefined}
              deltaLabel={tile.error ?? tile.deltaLabel ?? undefined}
            />
          ))}
        </section>
      ) : null}
      {charts.length > 0 ? (
        <div className="grid-wide">
          {charts.map((tile) => (
            <DashboardChart
              key={tile.id}
              chart={chartView(tile.chart)}
              result={tile.result}
              error={tile.error}
            />
          ))}
        </div>
      ) : null}
    </>
  );
}
