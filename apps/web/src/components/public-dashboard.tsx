import type { RenderedDashboard } from "@seed/store";
import { AutoRefresh } from "@/components/auto-refresh";
import { DashboardView } from "@/components/dashboard-view";
import { SiteHeader } from "@/components/site-header";
import { contentKey } from "@/server/content-key";

/** The public dashboard page's body, filtered or not (/d/<slug> and /d/<slug>/f/<filters>). */
export function PublicDashboard({ rendered }: { rendered: RenderedDashboard }) {
  return (
    <>
      <SiteHeader />
      <main id="main" className="site-main stack">
        <DashboardView rendered={rendered} filterAction={`/d/${rendered.dashboard.slug}`} />
        <AutoRefresh
          intervalSeconds={rendered.dashboard.refreshSeconds}
          renderedAt={new Date().toISOString()}
          dataKey={contentKey({
            title: rendered.dashboard.title,
            description: rendered.dashboard.description,
            tiles: rendered.tiles,
          })}
        />
      </main>
    </>
  );
}
