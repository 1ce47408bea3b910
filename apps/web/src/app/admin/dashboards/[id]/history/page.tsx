import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { HistoryView, versionParam } from "@/components/admin/history-view";
import { hasRole, requireRole } from "@/server/auth";
import { getStore } from "@/server/store";
import { restoreDashboard } from "../../actions";

type Params = Promise<{ id: string }>;
type Query = Promise<{ from?: string; to?: string; restored?: string }>;

export const metadata: Metadata = { title: "Dashboard history" };

export default async function DashboardHistoryPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Query;
}) {
  const session = await requireRole("admin", "editor", "viewer");
  const { id } = await params;
  const store = await getStore();
  const dashboard = await store.getDashboard(id);
  if (!dashboard) notFound();
  const query = await searchParams;
  const versions = await store.listVersions("dashboard", id);
  const to = versionParam(query.to, dashboard.version);
  const from = versionParam(query.from, Math.max(1, to - 1));
  return (
    <HistoryView
      entityType="dashboard"
      id={id}
      title={dashboard.title}
      currentVersion={dashboard.version}
      versions={versions}
      from={from}
      to={to}
      changes={await store.compareVersions("dashboard", id, from, to)}
      {...(hasRole(session, "admin", "editor") ? { restore: restoreDashboard } : {})}
      backHref={`/admin/dashboards/${id}`}
      restored={query.restored ? versionParam(query.restored, 0) : undefined}
    />
  );
}
