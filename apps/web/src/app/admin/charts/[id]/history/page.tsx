import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { HistoryView, versionParam } from "@/components/admin/history-view";
import { hasRole, requireRole } from "@/server/auth";
import { getStore } from "@/server/store";
import { restoreChart } from "../../actions";

type Params = Promise<{ id: string }>;
type Query = Promise<{ from?: string; to?: string; restored?: string }>;

export const metadata: Metadata = { title: "Chart history" };

export default async function ChartHistoryPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Query;
}) {
  const session = await requireRole("admin", "editor", "viewer");
  const { id } = await params;
  const store = await getStore();
  const chart = await store.getChart(id);
  if (!chart) notFound();
  const query = await searchParams;
  const versions = await store.listVersions("chart", id);
  const to = versionParam(query.to, chart.version);
  const from = versionParam(query.from, Math.max(1, to - 1));
  return (
    <HistoryView
      entityType="chart"
      id={id}
      title={chart.title}
      currentVersion={chart.version}
      versions={versions}
      from={from}
      to={to}
      changes={await store.compareVersions("chart", id, from, to)}
      {...(hasRole(session, "admin", "editor") ? { restore: restoreChart } : {})}
      backHref={`/admin/charts/${id}`}
      restored={query.restored ? versionParam(query.restored, 0) : undefined}
    />
  );
}
