import "server-only";
import type { Store } from "@seed/store";
import type { ReportDashboardChoice } from "@/features/reports/report-form";

/** The dashboards a report can send: the published ones, with the zone their times are read in. */
export async function reportDashboardChoices(store: Store): Promise<ReportDashboardChoice[]> {
  return (await store.listPublishedDashboards()).map((dashboard) => ({
    id: dashboard.id,
    title: dashboard.title,
    timeZone: dashboard.timeZone ?? "UTC",
  }));
}
