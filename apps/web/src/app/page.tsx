import type { DashboardSummary } from "@seed/store";
import { Card, Heading, Icon, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { ChartShowcase, type ShowcaseItem } from "@/components/chart-showcase";
import { chartView } from "@/components/chart-view";
import { SiteHeader } from "@/components/site-header";
import { limitPageCacheTo } from "@/server/live-cache";
import { requestLocale } from "@/server/request-locale";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: { absolute: "Seed Charts" } };

export default async function HomePage() {
  // Published dashboards change at run time, so this page renders per request.
  await connection();
  const store = await getStore();
  const dashboards = await store.listPublishedDashboards();
  const showcase = await loadShowcase(dashboards);
  const dateFormat = new Intl.DateTimeFormat(await requestLocale(), {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  });
  return (
    <>
      <SiteHeader current="dashboards" />
      <main id="main" className="site-main stack">
        <Heading level={1}>Seed Charts</Heading>
        <Text muted>Dashboards of charts and KPI tiles, in light and dark.</Text>
        <section aria-labelledby="dashboards-heading" className="stack">
          <Heading level={2} id="dashboards-heading">
            Dashboards
          </Heading>
          {dashboards.length === 0 ? (
            <Text>No dashboards are published yet.</Text>
          ) : (
            <ul
              className="grid"
              aria-label="Published dashboards"
              style={{ listStyle: "none", padding: 0 }}
            >
              {dashboards.map((dashboard) => (
                <li key={dashboard.id}>
                  <Card
                    title={
                      <Link href={`/d/${dashboard.slug}`}>
                        {dashboard.icon ? <Icon name={dashboard.icon} size={18} /> : null}{" "}
                        {dashboard.title}
                      </Link>
                    }
                    titleAs="h3"
                  >
                    <Text size="sm">{dashboard.description || "No description."}</Text>
                    <Text size="xs" muted>
                      {dashboard.tileCount} {dashboard.tileCount === 1 ? "tile" : "tiles"} · updated{" "}
                      <time dateTime={dashboard.lastUpdatedAt}>
                        {dateFormat.format(new Date(dashboard.lastUpdatedAt))} UTC
                      </time>
                    </Text>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </section>
        {showcase.length > 0 ? (
          <section aria-labelledby="charts-heading" className="stack">
            <Heading level={2} id="charts-heading">
              The four chart types
            </Heading>
            <Text muted>
              Line, area, bar and pie charts from @seed/charts, drawn from stored data.
            </Text>
            <ChartShowcase items={showcase} />
          </section>
        ) : null}
      </main>
    </>
  );
}

const showcaseOrder = ["line", "area", "bar", "pie"] as const;

/** The first chart of each type on a published dashboard (drafts stay private), with its result. */
async function loadShowcase(dashboards: DashboardSummary[]): Promise<ShowcaseItem[]> {
  const store = await getStore();
  const rendered = await Promise.all(
    dashboards.map((dashboard) => store.getDashboardBySlug(dashboard.slug)),
  );
  await limitPageCacheTo(...rendered.map((dashboard) => dashboard?.liveCacheSeconds));
  const chartTiles = rendered.flatMap((dashboard) =>
    (dashboard?.tiles ?? []).flatMap((tile) => (tile.kind === "chart" ? [tile] : [])),
  );
  return showcaseOrder.flatMap((type) => {
    const tile = chartTiles.find((candidate) => candidate.chart.type === type && candidate.result);
    return tile?.result ? [{ chart: chartView(tile.chart), result: tile.result }] : [];
  });
}
