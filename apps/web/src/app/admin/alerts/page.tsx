import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { actorOf } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import { DeleteAlertButton } from "@/features/alerts/alert-form";
import { alertNumber, alertStateText } from "@/features/alerts/alert-words";
import { minuteText } from "@/lib/minute-text";
import { hasPermission, requirePermission } from "@/server/auth";
import { mailStatus } from "@/server/delivery";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Alerts" };
export const dynamic = "force-dynamic";

export default async function AlertsPage() {
  const session = await requirePermission("content.write");
  const store = await getStore();
  const actor = actorOf(session);
  const isAdmin = hasPermission(session, "settings.manage");
  const alerts = await store.listAlerts(actor);
  const mail = mailStatus();
  const now = Date.now();
  return (
    <>
      <Heading level={1}>Alerts</Heading>
      <Text muted>
        An alert watches a stat tile or a chart&apos;s measure, and tells its recipients and
        webhooks once when its condition starts to hold and once when it stops. It is checked on its
        schedule and right after every import or push to its dataset.
      </Text>
      {mail.state === "on" ? null : (
        <p className="muted">
          Mail is not set up here, so alerts call their webhooks only. Set{" "}
          <code>SEED_SMTP_URL</code> and <code>SEED_MAIL_FROM</code> and restart to mail them too.
        </p>
      )}
      <Card title="Your alerts" titleAs="h2">
        <p>
          <Link href="/admin/alerts/new" className="button">
            New alert
          </Link>
        </p>
        {alerts.length === 0 ? (
          <p className="muted">No alerts yet.</p>
        ) : (
          <TableRegion label="Alert list">
            <table>
              <caption className="muted">
                {isAdmin ? "Every alert, with its owner." : "Alerts you own."}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Watches</th>
                  <th scope="col">Fires when</th>
                  <th scope="col">State</th>
                  <th scope="col">Last check</th>
                  {isAdmin ? <th scope="col">Owner</th> : null}
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {alerts.map((alert) => (
                  <tr key={alert.id}>
                    <td>
                      <Link href={`/admin/alerts/${alert.id}`}>{alert.name}</Link>
                    </td>
                    <td>{alert.targetText}</td>
                    <td>{alert.conditionText}</td>
                    <td>{alertStateText(alert, now)}</td>
                    <td>
                      {alert.lastCheckedAt
                        ? `${alertNumber(alert.lastValue)}, ${minuteText(alert.lastCheckedAt, "—")}`
                        : "Not yet"}
                      {alert.lastError ? (
                        <span className="field-error"> {alert.lastError}</span>
                      ) : null}
                    </td>
                    {isAdmin ? <td>{alert.ownerEmail}</td> : null}
                    <td>
                      <DeleteAlertButton id={alert.id} name={alert.name} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </Card>
    </>
  );
}
