import { createHmac } from "node:crypto";
import type {
  AlertDeliveryPlan,
  AllowedNetworks,
  DeliveryEvent,
  Job,
  JobQueue,
  Mailer,
  Store,
} from "@seed/store";
import { callWebhook } from "@seed/store";
import { escapeHtml } from "../reports/report-render";
import { unsubscribeUrl } from "../reports/scheduler";
import { startTicker } from "../ticker";

// Alerts' two kinds of job, on the same queue as reports (pg-boss on PostgreSQL, shared by every
// instance; the jobs table on SQLite). A check reads the alert's number and, when the store
// records that it fired or resolved, enqueues the event's delivery once (keyed by the event). A
// delivery mails each recipient and calls each webhook, marking each before the next: a retry
// after a crash or a failure reaches only whoever was not reached.

export const alertCheckQueue = "alert-checks";
export const alertDeliveryQueue = "alert-deliveries";

export type AlertCheckData = { alertId: string };
export type AlertDeliveryData = { eventId: string };

export interface AlertDeliverySettings {
  /** Null while mail is not set up: recipients then fail, webhooks still go out. */
  mailer: Mailer | null;
  /** The app's public address, for links back and unsubscribe links. */
  baseUrl: string;
  /** The server's secret, from which each webhook's signing secret is derived. */
  serverSecret: string;
  /** Networks webhooks may call besides public addresses (SEED_WEBHOOK_ALLOW_NETWORKS). */
  allowedNetworks?: AllowedNetworks;
  now?: () => Date;
}

/** A webhook's signing secret: derived from the server's secret and its id, never stored. */
export function webhookSecret(serverSecret: string, webhookId: string): string {
  const mac = createHmac("sha256", serverSecret)
    .update(`seed-alert-webhook\u0000${webhookId}`)
    .digest("base64url");
  return `whsec_${mac}`;
}

/** The job key of one check of one alert (`at`: its due instant, or the write it follows). */
export function alertCheckKey(alertId: string, at: string): string {
  return `alert-check:${alertId}@${at}`;
}

/** The job key of one event's delivery. */
export function alertDeliveryKey(eventId: string): string {
  return `alert-event:${eventId}`;
}

async function enqueueCheck(queue: JobQueue, alertId: string, at: string): Promise<boolean> {
  const data: AlertCheckData = { alertId };
  return queue.enqueue({
    queue: alertCheckQueue,
    key: alertCheckKey(alertId, at),
    runAt: new Date(),
    data,
  });
}

/** Enqueues a check of every alert due and moves each on; returns the checks this call added. */
export async function enqueueDueAlerts(store: Store, queue: JobQueue): Promise<number> {
  let added = 0;
  for (const { alertId, dueAt } of await store.dueAlerts()) {
    // The job first, then the move (as for reports): a crash between them re-adds the same key.
    if (await enqueueCheck(queue, alertId, dueAt)) added += 1;
    await store.advanceAlert(alertId, dueAt);
  }
  return added;
}

/**
 * Right after rows of a dataset were written: a check of each alert on it. Each write gets its
 * own key, so a check already running (which may have read before this write) does not stand in
 * for it; checks are idempotent, so two close writes cost a second read, never a second event.
 */
export async function enqueueChecksAfterWrite(
  store: Store,
  queue: JobQueue,
  datasetId: string,
): Promise<string[]> {
  const keys: string[] = [];
  const at = `rows:${new Date().toISOString()}`;
  for (const alertId of await store.alertsOnDataset(datasetId)) {
    if (await enqueueCheck(queue, alertId, at)) keys.push(alertCheckKey(alertId, at));
  }
  return keys;
}

/** One check; an event that tells anyone gets one delivery job. */
export async function runAlertCheck(
  store: Store,
  queue: JobQueue,
  data: AlertCheckData,
): Promise<void> {
  const check = await store.checkAlert(data.alertId);
  if (!check?.event?.notify) return;
  const delivery: AlertDeliveryData = { eventId: check.event.id };
  await queue.enqueue({
    queue: alertDeliveryQueue,
    key: alertDeliveryKey(check.event.id),
    runAt: new Date(),
    data: delivery,
  });
}

function number(value: number | null): string {
  return value === null ? "no value" : value.toLocaleString("en", { maximumFractionDigits: 6 });
}

/** What an event says, the same words in mail and in every webhook body. */
export function alertEventOf(plan: AlertDeliveryPlan, baseUrl: string): DeliveryEvent {
  const { alert, event } = plan;
  const fired = event.kind === "fired";
  const seen =
    alert.condition.kind === "stale"
      ? fired
        ? `No new rows reached ${alert.targetText}: ${alert.conditionText}.`
        : `New rows reached ${alert.targetText} again.`
      : fired
        ? `${alert.targetText} is ${number(event.value)}: ${alert.conditionText}.`
        : `${alert.targetText} is ${number(event.value)}, no longer ${alert.conditionText}.`;
  const previous =
    alert.condition.kind === "change" && event.previous !== null
      ? ` It was ${number(event.previous)} the period before.`
      : "";
  return {
    type: fired ? "alert.fired" : "alert.resolved",
    title: fired ? `Alert: ${alert.name}` : `Resolved: ${alert.name}`,
    text: `${seen}${previous}`,
    url: `${baseUrl.replace(/\/+$/, "")}/admin/alerts/${encodeURIComponent(alert.id)}`,
    value: event.value,
    at: event.at,
  };
}

function alertEmail(event: DeliveryEvent, unsubscribe: string): { text: string; html: string } {
  const text = [
    event.title,
    "",
    event.text,
    "",
    `See the alert: ${event.url}`,
    "",
    `Unsubscribe: ${unsubscribe}`,
  ].join("\n");
  const html = `<!doctype html><html lang="en"><body style="margin:0;padding:16px;font-family:Geist,Arial,sans-serif;color:#18181b;background:#ffffff"><div style="max-width:680px;margin:0 auto"><h1 style="font-size:20px;margin:0 0 8px">${escapeHtml(event.title)}</h1><p style="margin:0">${escapeHtml(event.text)}</p><p style="margin:24px 0 0"><a href="${escapeHtml(event.url)}">See the alert</a></p><p style="margin:24px 0 0;font-size:12px;color:#52525b">You get this alert because its owner added you. <a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p></div></body></html>`;
  return { text, html };
}

/**
 * Delivers one event to every recipient and webhook not yet reached. Throws (so the queue tries
 * again later, with backoff) when a destination failed in a way a retry may mend; a refusal or a
 * permanent failure is recorded and not retried.
 */
export async function runAlertDelivery(
  store: Store,
  settings: AlertDeliverySettings,
  data: AlertDeliveryData,
): Promise<void> {
  const plan = await store.alertDeliveryPlan(data.eventId);
  if (!plan || plan.event.deliveryStatus === "sent" || !plan.event.notify) return;
  if (plan.refusal !== null) {
    await store.finishAlertDelivery(data.eventId, { sent: [], failed: [], refusal: plan.refusal });
    return;
  }
  const event = alertEventOf(plan, settings.baseUrl);
  const sent: string[] = [];
  const failed: { destination: string; reason: string; retry: boolean }[] = [];
  for (const recipient of plan.recipients) {
    const destination = `mail:${recipient.key}`;
    if (plan.alreadySent.has(destination)) continue;
    if (!settings.mailer) {
      failed.push({
        destination,
        reason: "Mail is not set up on this server (SEED_SMTP_URL).",
        retry: false,
      });
      continue;
    }
    const unsubscribe = unsubscribeUrl(settings.baseUrl, recipient.unsubscribeToken);
    const outcome = await settings.mailer.send({
      to: recipient.address,
      subject: event.title,
      ...alertEmail(event, unsubscribe),
      unsubscribeUrl: unsubscribe,
    });
    if (outcome.ok) {
      await store.markAlertDelivered(data.eventId, destination);
      sent.push(destination);
    } else failed.push({ destination, reason: outcome.reason, retry: outcome.retry });
  }
  for (const webhook of plan.webhooks) {
    const destination = `webhook:${webhook.id}`;
    if (plan.alreadySent.has(destination)) continue;
    const outcome = await callWebhook({
      url: webhook.url,
      format: webhook.format,
      secret: webhookSecret(settings.serverSecret, webhook.id),
      event,
      // The same id on every retry of this event to this webhook: a receiver keeps it once.
      deliveryId: `${data.eventId}.${webhook.id}`,
      now: settings.now,
      allowedNetworks: settings.allowedNetworks ?? [],
    });
    if (outcome.ok) {
      await store.markAlertDelivered(data.eventId, destination);
      sent.push(destination);
    } else failed.push({ destination, reason: outcome.reason, retry: outcome.retry });
  }
  await store.finishAlertDelivery(data.eventId, {
    sent,
    failed: failed.map(({ destination, reason }) => ({ destination, reason })),
    refusal: null,
  });
  const retryable = failed.filter((one) => one.retry);
  if (retryable.length > 0) {
    throw new Error(
      `Not delivered yet to ${retryable.map((one) => one.destination).join(", ")}: ${retryable[0]?.reason}`,
    );
  }
}

export interface AlertChecker {
  /** Enqueues the checks due now (the timer does this every `tickMs`). */
  tick(): Promise<number>;
  /** Enqueues a check of each alert on a dataset whose rows were just written; their job keys. */
  afterWrite(datasetId: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** Works the alert queues in this process and ticks every `tickMs` (default 30 s). */
export async function startAlertChecker(
  store: Store,
  queue: JobQueue,
  settings: AlertDeliverySettings & { tickMs?: number; onError?: (error: unknown) => void },
): Promise<AlertChecker> {
  await queue.work(alertCheckQueue, (job: Job) =>
    runAlertCheck(store, queue, job.data as unknown as AlertCheckData),
  );
  await queue.work(alertDeliveryQueue, (job: Job) =>
    runAlertDelivery(store, settings, job.data as unknown as AlertDeliveryData),
  );
  const ticker = startTicker(
    () => enqueueDueAlerts(store, queue),
    settings.tickMs ?? 30_000,
    settings.onError,
  );
  return {
    tick: ticker.tick,
    afterWrite: (datasetId) => enqueueChecksAfterWrite(store, queue, datasetId),
    stop: ticker.stop,
  };
}
