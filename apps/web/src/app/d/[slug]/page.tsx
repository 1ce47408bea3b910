import { Heading, StatTile, Text } from "@seed/ui";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { chartView } from "@/components/chart-view";
import { DashboardChart } from "@/components/dashboard-chart";
import { SiteHeader } from "@/components/site-header";
import { getSession, hasRole } from "@/server/auth";
import { getStore } from "@/server/store";

type Params = Promise<{ slug: string }>;

// Drafts are previews for signed-in admin-area users; everyone else gets the same 404 as a typo.
const loadDashboard = cache(async (slug: string) => {
  const session = await getSession();
  const includeDrafts = hasRole(session, "admin", "editor", "viewer");
  return (await getStore()).getDashboardBySlug(slug, { includeDrafts });
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const rendered = await loadDashboard((await params).slug);
  return { title: rendered ? rendered.dashboard.title : "Not Found" };
}

export default async function DashboardPage({ params }: { params: Params }) {
  const rendered = await loadDashboard((await params).slug);
  if (!rendered) notFound();
  const { dashboard, tiles } = rendered;
  const stats = tiles.filter((tile) => tile.kind === "stat");
  const charts = tiles.filter((tile) => tile.kind === "chart");
  return (
    <>
      <SiteHeader />
      <main id="main" className="site-main stack">
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
                deltaLabel={tile.deltaLabel ?? undefined}
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
      </main>
    </>
  );
}
