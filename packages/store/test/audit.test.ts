import { type ChartInput, ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import { newAuditId } from "../src/context.js";
import { internalsOf } from "../src/raw-handles.js";
import { admin, editor, otherEditor } from "./actors.js";
import { dialects, errorOf, openTestStore, salesInput } from "./helpers.js";

/** A clock the test sets by hand, so each write gets a known timestamp. */
function manualClock() {
  let current = new Date("2026-01-01T00:00:00.000Z");
  return {
    now: () => current,
    setMinute: (minute: number) => {
      current = new Date(Date.UTC(2026, 0, 1, 0, minute));
    },
  };
}

describe.each(dialects)("audit log on %s", (dialect) => {
  it("records each write with actor, action, entity and a small detail", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const dataset = await store.createDataset(salesInput(), editor);
    await store.updateDataset(dataset.id, 1, { name: "Renamed" }, otherEditor);
    await store.deleteDataset(dataset.id, 2, editor);
    const { events } = await store.listAuditEvents();

    expect(
      events.map((event) => [event.action, event.actor.email, event.entityType, event.entityId]),
    ).toEqual([
      ["dataset.delete", editor.email, "dataset", dataset.id],
      ["dataset.update", otherEditor.email, "dataset", dataset.id],
      ["dataset.create", editor.email, "dataset", dataset.id],
    ]);
    expect(events[2]?.detail).toEqual({ name: "Sales", rowCount: 3 });
    expect(events[1]?.detail).toEqual({ changed: ["name"], rowCount: 3 });
  });

  it("lists events written within the same millisecond newest first, across pages", async () => {
    const fixed = new Date("2026-03-01T12:00:00.000Z");
    const store = await openTestStore(dialect, { seedDemo: false, now: () => fixed });
    const dashboard = await store.createDashboard({ title: "T0", slug: "same-ms" }, editor);
    for (let version = 1; version <= 5; version++) {
      await store.updateDashboard(dashboard.id, version, { title: `T${version}` }, editor);
    }

    const first = await store.listAuditEvents({ limit: 3 });
    const second = await store.listAuditEvents({ limit: 3, cursor: first.nextCursor });

    expect(first.events.every((event) => event.at === fixed.toISOString())).toBe(true);
    expect(first.events.map((event) => event.detail.title)).toEqual(["T5", "T4", "T3"]);
    expect(second.events.map((event) => event.detail.title)).toEqual(["T2", "T1", "T0"]);
    expect(second.nextCursor).toBeNull();
  });

  it("writes no audit row when the write fails", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    await store.updateDataset(dataset.id, 1, { name: "B" }, editor);

    await errorOf(store.updateDataset(dataset.id, 1, { name: "stale" }, editor));
    await errorOf(store.createChart({ title: "", type: "line" } as unknown as ChartInput, editor));
    const { events } = await store.listAuditEvents();

    expect(events.map((event) => event.action)).toEqual(["dataset.update", "dataset.create"]);
  });

  it("records user events from the web app in the same log and filters them", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    await store.createDataset(salesInput(), editor);

    const recorded = await store.recordAuditEvent({
      actor: admin,
      action: "user.set-role",
      entityType: "user",
      entityId: "user-42",
      detail: { from: "viewer", to: "editor" },
    });
    const users = await store.listAuditEvents({ entityType: "user" });
    const choices = await store.listAuditFilterChoices();

    expect(recorded).toMatchObject({
      action: "user.set-role",
      entityType: "user",
      entityId: "user-42",
      actor: { id: admin.id, email: admin.email },
      detail: { from: "viewer", to: "editor" },
    });
    expect(users.events).toEqual([recorded]);
    expect(choices).toEqual({
      actors: [
        { id: admin.id, email: admin.email },
        { id: editor.id, email: editor.email },
      ],
      actions: ["dataset.create", "user.set-role"],
    });
  });

  it("rejects a recorded event whose action does not match its entity type", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const error = await errorOf(
      store.recordAuditEvent({
        actor: editor,
        action: "user.ban",
        entityType: "chart",
        entityId: "c",
      }),
    );

    expect((error as ValidationError).fieldErrors).toEqual({
      action: ['A chart event\'s action starts with "chart.".'],
    });
    expect((await store.listAuditEvents()).events).toEqual([]);
  });

  it("refuses writes without an actor", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const error = await errorOf(
      store.createDataset(salesInput(), { id: "", email: "", role: "editor" }),
    );

    expect(error).toBeInstanceOf(ValidationError);
    expect(await store.listDatasets()).toEqual([]);
  });

  it("filters by actor, entity type, action and time, and pages with a cursor", async () => {
    const clock = manualClock();
    const store = await openTestStore(dialect, { seedDemo: false, now: clock.now });
    clock.setMinute(0);
    const first = await store.createDataset(salesInput("One"), editor);
    clock.setMinute(1);
    await store.createDataset(salesInput("Two"), otherEditor);
    clock.setMinute(2);
    await store.createDataset(salesInput("Three"), editor);
    clock.setMinute(3);
    await store.createDashboard({ title: "Board", slug: "board" }, editor);
    clock.setMinute(4);
    await store.updateDataset(first.id, 1, { name: "One again" }, editor);

    const byActor = await store.listAuditEvents({ actorId: otherEditor.id });
    const dashboards = await store.listAuditEvents({ entityType: "dashboard" });
    const updates = await store.listAuditEvents({ action: "dataset.update" });
    const window = await store.listAuditEvents({
      since: "2026-01-01T00:01:00.000Z",
      until: new Date("2026-01-01T00:03:00.000Z"),
    });
    const page1 = await store.listAuditEvents({ actorId: editor.id, limit: 2 });
    const page2 = await store.listAuditEvents({
      actorId: editor.id,
      limit: 2,
      cursor: page1.nextCursor,
    });

    expect(byActor.events.map((event) => event.detail.name)).toEqual(["Two"]);
    expect(dashboards.events.map((event) => event.action)).toEqual(["dashboard.create"]);
    expect(updates.events).toHaveLength(1);
    expect(window.events.map((event) => event.at)).toEqual([
      "2026-01-01T00:02:00.000Z",
      "2026-01-01T00:01:00.000Z",
    ]);
    expect(page1.events.map((event) => event.action)).toEqual([
      "dataset.update",
      "dashboard.create",
    ]);
    expect(page1.nextCursor).not.toBeNull();
    expect(page2.events.map((event) => event.detail.name)).toEqual(["Three", "One"]);
    expect(page2.nextCursor).toBeNull();
  });

  it("treats blank filter values from a query string as no filter", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    await store.createDataset(salesInput(), editor);

    const page = await store.listAuditEvents({
      actorId: "",
      action: "",
      since: "",
      until: "",
      cursor: "",
      entityType: "" as never,
    });

    expect(page.events).toHaveLength(1);
  });

  it("rejects a forged cursor and an out-of-range limit with field errors", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const cursor = await errorOf(store.listAuditEvents({ cursor: "not-a-cursor" }));
    const limit = await errorOf(store.listAuditEvents({ limit: 500 }));

    expect((cursor as ValidationError).fieldErrors).toEqual({
      cursor: ["This page link is not valid."],
    });
    expect((limit as ValidationError).fieldErrors).toEqual({
      limit: ["The limit can be at most 200."],
    });
  });

  it("gives overview counts and recent activity for the admin home", async () => {
    const store = await openTestStore(dialect);

    const counts = await store.getOverviewCounts();
    const recent = await store.listRecentActivity(3);

    expect(counts).toEqual({
      datasets: 3,
      charts: 5,
      dashboards: 2,
      publishedDashboards: 1,
      draftDashboards: 1,
      auditEvents: 10,
      users: null,
    });
    expect(recent).toHaveLength(3);
    expect(recent.every((event) => event.actor.id === "system")).toBe(true);
  });

  it("counts better-auth users once its user table exists", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    await internalsOf(store)
      .db.schema.createTable("user")
      .addColumn("id", "text", (col) => col.primaryKey())
      .execute();
    await internalsOf(store)
      .db.insertInto("user" as never)
      .values([{ id: "a" }, { id: "b" }] as never)
      .execute();

    const counts = await store.getOverviewCounts();

    expect(counts.users).toBe(2);
  });
});

describe("newAuditId", () => {
  it("sorts events of the same millisecond in the order they were written", () => {
    const at = new Date("2026-01-01T00:00:00.000Z");

    const ids = Array.from({ length: 50 }, () => newAuditId(at));

    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
    expect(ids.every((id) => /^[0-9a-z]{27}$/.test(id))).toBe(true);
  });
});
