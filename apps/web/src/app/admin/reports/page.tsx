import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { actorOf } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import {
  AllowedDomainsForm,
  DeleteReportButton,
  SendReportNowButton,
} from "@/features/reports/report-form";
import { minuteText } from "@/lib/minute-text";
import { hasPermission, requirePermission } from "@/server/auth";
import { mailStatus, reportBaseUrl } from "@/server/delivery";
import { getStore } from "@/server/store";
import { saveAllowedMailDomains } from "./actions";

export const metadata: Metadata = { title: "Reports" };
export const dynamic = "force-dynamic";

const statusWords = { sent: "Sent", partial: "Partly sent", failed: "Failed" } as const;

export default async function ReportsPage() {
  const session = await requirePermission("content.write");
  const store = await getStore();
  const actor = actorOf(session);
  const isAdmin = hasPermission(session, "settings.manage");
  const [reports, domains] = await Promise.all([
    store.listReports(actor),
    store.getAllowedMailDomains(actor),
  ]);
  const mail = mailStatus();
  return (
    <>
      <Heading level={1}>Reports</Heading>
      <Text muted>
        A report mails a published dashboard on a schedule: each chart as an image, a PDF and a link
        back, to each recipient in a message of their own with an unsubscribe link.
      </Text>
      <Card title="Mail" titleAs="h2">
        {mail.state === "on" ? (
          <p>
            Sending through {mail.text}. Links point to <code>{reportBaseUrl()}</code>.
          </p>
        ) : mail.state === "off" ? (
          <p>
            Mail is not set up, so reports wait: set <code>SEED_SMTP_URL</code> and{" "}
            <code>SEED_MAIL_FROM</code> and restart. A run missed meanwhile is sent once.
          </p>
        ) : (
          <p className="field-error">Mail settings are not valid: {mail.reason}</p>
        )}
      </Card>
      <Card title="Your reports" titleAs="h2">
        <p>
          <Link href="/admin/reports/new" className="button">
            New report
          </Link>
        </p>
        {reports.length === 0 ? (
          <p className="muted">No reports yet.</p>
        ) : (
          <TableRegion label="Report list">
            <table>
              <caption className="muted">
                {isAdmin ? "Every report, with its owner." : "Reports you own."}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Dashboard</th>
                  <th scope="col">When</th>
                  <th scope="col">Recipients</th>
                  <th scope="col">Next run</th>
                  <th scope="col">Last run</th>
                  {isAdmin ? <th scope="col">Owner</th> : null}
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {reports.map((report) => {
                  const unsubscribed = report.recipients.filter((one) => one.unsubscribed).length;
                  return (
                    <tr key={report.id}>
                      <td>
                        <Link href={`/admin/reports/${report.id}`}>{report.name}</Link>
                      </td>
                      <td>
                        {report.dashboard
                          ? `${report.dashboard.title}${report.dashboard.published ? "" : " (not published)"}`
                          : "Deleted, or not yours to see"}
                      </td>
                      <td>{report.scheduleText}</td>
                      <td>
                        {report.recipients.length - unsubscribed}
                        {unsubscribed > 0 ? ` (${unsubscribed} unsubscribed)` : ""}
                      </td>
                      <td>{report.enabled ? minuteText(report.nextRunAt, "—") : "Paused"}</td>
                      <td>
                        {report.lastStatus ? (
                          <>
                            {statusWords[report.lastStatus]}, {minuteText(report.lastRunAt, "—")}
                            {report.lastError ? (
                              <span className="field-error"> {report.lastError}</span>
                            ) : null}
                          </>
                        ) : (
                          "Not yet"
                        )}
                      </td>
                      {isAdmin ? <td>{report.ownerEmail}</td> : null}
                      <td>
                        <div className="button-row">
                          <SendReportNowButton id={report.id} name={report.name} />
                          <DeleteReportButton id={report.id} name={report.name} />
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
        )}
      </Card>
      <Card title="Who reports and alerts may mail" titleAs="h2">
        <p>
          The app&apos;s users, and anyone in these domains
          {domains.length === 0 ? " (none yet)" : `: ${domains.join(", ")}`}. The app sends to
          nobody else, so it is no relay for anyone&apos;s mail.
        </p>
        {isAdmin ? <AllowedDomainsForm action={saveAllowedMailDomains} domains={domains} /> : null}
      </Card>
    </>
  );
}
