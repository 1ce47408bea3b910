import type { Metadata } from "next";
import { HistoryPage } from "@/components/admin/history-view";
import { restoreChart } from "../../actions";

export const metadata: Metadata = { title: "Chart history" };

export default async function ChartHistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ from?: string; to?: string; restored?: string }>;
}) {
  return (
    <HistoryPage
      entityType="chart"
      id={(await params).id}
      query={await searchParams}
      restore={restoreChart}
    />
  );
}
