import { storeErrorOf } from "@seed/model";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Store } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { admin, editor, otherEditor, viewer } from "./actors.js";
import { clock, dialects, errorOf, openTestStore } from "./helpers.js";

// Scheduled reports as the store keeps them: who they may go to, when they are due, and the marks
// that let a run be retried without mailing anyone twice. Both dialects, the same tests.

describe.each(dialects)("reports on %s", (dialect) => {
  async function setup(start = "2026-03-27T12:00:00.000Z") {
    const time = clock(start);
    const store = await openTestStore(dialect, { seedDemo: false, now: time.now });
    const dashboard = await store.createDashboard(
      { title: "Paris sales", slug: "paris-sales", timeZone: "Europe/Paris" },
      editor,
    );
    await store.publishDashboard(dashboard.id, dashboard.version, editor);
    return { store, time, dashboard };
  }

  const daily = (dashboardId: string, recipients: string[] = [editor.email]) => ({
    name: "Morning sales",
    dashboardId,
    filterQuery: "?range=last-30-days",
    schedule: { every: "day" as const, time: "08:00" },
    recipients,
  });

  async function rowCount(store: Store, table: string): Promise<number> {
    const { db } = internalsOf(store);
    const result = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(
      table,
    )}`.execute(db);
    return Number(result.rows[0]?.n ?? 0);
  }

  it("is due at the local time in the dashboard's zone, across the night clocks go forward", async () => {
    // Paris moves from UTC+1 to UTC+2 on 29 March 2026.
    const { store, time, dashboard } = await setup("2026-03-27T12:00:00.000Z");
    const report = await store.createReport(daily(dashboard.id), editor);
    expect(report).toMatchObject({
      timeZone: "Europe/Paris",
      filterQuery: "range=last-30-days",
      scheduleText: "Every day at 08:00 (Europe/Paris)",
      nextRunAt: "2026-03-28T07:00:00.000Z",
      enabled: true,
      recipients: [{ address: editor.email, unsubscribed: false }],
    });
    expect(await store.dueReports()).toEqual([]);
    const seen: string[] = [];
    for (let step = 0; step < 4; step += 1) {
      time.advance(24 * 3_600_000);
      const due = await store.dueReports();
      expect(due).toHaveLength(1);
      const [{ reportId, dueAt }] = due as [{ reportId: string; dueAt: string }];
      expect(reportId).toBe(report.id);
      seen.push(dueAt);
      expect(await store.advanceReport(reportId, dueAt)).toBe(true);
      // Moved once: a second caller with the same due instant moves nothing.
      expect(await store.advanceReport(reportId, dueAt)).toBe(false);
    }
    expect(seen).toEqual([
      "2026-03-28T07:00:00.000Z",
      "2026-03-29T06:00:00.000Z",
      "2026-03-30T06:00:00.000Z",
      "2026-03-31T06:00:00.000Z",
    ]);
  });

  it("sends a run missed while nothing was up once, then carries on from now", async () => {
    const { store, time, dashboard } = await setup();
    const report = await store.createReport(daily(dashboard.id), editor);
    time.advance(10 * 24 * 3_600_000);
    const due = await store.dueReports();
    expect(due).toEqual([{ reportId: report.id, dueAt: "2026-03-28T07:00:00.000Z" }]);
    expect(await store.advanceReport(report.id, "2026-03-28T07:00:00.000Z")).toBe(true);
    expect(await store.dueReports()).toEqual([]);
    expect((await store.getReport(report.id, editor))?.nextRunAt).toBe("2026-04-07T06:00:00.000Z");
  });

  it("lets exactly one of many racing callers move a due report", async () => {
    const { store, time, dashboard } = await setup();
    const report = await store.createReport(daily(dashboard.id), editor);
    time.advance(24 * 3_600_000);
    const moved = await Promise.all(
      Array.from({ length: 8 }, () => store.advanceReport(report.id, "2026-03-28T07:00:00.000Z")),
    );
    expect(moved.filter(Boolean)).toHaveLength(1);
  });

  it("refuses a recipient outside the users and allowed domains, naming each, and keeps nothing", async () => {
    const { store, dashboard } = await setup();
    const error = storeErrorOf(
      await errorOf(
        store.createReport(
          daily(dashboard.id, [
            editor.email,
            "boss@elsewhere.example",
            "not an address",
            "team@partner.example",
          ]),
          editor,
        ),
      ),
    );
    expect(error?.kind).toBe("invalid");
    // The shape is read first: the malformed address is named at its place.
    expect(Object.keys((error as { fieldErrors: object }).fieldErrors)).toEqual(["recipients.2"]);
    const second = storeErrorOf(
      await errorOf(
        store.createReport(
          daily(dashboard.id, [editor.email, "boss@elsewhere.example", "team@partner.example"]),
          editor,
        ),
      ),
    ) as { fieldErrors: Record<string, string[]> };
    expect(Object.keys(second.fieldErrors).sort()).toEqual(["recipients.1", "recipients.2"]);
    expect(second.fieldErrors["recipients.1"]?.[0]).toContain(
      "an admin can allow elsewhere.example",
    );
    expect(await rowCount(store, "reports")).toBe(0);
    expect(await rowCount(store, "report_recipients")).toBe(0);

    // An admin allows one domain (written in Unicode, kept in its ASCII form).
    expect(
      await store.setAllowedMailDomains(admin, { domains: ["Partner.example", "bücher.example"] }),
    ).toEqual(["partner.example", "xn--bcher-kva.example"]);
    const allowed = await store.createReport(
      daily(dashboard.id, [
        editor.email,
        "Team@PARTNER.example",
        "team@partner.example",
        "lena@bücher.example",
      ]),
      editor,
    );
    expect(allowed.recipients.map((recipient) => recipient.address)).toEqual([
      editor.email,
      "lena@xn--bcher-kva.example",
      "Team@partner.example",
    ]);
    const setting = storeErrorOf(
      await errorOf(store.setAllowedMailDomains(editor, { domains: ["anything.example"] })),
    );
    expect(setting?.kind).toBe("forbidden");
  });

  it("lets the app's users receive reports, and not an account that is gone", async () => {
    const { store, dashboard } = await setup();
    const { db } = internalsOf(store);
    // better-auth's user table, as its migrations make it (the columns the store reads).
    await sql`create table ${sql.table("user")} (id text primary key, email text not null, banned boolean)`.execute(
      db,
    );
    await sql`insert into ${sql.table("user")} (id, email, banned) values (${editor.id}, ${editor.email}, null), ('u-2', 'Colleague@Example.com', null)`.execute(
      db,
    );
    const report = await store.createReport(
      daily(dashboard.id, [editor.email, "colleague@example.com"]),
      editor,
    );
    expect(report.recipients).toHaveLength(2);
    expect((await store.reportRunPlan(report.id, "2026-03-28T07:00:00.000Z"))?.refusal).toBeNull();
    // better-auth keeps a boolean as 1 on SQLite and true on PostgreSQL.
    await sql`update ${sql.table("user")} set banned = ${sql.raw(dialect === "sqlite" ? "1" : "true")} where id = ${editor.id}`.execute(
      db,
    );
    expect((await store.reportRunPlan(report.id, "2026-03-28T07:00:00.000Z"))?.refusal).toBe(
      "The report's owner is blocked.",
    );
    await sql`delete from ${sql.table("user")} where id = ${editor.id}`.execute(db);
    expect((await store.reportRunPlan(report.id, "2026-03-28T07:00:00.000Z"))?.refusal).toBe(
      "The report's owner no longer has an account.",
    );
  });

  it("marks each recipient of a run once and records how the run ended, audited", async () => {
    const { store, dashboard } = await setup();
    await store.setAllowedMailDomains(admin, { domains: ["example.com"] });
    const report = await store.createReport(
      daily(dashboard.id, [editor.email, "ann@example.com", "bob@example.com"]),
      editor,
    );
    const due = report.nextRunAt as string;
    const plan = await store.reportRunPlan(report.id, due);
    expect(plan?.recipients.map((one) => one.key)).toEqual([
      "ann@example.com",
      "bob@example.com",
      editor.email,
    ]);
    await store.markReportSent(report.id, due, "ann@example.com", "<1@test>");
    await store.markReportSent(report.id, due, "ann@example.com", "<1@test>");
    expect(
      await store.finishReportRun(report.id, due, {
        sent: ["ann@example.com"],
        failed: [{ address: "bob@example.com", reason: "Mailbox full." }],
        refusal: null,
      }),
    ).toBe("partial");
    const retry = await store.reportRunPlan(report.id, due);
    expect([...(retry?.alreadySent ?? [])]).toEqual(["ann@example.com"]);
    await store.markReportSent(report.id, due, "bob@example.com", null);
    await store.markReportSent(report.id, due, editor.email, null);
    expect(
      await store.finishReportRun(report.id, due, {
        sent: ["bob@example.com", editor.email],
        failed: [],
        refusal: null,
      }),
    ).toBe("sent");
    expect(await store.getReport(report.id, editor)).toMatchObject({
      lastDueAt: due,
      lastStatus: "sent",
      lastError: null,
    });
    // A different run starts with nobody sent.
    expect(
      (await store.reportRunPlan(report.id, "2026-03-29T06:00:00.000Z"))?.alreadySent.size,
    ).toBe(0);
    expect(
      await store.finishReportRun(report.id, "2026-03-29T06:00:00.000Z", {
        sent: [],
        failed: [],
        refusal: "The dashboard paris-sales is not published.",
      }),
    ).toBe("failed");
    const actions = (await store.listAuditEvents({ entityType: "report" })).events
      .map((event) => event.action)
      .reverse();
    expect(actions).toEqual(["report.create", "report.fail", "report.send", "report.fail"]);
  });

  it("stops at a recipient's unsubscribe link, and an edit by the owner does not undo it", async () => {
    const { store, dashboard } = await setup();
    await store.setAllowedMailDomains(admin, { domains: ["example.com"] });
    const report = await store.createReport(
      daily(dashboard.id, [editor.email, "ann@example.com"]),
      editor,
    );
    const due = report.nextRunAt as string;
    const token = (await store.reportRunPlan(report.id, due))?.recipients.find(
      (one) => one.key === "ann@example.com",
    )?.unsubscribeToken as string;
    expect(await store.mailSubscription(token)).toEqual({
      kind: "report",
      name: "Morning sales",
      address: "ann@example.com",
      unsubscribed: false,
    });
    expect(await store.unsubscribeMail(token)).toMatchObject({ address: "ann@example.com" });
    expect(await store.unsubscribeMail(token)).toMatchObject({ address: "ann@example.com" });
    expect(await store.unsubscribeMail("x".repeat(32))).toBeNull();
    expect(await store.unsubscribeMail("../../etc")).toBeNull();
    const plan = await store.reportRunPlan(report.id, due);
    expect(plan?.recipients.map((one) => one.key)).toEqual([editor.email]);
    const edited = await store.updateReport(
      report.id,
      { ...daily(dashboard.id, [editor.email, "ann@example.com"]), name: "Sales" },
      editor,
    );
    expect(edited.recipients).toContainEqual({ address: "ann@example.com", unsubscribed: true });
    // Left out of the list and added back later, she is still unsubscribed.
    await store.updateReport(report.id, daily(dashboard.id, [editor.email]), editor);
    const readded = await store.updateReport(
      report.id,
      daily(dashboard.id, [editor.email, "ANN@example.com"]),
      editor,
    );
    expect(readded.recipients).toContainEqual({ address: "ANN@example.com", unsubscribed: true });
    const unsubscribes = (await store.listAuditEvents({ action: "report.unsubscribe" })).events;
    expect(unsubscribes).toHaveLength(1);
  });

  it("shows and changes a report for its owner and admins only", async () => {
    const { store, dashboard } = await setup();
    const report = await store.createReport(daily(dashboard.id), editor);
    expect(await store.getReport(report.id, otherEditor)).toBeNull();
    expect((await store.listReports(otherEditor)).map((one) => one.id)).toEqual([]);
    expect((await store.listReports(admin)).map((one) => one.id)).toEqual([report.id]);
    const error = storeErrorOf(await errorOf(store.deleteReport(report.id, otherEditor)));
    expect(error?.kind).toBe("invalid");
    expect(storeErrorOf(await errorOf(store.listReports(viewer)))?.kind).toBe("forbidden");
    // A stale edit is refused, and nothing changes.
    const paused = await store.updateReport(
      report.id,
      { ...daily(dashboard.id), enabled: false, expectedVersion: 1 },
      admin,
    );
    expect(paused).toMatchObject({ enabled: false, nextRunAt: null, version: 2 });
    expect(
      storeErrorOf(
        await errorOf(
          store.updateReport(report.id, { ...daily(dashboard.id), expectedVersion: 1 }, editor),
        ),
      )?.kind,
    ).toBe("invalid");
    // "Send now" is the owner's or an admin's, audited, and gives a run of its own.
    expect(await store.requestReportRun(report.id, editor)).toEqual({
      reportId: report.id,
      dueAt: "2026-03-27T12:00:00.000Z",
    });
    expect(storeErrorOf(await errorOf(store.requestReportRun(report.id, otherEditor)))?.kind).toBe(
      "invalid",
    );
    await store.deleteReport(report.id, editor);
    expect(await store.listReports(admin)).toEqual([]);
  });

  it("names what a run cannot send: a dashboard unpublished or deleted", async () => {
    const { store, dashboard } = await setup();
    const report = await store.createReport(daily(dashboard.id), editor);
    const due = report.nextRunAt as string;
    const current = await store.getDashboard(dashboard.id);
    await store.unpublishDashboard(dashboard.id, current?.version ?? 0, editor);
    expect((await store.reportRunPlan(report.id, due))?.refusal).toBe(
      "The dashboard paris-sales is not published.",
    );
    const after = await store.getDashboard(dashboard.id);
    await store.deleteDashboard(dashboard.id, after?.version ?? 0, editor);
    expect((await store.reportRunPlan(report.id, due))?.refusal).toBe("The dashboard was deleted.");
    expect(await store.reportRunPlan("no-such-report", due)).toBeNull();
  });
});
