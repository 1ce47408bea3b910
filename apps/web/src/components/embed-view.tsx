import type { RenderedChartEmbed, RenderedDashboard } from "@seed/store";
import { Heading, Text } from "@seed/ui";
import { AutoRefresh } from "@/components/auto-refresh";
import { chartView } from "@/components/chart-view";
import { DashboardChart } from "@/components/dashboard-chart";
import { DashboardFilterBar } from "@/components/dashboard-filter-bar";
import { DashboardGrid } from "@/components/dashboard-view";
import { serverChartSvg } from "@/components/server-chart-svg";
import { contentKey } from "@/server/content-key";

/** A dashboard inside someone else's page: no site header or navigation, just its tiles. */
export function EmbedDashboard({
  rendered,
  action = `/embed/d/${rendered.dashboard.slug}`,
}: {
  rendered: RenderedDashboard;
  /** The address its filters lead to: a signed link's keeps its signature in the query. */
  action?: string;
}) {
  const { dashboard, tiles } = rendered;
  return (
    <main id="main" className="embed-main stack">
      <Heading level={1}>{dashboard.title}</Heading>
      {dashboard.description ? <Text muted>{dashboard.description}</Text> : null}
      <DashboardFilterBar filterBar={rendered.filterBar} action={action} />
      {tiles.length > 0 ? (
        <DashboardGrid tiles={tiles} filters={{ action, applied: rendered.filterBar.applied }} />
      ) : null}
      <AutoRefresh
        intervalSeconds={dashboard.refreshSeconds}
        renderedAt={new Date().toISOString()}
        dataKey={contentKey({ title: dashboard.title, description: dashboard.description, tiles })}
      />
    </main>
  );
}

/** Drawing height of a chart embedded alone (DashboardChart's default). */
const embedChartHeight = 280;

/** One chart inside someone else's page; its card title is the page's heading. */
export function EmbedChart({ embed }: { embed: RenderedChartEmbed }) {
  const chart = chartView(embed.chart);
  return (
    <main id="main" className="embed-main stack">
      <DashboardChart
        chart={chart}
        // drawn at the kit's initial width and the chart's height, scaled to the frame's width
        staticSvg={serverChartSvg(chart, embed.result, 640, embedChartHeight)}
        height={embedChartHeight}
        result={embed.result}
        error={embed.error}
        headingLevel="h1"
      />
      <AutoRefresh
        intervalSeconds={embed.refreshSeconds}
        renderedAt={new Date().toISOString()}
        dataKey={contentKey({ title: embed.chart.title, result: embed.result, error: embed.error })}
      />
    </main>
  );
}
