import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { actorOf } from "@/components/admin/store-errors";
import { ReportForm } from "@/features/reports/report-form";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";
import { reportDashboardChoices } from "../report-page-data";

export const metadata: Metadata = { title: "Edit report" };
export const dynamic = "force-dynamic";

export default async function EditReportPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requirePermission("content.write");
  const { id } = await params;
  const store = await getStore();
  const actor = actorOf(session);
  const report = await store.getReport(id, actor);
  if (!report) notFound();
  const dashboards = await reportDashboardChoices(store);
  // A report whose dashboard was unpublished keeps it on offer, so saving does not move it.
  if (report.dashboard && !dashboards.some((dashboard) => dashboard.id === report.dashboardId)) {
    dashboards.unshift({
      id: report.dashboardId,
      title: `${report.dashboard.title} (not published)`,
      timeZone: report.timeZone,
    });
  }
  return (
    <>
      <Heading level={1}>Edit report</Heading>
      <Text muted>
        <Link href="/admin/reports">Back to reports</Link>
      </Text>
      <Card title={report.name} titleAs="h2">
        <ReportForm
          report={{
            id: report.id,
            version: report.version,
            name: report.name,
            dashboardId: report.dashboardId,
            filterQuery: report.filterQuery,
            schedule: report.schedule,
            recipients: report.recipients
              .filter((recipient) => !recipient.unsubscribed)
              .map((recipient) => recipient.address),
            enabled: report.enabled,
          }}
          dashboards={dashboards}
          allowedDomains={await store.getAllowedMailDomains(actor)}
        />
        {report.recipients.some((recipient) => recipient.unsubscribed) ? (
          <p className="muted">
            Unsubscribed (not sent to, whatever the list says):{" "}
            {report.recipients
              .filter((recipient) => recipient.unsubscribed)
              .map((recipient) => recipient.address)
              .join(", ")}
          </p>
        ) : null}
      </Card>
    </>
  );
}
