import { storeErrorOf } from "@seed/model";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Store } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { admin, editor, otherEditor, viewer } from "./actors.js";
import { clock, dialects, errorOf, openTestStore, salesInput } from "./helpers.js";

// Alerts as the store keeps and checks them: the number read as the page shows it, one event
// when the condition starts to hold and one when it stops, whoever checks and however often, the
// history with the value seen, snoozes, owners, and the marks that let a delivery be retried.
// Both dialects, the same tests; rows come in through the real push path.

describe.each(dialects)("alerts on %s", (dialect) => {
  async function setup(start = "2026-06-01T12:00:00.000Z") {
    const time = clock(start);
    const store = await openTestStore(dialect, { seedDemo: false, now: time.now });
    const dataset = await store.createDataset(salesInput(), editor);
    const dashboard = await store.createDashboard(
      {
        title: "Sales",
        slug: "sales",
        timeZone: "Europe/Paris",
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
      editor,
    );
    const tileId = dashboard.tiles[0]?.id as string;
    const chart = await store.createChart(
      {
        title: "Revenue by month",
        type: "line",
        datasetId: dataset.id,
        indexColumn: "month",
        seriesColumns: ["revenue"],
      },
      editor,
    );
    const { secret } = await store.createDatasetToken(
      { datasetId: dataset.id, name: "Pusher", scope: "replace" },
      editor,
    );
    const push = (rows: { month: string; revenue: number }[], mode: "append" | "replace") =>
      store.pushDatasetRows({
        token: secret,
        datasetId: dataset.id,
        format: "json",
        mode,
        body: JSON.stringify(rows.map((row) => ({ ...row, region: "North", orders: 1 }))),
      });
    return { store, time, dataset, dashboard, tileId, chart, push };
  }

  const onTile = (dashboardId: string, tileId: string) => ({
    name: "Revenue over 500",
    target: { kind: "stat" as const, dashboardId, tileId },
    condition: { kind: "above" as const, value: 500 },
    recipients: [editor.email],
  });

  /** The field errors a refused write names. */
  async function fieldErrorsOf(promise: Promise<unknown>): Promise<Record<string, string[]>> {
    const error = storeErrorOf(await errorOf(promise)) as {
      fieldErrors?: Record<string, string[]>;
    };
    return error.fieldErrors ?? {};
  }

  /** Checks every alert on the dataset, as the web app does after a push. */
  async function checkDataset(store: Store, datasetId: string) {
    const checks = [];
    for (const id of await store.alertsOnDataset(datasetId))
      checks.push(await store.checkAlert(id));
    return checks;
  }

  it("fires once when a push crosses the threshold and resolves once when it falls back", async () => {
    const { store, time, dataset, dashboard, tileId, push } = await setup();
    const { alert } = await store.createAlert(onTile(dashboard.id, tileId), editor);
    expect(alert).toMatchObject({
      state: "ok",
      targetText: "Revenue on Sales",
      conditionText: "above 500",
      checkEveryText: "every hour",
      nextCheckAt: "2026-06-01T13:00:00.000Z",
      recipients: [{ address: editor.email, unsubscribed: false }],
    });
    // 370 now: nothing holds, nothing recorded.
    expect((await checkDataset(store, dataset.id))[0]).toMatchObject({ value: 370, event: null });
    time.advance(60_000);
    await push([{ month: "2025-04-01", revenue: 200 }], "append");
    const fired = await checkDataset(store, dataset.id);
    expect(fired[0]?.event).toMatchObject({ kind: "fired", value: 570, notify: true });
    expect(fired[0]?.event?.deliveryStatus).toBe("pending");
    // Still above: checked again and again, never a second firing.
    await push([{ month: "2025-05-01", revenue: 1 }], "append");
    for (let i = 0; i < 3; i += 1) {
      expect((await store.checkAlert(alert.id))?.event).toBeNull();
    }
    time.advance(60_000);
    await push([{ month: "2025-01-01", revenue: 80 }], "replace");
    const resolved = await checkDataset(store, dataset.id);
    expect(resolved[0]?.event).toMatchObject({ kind: "resolved", value: 80 });
    expect((await store.checkAlert(alert.id))?.event).toBeNull();
    const seen = await store.getAlert(alert.id, editor);
    expect(seen?.alert).toMatchObject({ state: "ok", lastValue: 80, lastError: null });
    expect(seen?.events.map((event) => [event.kind, event.value])).toEqual([
      ["resolved", 80],
      ["fired", 570],
    ]);
    const audit = await store.listAuditEvents({ entityType: "alert" });
    expect(audit.events.map((event) => event.action).sort()).toEqual(
      ["alert.create", "alert.fire", "alert.resolve"].sort(),
    );
  });

  it("records one firing when many checks run at once", async () => {
    const { store, dashboard, tileId, push } = await setup();
    const { alert } = await store.createAlert(onTile(dashboard.id, tileId), editor);
    await push([{ month: "2025-04-01", revenue: 900 }], "append");
    const checks = await Promise.all(Array.from({ length: 8 }, () => store.checkAlert(alert.id)));
    expect(checks.filter((check) => check?.event).length).toBe(1);
    expect((await store.getAlert(alert.id, editor))?.events).toHaveLength(1);
  });

  it("watches a chart measure's latest point against the one before", async () => {
    const { store, dataset, chart, push } = await setup();
    const { alert } = await store.createAlert(
      {
        name: "Revenue fell",
        target: { kind: "chart", chartId: chart.id, series: "m0" },
        condition: { kind: "change", percent: 30, direction: "down" },
        recipients: [editor.email],
        checkEveryMinutes: 15,
      },
      editor,
    );
    // 150 then 120: a 20 % fall, under 30 %.
    expect((await store.checkAlert(alert.id))?.event).toBeNull();
    await push([{ month: "2025-04-01", revenue: 60 }], "append");
    const [check] = await checkDataset(store, dataset.id);
    expect(check?.event).toMatchObject({ kind: "fired", value: 60, previous: 120 });
    const refused = await fieldErrorsOf(
      store.createAlert(
        { ...onTile("x", "y"), target: { kind: "chart", chartId: chart.id, series: "m7" } },
        editor,
      ),
    );
    expect(refused["target.series"]?.[0]).toMatch(/no such measure.*revenue/i);
  });

  it("fires when no rows came in for the hours asked, and resolves on the next push", async () => {
    const { store, time, dashboard, tileId, push } = await setup();
    const { alert } = await store.createAlert(
      { ...onTile(dashboard.id, tileId), condition: { kind: "stale", hours: 24 } },
      editor,
    );
    time.advance(23 * 3_600_000);
    expect((await store.checkAlert(alert.id))?.event).toBeNull();
    time.advance(2 * 3_600_000);
    expect((await store.checkAlert(alert.id))?.event).toMatchObject({ kind: "fired" });
    await push([{ month: "2025-04-01", revenue: 1 }], "append");
    expect((await store.checkAlert(alert.id))?.event).toMatchObject({ kind: "resolved" });
  });

  it("keeps a firing while snoozed without telling anyone, and tells again after", async () => {
    const { store, time, dashboard, tileId, push } = await setup();
    const { alert } = await store.createAlert(onTile(dashboard.id, tileId), editor);
    await store.snoozeAlert(alert.id, { hours: 2 }, editor);
    await push([{ month: "2025-04-01", revenue: 900 }], "append");
    const quiet = await store.checkAlert(alert.id);
    expect(quiet?.event).toMatchObject({ kind: "fired", notify: false, deliveryStatus: "quiet" });
    time.advance(3 * 3_600_000);
    await push([{ month: "2025-01-01", revenue: 1 }], "replace");
    expect((await store.checkAlert(alert.id))?.event).toMatchObject({
      kind: "resolved",
      notify: true,
    });
    expect(
      await fieldErrorsOf(store.snoozeAlert(alert.id, { hours: 10_000 }, editor)),
    ).toHaveProperty("hours");
  });

  it("keeps a check's failure on the alert and records nothing when the tile is gone", async () => {
    const { store, dashboard, tileId } = await setup();
    const { alert } = await store.createAlert(onTile(dashboard.id, tileId), editor);
    await store.removeDashboardTile(dashboard.id, dashboard.version, tileId, editor);
    const check = await store.checkAlert(alert.id);
    expect(check).toMatchObject({
      event: null,
      error: "The dashboard no longer has this stat tile.",
    });
    expect((await store.getAlert(alert.id, editor))?.alert.lastError).toBe(
      "The dashboard no longer has this stat tile.",
    );
    const refused = await fieldErrorsOf(store.createAlert(onTile(dashboard.id, "nope"), editor));
    expect(refused).toHaveProperty(["target.tileId"]);
  });

  it("refuses outside recipients at their place, keeps nothing, and hides webhook addresses", async () => {
    const { store, dashboard, tileId } = await setup();
    const outside = await fieldErrorsOf(
      store.createAlert(
        { ...onTile(dashboard.id, tileId), recipients: [editor.email, "eve@elsewhere.example"] },
        editor,
      ),
    );
    expect(outside["recipients.1"]?.[0]).toMatch(/elsewhere\.example/);
    expect(await store.listAlerts(editor)).toEqual([]);
    const slack = "https://hooks.slack.com/services/T000/B000/secretpart";
    const { alert, newWebhookIds } = await store.createAlert(
      {
        ...onTile(dashboard.id, tileId),
        recipients: [],
        webhooks: [{ url: slack, format: "slack" }],
      },
      editor,
    );
    expect(newWebhookIds).toHaveLength(1);
    expect(alert.webhooks).toEqual([
      { id: newWebhookIds[0], shownUrl: "https://hooks.slack.com/…", format: "slack" },
    ]);
    expect(JSON.stringify(await store.listAlerts(editor))).not.toContain("secretpart");
    // Kept by its id without its address: same webhook, same secret, nothing new to show.
    const kept = await store.updateAlert(
      alert.id,
      {
        ...onTile(dashboard.id, tileId),
        recipients: [],
        webhooks: [{ id: newWebhookIds[0], format: "slack" }],
        expectedVersion: 1,
      },
      editor,
    );
    expect(kept.newWebhookIds).toEqual([]);
    expect(kept.alert.webhooks[0]?.id).toBe(newWebhookIds[0]);
    const nobody = await fieldErrorsOf(
      store.createAlert({ ...onTile(dashboard.id, tileId), recipients: [] }, editor),
    );
    expect(nobody.recipients?.[0]).toMatch(/recipient or a webhook/);
  });

  it("is its owner's (and admins'): another editor finds nothing, a viewer is refused", async () => {
    const { store, dashboard, tileId } = await setup();
    const { alert } = await store.createAlert(onTile(dashboard.id, tileId), editor);
    expect(await store.getAlert(alert.id, otherEditor)).toBeNull();
    expect(await store.listAlerts(otherEditor)).toEqual([]);
    expect(await fieldErrorsOf(store.deleteAlert(alert.id, otherEditor))).toHaveProperty("alertId");
    expect(storeErrorOf(await errorOf(store.listAlerts(viewer)))?.kind).toBe("forbidden");
    expect((await store.listAlerts(admin)).map((one) => one.id)).toEqual([alert.id]);
    await store.deleteAlert(alert.id, admin);
    expect(await store.listAlerts(editor)).toEqual([]);
  });

  it("names a target moved later where its owner cannot see it no more than a deleted one", async () => {
    const { store, dashboard, tileId, chart } = await setup();
    const onChart = await store.createAlert(
      {
        name: "Chart watch",
        target: { kind: "chart", chartId: chart.id, series: "m0" },
        condition: { kind: "above", value: 1 },
        recipients: [editor.email],
      },
      editor,
    );
    const onStat = await store.createAlert(onTile(dashboard.id, tileId), editor);
    const texts = async (actor: typeof editor) =>
      Object.fromEntries((await store.listAlerts(actor)).map((one) => [one.name, one.targetText]));
    expect(await texts(editor)).toEqual({
      "Chart watch": "Revenue by month: revenue",
      "Revenue over 500": "Revenue on Sales",
    });
    // An admin moves both targets into a collection that grants the editor nothing.
    const vault = await store.createCollection(admin, { name: "Vault" });
    await store.moveToCollection(admin, { entityType: "chart", id: chart.id }, vault.id);
    await store.moveToCollection(admin, { entityType: "dashboard", id: dashboard.id }, vault.id);
    const hidden = {
      "Chart watch": "a measure of a chart deleted, or not yours to see",
      "Revenue over 500": "a stat tile of a dashboard deleted, or not yours to see",
    };
    expect(await texts(editor)).toEqual(hidden);
    const own = await store.getAlert(onChart.alert.id, editor);
    expect(own?.alert.targetText).toBe(hidden["Chart watch"]);
    expect(JSON.stringify(await store.listAlerts(editor))).not.toContain("Revenue by month");
    // Checked as its owner reads it, the alert fails rather than read what it may not see.
    expect((await store.checkAlert(onStat.alert.id))?.error).toMatch(/no longer exists/);
    // The admin sees every collection: the targets by name.
    expect(await texts(admin)).toEqual({
      "Chart watch": "Revenue by month: revenue",
      "Revenue over 500": "Revenue on Sales",
    });
  });

  it("is due on its schedule, moved on once by one of any number of callers", async () => {
    const { store, time, dashboard, tileId } = await setup();
    const { alert } = await store.createAlert(
      { ...onTile(dashboard.id, tileId), checkEveryMinutes: 15 },
      editor,
    );
    expect(await store.dueAlerts()).toEqual([]);
    time.advance(16 * 60_000);
    const due = await store.dueAlerts();
    expect(due).toEqual([{ alertId: alert.id, dueAt: "2026-06-01T12:15:00.000Z" }]);
    const moved = await Promise.all(
      [1, 2, 3].map(() => store.advanceAlert(alert.id, "2026-06-01T12:15:00.000Z")),
    );
    expect(moved.filter(Boolean)).toHaveLength(1);
    expect((await store.getAlert(alert.id, editor))?.alert.nextCheckAt).toBe(
      "2026-06-01T12:30:00.000Z",
    );
    // Down for a day: the next check is from now, not 96 checks to catch up.
    time.advance(24 * 3_600_000);
    const [late] = await store.dueAlerts();
    expect(await store.advanceAlert(alert.id, late?.dueAt as string)).toBe(true);
    expect(await store.dueAlerts()).toEqual([]);
  });

  it("delivers an event once per destination across retries, and lets a recipient leave", async () => {
    const { store, dashboard, tileId, push } = await setup();
    await store.setAllowedMailDomains(admin, { domains: ["example.com"] });
    const { alert, newWebhookIds } = await store.createAlert(
      {
        ...onTile(dashboard.id, tileId),
        recipients: [editor.email, otherEditor.email],
        webhooks: [{ url: "http://127.0.0.1:9/hook" }],
      },
      editor,
    );
    await push([{ month: "2025-04-01", revenue: 900 }], "append");
    const event = (await store.checkAlert(alert.id))?.event;
    const plan = await store.alertDeliveryPlan(event?.id as string);
    expect(plan).toMatchObject({ refusal: null, event: { kind: "fired", value: 1270 } });
    expect(plan?.webhooks).toEqual([
      { id: newWebhookIds[0], url: "http://127.0.0.1:9/hook", format: "json" },
    ]);
    await store.markAlertDelivered(event?.id as string, `mail:${editor.email}`);
    expect(
      await store.finishAlertDelivery(event?.id as string, {
        sent: [`mail:${editor.email}`],
        failed: [
          { destination: `webhook:${newWebhookIds[0]}`, reason: "The webhook answered 503." },
        ],
        refusal: null,
      }),
    ).toBe("partial");
    const retry = await store.alertDeliveryPlan(event?.id as string);
    expect([...(retry?.alreadySent ?? [])]).toEqual([`mail:${editor.email}`]);
    const events = (await store.getAlert(alert.id, editor))?.events;
    expect(events?.[0]).toMatchObject({
      deliveryStatus: "partial",
      deliveryError: `webhook:${newWebhookIds[0]}: The webhook answered 503.`,
    });
    const token = plan?.recipients.find((one) => one.key === otherEditor.email)?.unsubscribeToken;
    expect(await store.mailSubscription(token as string)).toEqual({
      kind: "alert",
      name: "Revenue over 500",
      address: otherEditor.email,
      unsubscribed: false,
    });
    expect(await store.unsubscribeMail(token as string)).toMatchObject({ unsubscribed: true });
    const after = await store.alertDeliveryPlan(event?.id as string);
    expect(after?.recipients.map((one) => one.key)).toEqual([editor.email]);
  });

  it("records when rows last came in, and deletes every trace of an alert", async () => {
    const { store, time, dataset, dashboard, tileId, push } = await setup();
    const { db } = internalsOf(store);
    const rowsAdded = async () =>
      (
        await db
          .selectFrom("datasets")
          .select("rows_added_at")
          .where("id", "=", dataset.id)
          .executeTakeFirst()
      )?.rows_added_at;
    expect(await rowsAdded()).toBe("2026-06-01T12:00:00.000Z");
    time.advance(60_000);
    await store.updateDataset(dataset.id, 1, { name: "Renamed" }, editor);
    expect(await rowsAdded()).toBe("2026-06-01T12:00:00.000Z");
    await push([{ month: "2025-04-01", revenue: 900 }], "append");
    expect(await rowsAdded()).toBe("2026-06-01T12:01:00.000Z");
    const { alert } = await store.createAlert(
      { ...onTile(dashboard.id, tileId), webhooks: [{ url: "https://example.com/hook" }] },
      editor,
    );
    await store.checkAlert(alert.id);
    await store.deleteAlert(alert.id, editor);
    for (const table of ["alerts", "alert_recipients", "alert_webhooks", "alert_events"]) {
      const counted = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(
        table,
      )}`.execute(db);
      expect(Number(counted.rows[0]?.n), table).toBe(0);
    }
  });
});
