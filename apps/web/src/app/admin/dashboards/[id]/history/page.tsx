import type { Metadata } from "next";
import { HistoryPage } from "@/components/admin/history-view";
import { restoreDashboard } from "../../actions";

export const metadata: Metadata = { title: "Dashboard history" };

export default async function DashboardHistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ from?: string; to?: string; restored?: string }>;
}) {
  return (
    <HistoryPage
      entityType="dashboard"
      id={(await params).id}
      query={await searchParams}
      restore={restoreDashboard}
    />
  );
}
