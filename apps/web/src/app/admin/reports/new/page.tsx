import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { actorOf } from "@/components/admin/store-errors";
import { ReportForm } from "@/features/reports/report-form";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";
import { reportDashboardChoices } from "../report-page-data";

export const metadata: Metadata = { title: "New report" };
export const dynamic = "force-dynamic";

export default async function NewReportPage() {
  const session = await requirePermission("content.write");
  const store = await getStore();
  const dashboards = await reportDashboardChoices(store);
  return (
    <>
      <Heading level={1}>New report</Heading>
      <Text muted>
        <Link href="/admin/reports">Back to reports</Link>
      </Text>
      <Card title="Report" titleAs="h2">
        {dashboards.length === 0 ? (
          <p className="muted">
            No dashboard is published yet: publish one first, then schedule its report.
          </p>
        ) : (
          <ReportForm
            dashboards={dashboards}
            allowedDomains={await store.getAllowedMailDomains(actorOf(session))}
          />
        )}
      </Card>
    </>
  );
}
