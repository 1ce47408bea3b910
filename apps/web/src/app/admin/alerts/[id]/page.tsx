import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { actorOf } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import { AlertForm, DeleteAlertButton, SnoozeAlertForm } from "@/features/alerts/alert-form";
import { alertNumber, alertStateText, deliveryWords } from "@/features/alerts/alert-words";
import { minuteText } from "@/lib/minute-text";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";
import { alertTargetGroups, targetValue } from "../alert-page-data";

export const metadata: Metadata = { title: "Alert" };
export const dynamic = "force-dynamic";

export default async function AlertPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requirePermission("content.write");
  const { id } = await params;
  const store = await getStore();
  const actor = actorOf(session);
  const found = await store.getAlert(id, actor);
  if (!found) notFound();
  const { alert, events } = found;
  const targets = await alertTargetGroups(store, actor);
  const value = targetValue(alert.target);
  // A target that is gone stays on offer under its last words, so saving does not move it.
  if (![...targets.statTiles, ...targets.chartMeasures].some((one) => one.value === value)) {
    const group = alert.target.kind === "stat" ? targets.statTiles : targets.chartMeasures;
    group.unshift({ value, label: `${alert.targetText} (not found)` });
  }
  const now = Date.now();
  const snoozed = alert.snoozedUntil !== null && Date.parse(alert.snoozedUntil) > now;
  return (
    <>
      <Heading level={1}>{alert.name}</Heading>
      <Text muted>
        <Link href="/admin/alerts">Back to alerts</Link>
      </Text>
      <Card title="Now" titleAs="h2">
        <dl className="detail-list">
          <dt>Watches</dt>
          <dd>{alert.targetText}</dd>
          <dt>Fires when</dt>
          <dd>
            it is {alert.conditionText}; checked {alert.checkEveryText} and after each write of its
            rows
          </dd>
          <dt>State</dt>
          <dd>{alertStateText(alert, now)}</dd>
          <dt>Last check</dt>
          <dd>
            {alert.lastCheckedAt
              ? `${minuteText(alert.lastCheckedAt, "—")}: ${alertNumber(alert.lastValue)}`
              : "Not yet"}
            {alert.lastError ? <span className="field-error"> {alert.lastError}</span> : null}
          </dd>
          <dt>Next check</dt>
          <dd>{alert.enabled ? minuteText(alert.nextCheckAt, "—") : "Off"}</dd>
        </dl>
        <SnoozeAlertForm id={alert.id} snoozed={snoozed} />
      </Card>
      <Card title="History" titleAs="h2">
        {events.length === 0 ? (
          <p className="muted">It has not fired yet.</p>
        ) : (
          <TableRegion label="Alert history">
            <table>
              <caption className="muted">Each time it fired or resolved, newest first.</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">What</th>
                  <th scope="col">Value seen</th>
                  <th scope="col">Told</th>
                </tr>
              </thead>
              <tbody>
                {events.map((event) => (
                  <tr key={event.id}>
                    <td>{minuteText(event.at, "—")}</td>
                    <td>{event.kind === "fired" ? "Fired" : "Resolved"}</td>
                    <td>
                      {alertNumber(event.value)}
                      {event.previous !== null ? ` (before: ${alertNumber(event.previous)})` : ""}
                    </td>
                    <td>
                      {deliveryWords[event.deliveryStatus]}
                      {event.deliveryError ? (
                        <span className="field-error"> {event.deliveryError}</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </Card>
      <Card title="Edit" titleAs="h2">
        <AlertForm
          alert={{
            id: alert.id,
            version: alert.version,
            name: alert.name,
            target: value,
            condition: alert.condition,
            checkEveryMinutes: alert.checkEveryMinutes,
            recipients: alert.recipients
              .filter((recipient) => !recipient.unsubscribed)
              .map((recipient) => recipient.address),
            webhooks: alert.webhooks,
            enabled: alert.enabled,
          }}
          targets={targets}
          allowedDomains={await store.getAllowedMailDomains(actor)}
        />
        {alert.recipients.some((recipient) => recipient.unsubscribed) ? (
          <p className="muted">
            Unsubscribed (not told, whatever the list says):{" "}
            {alert.recipients
              .filter((recipient) => recipient.unsubscribed)
              .map((recipient) => recipient.address)
              .join(", ")}
          </p>
        ) : null}
        <DeleteAlertButton id={alert.id} name={alert.name} />
      </Card>
    </>
  );
}
