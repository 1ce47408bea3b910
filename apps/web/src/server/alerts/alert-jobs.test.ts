import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type Actor,
  createMailer,
  type JobQueue,
  type Mailer,
  mailSettingsFromEnv,
  openStore,
  parseAllowedNetworks,
  type Store,
  webhookSignature,
  webhookSignatureHeader,
} from "@seed/store";
import { simpleParser } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
// The store's real SMTP test server (smtp-server with an openssl certificate), one home for both.
import {
  smtpEnv,
  startTestSmtp,
  type TestSmtp,
} from "../../../../../packages/store/test/smtp-server";
import {
  createThrowawayDatabase,
  startThrowawayPostgres,
} from "../../../../../scripts/throwaway-postgres.mjs";
import {
  type ReceivedCall,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../../e2e/webhook-receiver";
import {
  type AlertChecker,
  alertCheckQueue,
  alertDeliveryKey,
  alertDeliveryQueue,
  startAlertChecker,
  webhookSecret,
} from "./alert-jobs";

// Alerts end to end below the web pages: a real store, rows pushed through the real push path,
// the real job queue (the jobs table on SQLite, pg-boss on PostgreSQL), a real SMTP server and a
// real HTTP webhook receiver. A push that crosses the threshold fires the alert once (one mail
// per recipient, one signed call per webhook, a webhook failing for now tried again without
// anyone told twice); a push back resolves it once; two instances on one PostgreSQL tell once.

const owner: Actor = { id: "owner-1", email: "owner@example.com", role: "editor" };
const admin: Actor = { id: "admin-1", email: "admin@example.com", role: "admin" };
const fast = { pollMs: 50, retryDelayMs: 500, leaseMs: 30_000 };
const serverSecret = "s".repeat(40);

let smtp: TestSmtp;
let mailer: Mailer;
let receiver: WebhookReceiver;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  smtp = await startTestSmtp();
  const settings = mailSettingsFromEnv(smtpEnv(smtp));
  if (!settings) throw new Error("no mail settings");
  mailer = createMailer(settings);
  // /flaky answers 503 to its first call
  let flakyRefused = false;
  receiver = await startWebhookReceiver((call) => {
    if (call.path !== "/flaky" || flakyRefused) return 204;
    flakyRefused = true;
    return 503;
  });
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  mailer.close();
  await smtp.close();
  await receiver.close();
});

async function openOn(databaseUrl: string | null): Promise<Store> {
  const dir = mkdtempSync(path.join(tmpdir(), "seed-alerts-"));
  const store = await openStore({ dataDir: dir, databaseUrl, seedDemo: false });
  cleanups.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

/** Sales by month, a dashboard whose stat tile sums them, a push token and an alert above 500. */
async function salesAlert(store: Store, webhooks: { url: string; format?: "json" | "slack" }[]) {
  await store.setAllowedMailDomains(admin, { domains: ["example.org"] });
  const dataset = await store.createDataset(
    {
      name: "Sales",
      columns: [
        { name: "month", type: "date" },
        { name: "revenue", type: "number" },
      ],
      rows: [
        { month: "2026-01-01", revenue: 100 },
        { month: "2026-02-01", revenue: 150 },
        { month: "2026-03-01", revenue: 120 },
      ],
    },
    owner,
  );
  const dashboard = await store.createDashboard(
    {
      title: "Sales",
      slug: `sales-${dataset.id.slice(0, 8)}`,
      tiles: [
        {
          kind: "stat",
          label: "Revenue",
          datasetId: dataset.id,
          column: "revenue",
          aggregation: "sum",
        },
      ],
    },
    owner,
  );
  const { secret } = await store.createDatasetToken(
    { datasetId: dataset.id, name: "Pusher", scope: "replace" },
    owner,
  );
  const saved = await store.createAlert(
    {
      name: "Revenue over 500",
      target: { kind: "stat", dashboardId: dashboard.id, tileId: dashboard.tiles[0]?.id ?? "" },
      condition: { kind: "above", value: 500 },
      recipients: [owner.email, "ann@example.org"],
      webhooks,
    },
    owner,
  );
  const push = (revenue: number, mode: "append" | "replace") =>
    store.pushDatasetRows({
      token: secret,
      datasetId: dataset.id,
      format: "json",
      mode,
      body: JSON.stringify([{ month: "2026-04-01", revenue }]),
    });
  return { dataset, push, ...saved };
}

async function checkerOn(store: Store, queue: JobQueue): Promise<AlertChecker> {
  const checker = await startAlertChecker(store, queue, {
    mailer,
    baseUrl: "https://seed.test",
    serverSecret,
    // the test's receiver is on loopback, which a server calls only when allowed to
    allowedNetworks: parseAllowedNetworks("127.0.0.0/8"),
    tickMs: 3_600_000,
  });
  cleanups.push(() => checker.stop());
  cleanups.push(() => queue.stop());
  return checker;
}

/** Waits for every check job to end, then for the deliveries they enqueued. */
async function settle(store: Store, queue: JobQueue, keys: string[], alertId: string) {
  for (const key of keys) {
    await expect
      .poll(async () => (await queue.status(alertCheckQueue, key))?.state, { timeout: 30_000 })
      .toBe("done");
  }
  for (const event of (await store.getAlert(alertId, owner))?.events ?? []) {
    if (!event.notify) continue;
    await expect
      .poll(
        async () => (await queue.status(alertDeliveryQueue, alertDeliveryKey(event.id)))?.state,
        {
          timeout: 30_000,
        },
      )
      .toBe("done");
  }
}

describe("alert checks and deliveries", () => {
  it("fires once on a push that crosses the threshold, retries a failing webhook, and resolves once", async () => {
    const store = await openOn(null);
    const { dataset, push, alert, newWebhookIds } = await salesAlert(store, [
      { url: `${receiver.origin}/flaky` },
      { url: `${receiver.origin}/slack`, format: "slack" },
    ]);
    const queue = await store.openJobQueue(fast);
    const checker = await checkerOn(store, queue);
    const mailsBefore = smtp.received.length;
    const callsBefore = receiver.calls.length;

    await push(200, "append"); // 370 + 200 = 570
    await settle(store, queue, await checker.afterWrite(dataset.id), alert.id);
    // A second push that keeps it above: checked, not told again.
    await push(1, "append");
    await settle(store, queue, await checker.afterWrite(dataset.id), alert.id);

    const calls = receiver.calls.slice(callsBefore);
    expect(calls.map((call) => call.path).sort()).toEqual(["/flaky", "/slack"]);
    const json = calls.find((call) => call.path === "/flaky") as ReceivedCall;
    const body = JSON.parse(json.body);
    expect(body).toMatchObject({
      type: "alert.fired",
      title: "Alert: Revenue over 500",
      value: 570,
      url: `https://seed.test/admin/alerts/${alert.id}`,
    });
    expect(body.text).toBe("Revenue on Sales is 570: above 500.");
    // Signed with the webhook's own secret, derived from the server's and its id.
    const signature = String(json.headers[webhookSignatureHeader.toLowerCase()]);
    const t = Number(/t=(\d+)/.exec(signature)?.[1]);
    expect(signature).toBe(
      webhookSignature(webhookSecret(serverSecret, newWebhookIds[0] as string), json.body, t),
    );
    expect(webhookSecret(serverSecret, newWebhookIds[0] as string)).not.toBe(
      webhookSecret(serverSecret, newWebhookIds[1] as string),
    );
    expect(
      JSON.parse((calls.find((call) => call.path === "/slack") as ReceivedCall).body).text,
    ).toContain("Revenue on Sales is 570");
    const mails = smtp.received.slice(mailsBefore);
    expect(mails.map((mail) => mail.to.join()).sort()).toEqual(["ann@example.org", owner.email]);
    const parsed = await simpleParser(mails[0]?.raw ?? Buffer.alloc(0));
    expect(parsed.subject).toBe("Alert: Revenue over 500");
    expect(parsed.text).toContain("https://seed.test/unsubscribe/");
    expect(parsed.headerLines.find((line) => line.key === "list-unsubscribe-post")?.line).toBe(
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    );

    await push(80, "replace");
    await settle(store, queue, await checker.afterWrite(dataset.id), alert.id);
    const resolvedCalls = receiver.calls.slice(callsBefore + calls.length);
    expect(resolvedCalls.map((call) => call.path).sort()).toEqual(["/flaky", "/slack"]);
    expect(JSON.parse((resolvedCalls[0] as ReceivedCall).body).type).toBe("alert.resolved");
    expect(smtp.received.length - mailsBefore).toBe(4);
    const { events } = (await store.getAlert(alert.id, owner)) ?? { events: [] };
    expect(events.map((event) => [event.kind, event.value, event.deliveryStatus])).toEqual([
      ["resolved", 80, "sent"],
      ["fired", 570, "sent"],
    ]);
    // The first try of the firing found /flaky busy: partial, then sent on the retry.
    const audit = (await store.listAuditEvents({ entityType: "alert" })).events.map(
      (event) => event.action,
    );
    expect(audit.filter((action) => action === "alert.fail")).toHaveLength(1);
    expect(audit.filter((action) => action === "alert.send")).toHaveLength(2);
  });

  it("does not call a webhook pointed at the cloud's metadata service, and says why without retrying", async () => {
    const store = await openOn(null);
    const { dataset, push, alert } = await salesAlert(store, [
      { url: "http://169.254.169.254/latest/meta-data/" },
      { url: `${receiver.origin}/inside` },
    ]);
    const queue = await store.openJobQueue(fast);
    const checker = await checkerOn(store, queue);
    const callsBefore = receiver.calls.length;
    await push(200, "append");
    await settle(store, queue, await checker.afterWrite(dataset.id), alert.id);
    expect(receiver.calls.slice(callsBefore).map((call) => call.path)).toEqual(["/inside"]);
    const [fired] = (await store.getAlert(alert.id, owner))?.events ?? [];
    expect(fired?.deliveryStatus).toBe("partial");
    expect(fired?.deliveryError).toContain(
      "The webhook was not called: 169.254.169.254 is a link-local address",
    );
  });

  it("tells once when two instances on one PostgreSQL check the same push", async () => {
    const cluster = startThrowawayPostgres({ prefix: "seed-pg-alerts-" });
    cleanups.push(() => cluster.stop());
    const url = createThrowawayDatabase(cluster.url, "seed_alerts");
    const first = await openOn(url);
    const second = await openOn(url);
    const { dataset, push, alert } = await salesAlert(first, [{ url: `${receiver.origin}/twice` }]);
    const queues = [await first.openJobQueue(fast), await second.openJobQueue(fast)];
    const checkers = [
      await checkerOn(first, queues[0] as JobQueue),
      await checkerOn(second, queues[1] as JobQueue),
    ];
    const callsBefore = receiver.calls.length;
    await push(900, "append");
    const keys = await Promise.all(checkers.map((checker) => checker.afterWrite(dataset.id)));
    await settle(first, queues[0] as JobQueue, keys.flat(), alert.id);
    const calls = receiver.calls.slice(callsBefore).filter((call) => call.path === "/twice");
    expect(calls).toHaveLength(1);
    expect((await first.getAlert(alert.id, owner))?.events).toHaveLength(1);
  });
});
