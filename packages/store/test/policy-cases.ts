import type { CollectionLevel, Permission } from "@seed/model";
import type { Actor, Store } from "../src/index.js";
import { admin } from "./actors.js";
import { salesInput, sourceSettings, textStream } from "./helpers.js";

// The policy test's table: one case per Store method that takes an actor, and what it acts on.

/** What the cases act on, made by an admin before each run. */
export interface Fixture {
  /** Charted and on the dashboard, so never deleted here. */
  dataset: string;
  spareDataset: string;
  chart: string;
  spareChart: string;
  dashboard: string;
  textTile: string;
  token: string;
  source: string;
  /** A saved SQL question, as a dataset. */
  question: string;
  /** A collection whose group (the editor and the viewer) may edit there. */
  collection: string;
  /** A group with no members, whose row limits reach nobody. */
  spareGroup: string;
}

export interface Case {
  permission: Permission;
  /** Connects to a live source (an unreachable one here): only the policy's answer is checked. */
  remote?: true;
  /** Reads only, so no audit event. */
  read?: true;
  /** Audit events one run writes, when not one (making a token to revoke it writes two). */
  events?: number;
  /**
   * What the case needs of the fixture's content records when they are in a collection (the
   * grant matrix, grant-matrix.test.ts): "view" to read or name one, "edit" to change one; absent
   * when it acts on none of them.
   */
  acts?: CollectionLevel;
  run: (store: Store, fixture: Fixture, actor: Actor) => Promise<unknown>;
}

/** Every Store method that takes an actor; the table below must name each one (tsc checks). */
type ActorMethod = {
  [Name in keyof Store]: Store[Name] extends (...args: infer Args) => unknown
    ? Actor extends Args[number]
      ? Name
      : never
    : never;
}[keyof Store];

const row = { month: "2025-04-01", region: "East", revenue: 90, orders: 3 };
const csvText = "month,region,revenue,orders\n2025-04-01,East,90,3\n";
const csv = () => textStream(csvText);
let names = 0;
const unique = (name: string) => `${name} ${++names}`;
/** A live source nobody listens at (its password kept, never used). */
export const unreachableSource = () => ({
  name: unique("Warehouse"),
  host: "127.0.0.1",
  port: 1,
  database: "warehouse",
  user: "reader",
  password: "secret-password",
  ...sourceSettings,
});

/** A daily report of the fixture's dashboard to the actor's own address (always allowed). */
const reportOf = (f: Fixture, actor: Actor) => ({
  name: unique("Morning"),
  dashboardId: f.dashboard,
  schedule: { every: "day" as const, time: "08:00" },
  recipients: [actor.email],
});

/** An alert on the fixture chart's measure, to the actor's own address (always allowed). */
const alertOf = (f: Fixture, actor: Actor) => ({
  name: unique("Revenue drop"),
  target: { kind: "chart" as const, chartId: f.chart, series: "m0" },
  condition: { kind: "below" as const, value: 10 },
  recipients: [actor.email],
});

/** The fixture's entities whose writes carry the version they were read at. */
const versionOf = {
  dataset: async (store: Store, id: string) => (await store.getDataset(id, 1))?.version ?? 1,
  chart: async (store: Store, id: string) => (await store.getChart(id))?.version ?? 1,
  dashboard: async (store: Store, id: string) => (await store.getDashboard(id))?.version ?? 1,
  source: async (store: Store, id: string) => (await store.getSource(id))?.version ?? 1,
};
const versionedKeys = {
  dataset: "dataset",
  spareDataset: "dataset",
  chart: "chart",
  spareChart: "chart",
  dashboard: "dashboard",
  source: "source",
  question: "dataset",
} as const;

/** A case that writes one fixture entity at its current version. */
function versioned(
  permission: Permission,
  key: keyof typeof versionedKeys,
  write: (
    store: Store,
    id: string,
    version: number,
    actor: Actor,
    fixture: Fixture,
  ) => Promise<unknown>,
): Case {
  return {
    permission,
    acts: "edit",
    run: async (store, f, actor) =>
      write(store, f[key], await versionOf[versionedKeys[key]](store, f[key]), actor, f),
  };
}

const importInto = (mode: "append" | "replace"): Case =>
  versioned(`rows.${mode}`, "dataset", (store, datasetId, expectedVersion, actor) =>
    store.importIntoDataset({ datasetId, expectedVersion, mode, source: csv() }, actor),
  );

const operations: Record<ActorMethod | "recordAuditEvent", Record<string, Case>> = {
  // Any account's refusal by the web app's own gates is recorded (as a denial, not a write).
  recordDenial: {
    record: {
      permission: "content.read",
      events: 0,
      run: (store, _f, actor) =>
        store.recordDenial(actor, { where: "GET /admin/users", permission: "users.manage" }),
    },
  },
  createDataset: {
    create: {
      permission: "content.write",
      run: (store, _f, actor) => store.createDataset(salesInput(unique("Sales")), actor),
    },
  },
  importNewDataset: {
    import: {
      permission: "content.write",
      run: (store, _f, actor) =>
        store.importNewDataset({ name: unique("Imported"), source: csv() }, actor),
    },
  },
  importIntoDataset: { append: importInto("append"), replace: importInto("replace") },
  previewImport: {
    preview: {
      permission: "content.write",
      read: true,
      run: (store, _f, actor) =>
        store.previewImport(
          { bytes: new TextEncoder().encode("a,b\n1,2\n"), complete: true },
          actor,
        ),
    },
  },
  updateDataset: {
    rename: versioned("content.write", "dataset", (store, id, version, actor) =>
      store.updateDataset(id, version, { name: unique("Renamed") }, actor),
    ),
  },
  replaceDatasetRows: {
    replace: versioned("rows.replace", "dataset", (store, id, version, actor) =>
      store.replaceDatasetRows(id, version, salesInput().rows, actor),
    ),
  },
  editDatasetRows: {
    append: versioned("content.write", "dataset", (store, id, version, actor) =>
      store.editDatasetRows(id, version, { append: [row] }, actor),
    ),
  },
  deleteDataset: {
    delete: versioned("content.write", "spareDataset", (store, id, version, actor) =>
      store.deleteDataset(id, version, actor),
    ),
  },
  createDatasetToken: {
    create: {
      permission: "content.write",
      acts: "edit",
      run: (store, f, actor) =>
        store.createDatasetToken(
          { datasetId: f.dataset, name: unique("Job"), scope: "replace" },
          actor,
        ),
    },
  },
  listDatasetTokens: {
    list: {
      permission: "content.write",
      acts: "edit",
      read: true,
      run: (store, f, actor) => store.listDatasetTokens(f.dataset, actor),
    },
  },
  revokeDatasetToken: {
    revoke: {
      permission: "content.write",
      acts: "edit",
      run: (store, f, actor) => store.revokeDatasetToken(f.dataset, f.token, actor),
    },
  },
  createSource: {
    create: {
      permission: "sources.manage",
      run: (store, _f, actor) => store.createSource(unreachableSource(), actor),
    },
  },
  updateSource: {
    update: versioned("sources.manage", "source", (store, id, version, actor) =>
      store.updateSource(id, version, { ...unreachableSource(), password: "" }, actor),
    ),
  },
  testSourceConnection: {
    test: {
      permission: "sources.manage",
      remote: true,
      read: true,
      run: (store, _f, actor) => store.testSourceConnection(unreachableSource(), actor),
    },
  },
  listSourceTables: {
    list: {
      permission: "sources.manage",
      remote: true,
      read: true,
      run: (store, f, actor) => store.listSourceTables(f.source, actor),
    },
  },
  createLiveDataset: {
    create: {
      permission: "sources.manage",
      remote: true,
      run: (store, f, actor) =>
        store.createLiveDataset({ sourceId: f.source, schema: "public", table: "t" }, actor),
    },
  },
  deleteSource: {
    delete: versioned("sources.manage", "source", (store, id, version, actor) =>
      store.deleteSource(id, version, actor),
    ),
  },
  createChart: {
    create: {
      permission: "content.write",
      acts: "view",
      run: (store, f, actor) =>
        store.createChart(
          {
            title: unique("Orders"),
            type: "bar",
            datasetId: f.dataset,
            indexColumn: "month",
            seriesColumns: ["orders"],
          },
          actor,
        ),
    },
  },
  updateChart: {
    update: versioned("content.write", "chart", (store, id, version, actor) =>
      store.updateChart(id, version, { title: unique("Retitled") }, actor),
    ),
  },
  restoreChartVersion: {
    restore: versioned("content.write", "chart", (store, id, version, actor) =>
      store.restoreChartVersion(id, version, 1, actor),
    ),
  },
  deleteChart: {
    delete: versioned("content.write", "spareChart", (store, id, version, actor) =>
      store.deleteChart(id, version, actor),
    ),
  },
  createDashboard: {
    create: {
      permission: "content.write",
      run: (store, _f, actor) => {
        const title = unique("Board");
        return store.createDashboard({ title, slug: title.toLowerCase().replace(" ", "-") }, actor);
      },
    },
  },
  updateDashboard: {
    update: versioned("content.write", "dashboard", (store, id, version, actor) =>
      store.updateDashboard(id, version, { title: unique("Retitled") }, actor),
    ),
  },
  addDashboardTile: {
    add: versioned("content.write", "dashboard", (store, id, version, actor) =>
      store.addDashboardTile(id, version, { kind: "text", markdown: "More" }, actor),
    ),
  },
  saveDashboardLayout: {
    save: {
      permission: "content.write",
      acts: "edit",
      run: async (store, f, actor) => {
        const current = await store.getDashboard(f.dashboard);
        return store.saveDashboardLayout(
          f.dashboard,
          current?.version ?? 1,
          (current?.tiles ?? []).map((tile) => ({ tileId: tile.id, ...tile.layout })),
          actor,
        );
      },
    },
  },
  removeDashboardTile: {
    remove: versioned("content.write", "dashboard", (store, id, version, actor, f) =>
      store.removeDashboardTile(id, version, f.textTile, actor),
    ),
  },
  publishDashboard: {
    publish: versioned("content.write", "dashboard", (store, id, version, actor) =>
      store.publishDashboard(id, version, actor),
    ),
  },
  unpublishDashboard: {
    unpublish: versioned("content.write", "dashboard", (store, id, version, actor) =>
      store.unpublishDashboard(id, version, actor),
    ),
  },
  restoreDashboardVersion: {
    restore: versioned("content.write", "dashboard", (store, id, version, actor) =>
      store.restoreDashboardVersion(id, version, 1, actor),
    ),
  },
  createApiToken: {
    create: {
      permission: "content.read",
      run: (store, _f, actor) =>
        store.createApiToken({ name: unique("CLI"), scope: "read", expiresInDays: 30 }, actor),
    },
  },
  listApiTokens: {
    list: {
      permission: "content.read",
      read: true,
      run: (store, _f, actor) => store.listApiTokens(actor),
    },
  },
  revokeApiToken: {
    revoke: {
      permission: "content.read",
      events: 2,
      run: async (store, _f, actor) => {
        const { token } = await store.createApiToken(
          { name: unique("Spare"), scope: "write", expiresInDays: 1 },
          actor,
        );
        return store.revokeApiToken(token.id, actor);
      },
    },
  },
  createReport: {
    create: {
      permission: "content.write",
      acts: "view",
      run: (store, f, actor) => store.createReport(reportOf(f, actor), actor),
    },
  },
  updateReport: {
    update: {
      permission: "content.write",
      acts: "view",
      events: 2,
      run: async (store, f, actor) => {
        const report = await store.createReport(reportOf(f, actor), actor);
        return store.updateReport(report.id, { ...reportOf(f, actor), enabled: false }, actor);
      },
    },
  },
  deleteReport: {
    delete: {
      permission: "content.write",
      acts: "view",
      events: 2,
      run: async (store, f, actor) => {
        const report = await store.createReport(reportOf(f, actor), actor);
        return store.deleteReport(report.id, actor);
      },
    },
  },
  requestReportRun: {
    run: {
      permission: "content.write",
      acts: "view",
      events: 2,
      run: async (store, f, actor) => {
        const report = await store.createReport(reportOf(f, actor), actor);
        return store.requestReportRun(report.id, actor);
      },
    },
  },
  listReports: {
    list: { permission: "content.write", read: true, run: (store, _f, a) => store.listReports(a) },
  },
  getReport: {
    get: {
      permission: "content.write",
      read: true,
      run: (store, _f, a) => store.getReport("r", a),
    },
  },
  createAlert: {
    create: {
      permission: "content.write",
      acts: "view",
      run: (store, f, actor) => store.createAlert(alertOf(f, actor), actor),
    },
  },
  updateAlert: {
    update: {
      permission: "content.write",
      acts: "view",
      events: 2,
      run: async (store, f, actor) => {
        const { alert } = await store.createAlert(alertOf(f, actor), actor);
        return store.updateAlert(alert.id, { ...alertOf(f, actor), enabled: false }, actor);
      },
    },
  },
  deleteAlert: {
    delete: {
      permission: "content.write",
      acts: "view",
      events: 2,
      run: async (store, f, actor) => {
        const { alert } = await store.createAlert(alertOf(f, actor), actor);
        return store.deleteAlert(alert.id, actor);
      },
    },
  },
  snoozeAlert: {
    snooze: {
      permission: "content.write",
      acts: "view",
      events: 2,
      run: async (store, f, actor) => {
        const { alert } = await store.createAlert(alertOf(f, actor), actor);
        return store.snoozeAlert(alert.id, { hours: 2 }, actor);
      },
    },
  },
  listAlerts: {
    list: { permission: "content.write", read: true, run: (store, _f, a) => store.listAlerts(a) },
  },
  getAlert: {
    get: {
      permission: "content.write",
      read: true,
      run: (store, _f, a) => store.getAlert("a", a),
    },
  },
  alertTargetChoices: {
    list: {
      permission: "content.write",
      read: true,
      run: (store, _f, a) => store.alertTargetChoices(a),
    },
  },
  getAllowedMailDomains: {
    get: {
      permission: "content.write",
      read: true,
      run: (store, _f, actor) => store.getAllowedMailDomains(actor),
    },
  },
  setAllowedMailDomains: {
    set: {
      permission: "settings.manage",
      run: (store, _f, actor) => store.setAllowedMailDomains(actor, { domains: ["example.org"] }),
    },
  },
  exportDashboardFile: {
    export: {
      permission: "content.read",
      read: true,
      run: async (store, f, actor) => {
        const slug = (await store.getDashboard(f.dashboard))?.slug ?? "";
        return store.exportDashboardFile(slug, actor);
      },
    },
  },
  importDashboardFile: {
    import: {
      permission: "content.write",
      run: (store, _f, actor) =>
        store.importDashboardFile(
          `format: seed.dashboard/v1\nslug: filed-${++names}\ntitle: Filed\ntiles:\n  - { key: note, kind: text, markdown: Hello }\n`,
          actor,
        ),
    },
  },
  deleteDashboard: {
    delete: versioned("content.write", "dashboard", (store, id, version, actor) =>
      store.deleteDashboard(id, version, actor),
    ),
  },
  runSqlQuestion: {
    run: {
      permission: "sql.run",
      run: (store, _f, actor) => store.runSqlQuestion(actor, { sql: "select 1 as one" }),
    },
  },
  createQuestionDataset: {
    create: {
      permission: "content.write",
      run: (store, _f, actor) =>
        store.createQuestionDataset(actor, {
          name: unique("Question"),
          sql: "select 1 as one",
        }),
    },
  },
  updateQuestionDataset: {
    update: versioned("content.write", "question", (store, id, version, actor) =>
      store.updateQuestionDataset(actor, id, version, { sql: `select ${version} as one` }),
    ),
  },
  sqlQuestionsStatus: {
    read: {
      permission: "sql.run",
      read: true,
      run: (store, _f, actor) => store.sqlQuestionsStatus(actor),
    },
  },
  setTwoFactorRequiredRoles: {
    set: {
      permission: "settings.manage",
      run: (store, _f, actor) => store.setTwoFactorRequiredRoles(actor, { roles: ["admin"] }),
    },
  },
  setPasswordSignInRoles: {
    set: {
      permission: "settings.manage",
      run: (store, _f, actor) => store.setPasswordSignInRoles(actor, { roles: ["editor"] }),
    },
  },
  listGroups: {
    list: { permission: "users.manage", read: true, run: (store, _f, a) => store.listGroups(a) },
  },
  getGroup: {
    get: { permission: "users.manage", read: true, run: (store, _f, a) => store.getGroup(a, "g") },
  },
  createGroup: {
    create: {
      permission: "users.manage",
      run: (store, _f, actor) => store.createGroup(actor, { name: unique("Team") }),
    },
  },
  renameGroup: {
    rename: {
      permission: "users.manage",
      events: 2,
      run: async (store, _f, actor) => {
        const group = await store.createGroup(actor, { name: unique("Team") });
        return store.renameGroup(actor, group.id, { name: unique("Renamed") });
      },
    },
  },
  deleteGroup: {
    delete: {
      permission: "users.manage",
      events: 2,
      run: async (store, _f, actor) => {
        const group = await store.createGroup(actor, { name: unique("Team") });
        return store.deleteGroup(actor, group.id);
      },
    },
  },
  setGroupMembers: {
    set: {
      permission: "users.manage",
      events: 2,
      run: async (store, _f, actor) => {
        const group = await store.createGroup(actor, { name: unique("Team") });
        return store.setGroupMembers(actor, group.id, { userIds: [actor.id] });
      },
    },
  },
  // The account's own groups from its provider's claim: any signed-in role (the sign-on hooks).
  syncSignOnGroups: {
    sync: {
      permission: "content.read",
      run: (store, _f, actor) => store.syncSignOnGroups(actor, [unique("Claimed")]),
    },
  },
  collectionAccess: {
    read: { permission: "content.read", read: true, run: (s, _f, a) => s.collectionAccess(a) },
  },
  listCollections: {
    list: { permission: "content.read", read: true, run: (s, _f, a) => s.listCollections(a) },
  },
  getCollection: {
    get: {
      permission: "content.read",
      read: true,
      run: (store, f, actor) => store.getCollection(actor, f.collection),
    },
  },
  createCollection: {
    create: {
      permission: "collections.manage",
      run: (store, _f, actor) => store.createCollection(actor, { name: unique("Room") }),
    },
  },
  // Changing a collection needs manage there: only an admin has it without a grant.
  updateCollection: {
    update: {
      permission: "collections.manage",
      run: (store, f, actor) =>
        store.updateCollection(actor, f.collection, { name: unique("Team room") }),
    },
  },
  deleteCollection: {
    delete: {
      permission: "collections.manage",
      events: 2,
      run: async (store, _f, actor) => {
        const room = await store.createCollection(actor, { name: unique("Room") });
        return store.deleteCollection(actor, room.id);
      },
    },
  },
  setCollectionGrants: {
    set: {
      permission: "collections.manage",
      run: (store, f, actor) => store.setCollectionGrants(actor, f.collection, { grants: [] }),
    },
  },
  // The editor's group edits the fixture's collection: in and back out, two events.
  moveToCollection: {
    move: {
      permission: "content.write",
      acts: "edit",
      events: 2,
      run: async (store, f, actor) => {
        const chart = { entityType: "chart" as const, id: f.chart };
        await store.moveToCollection(actor, chart, f.collection);
        return store.moveToCollection(actor, chart, null);
      },
    },
  },
  placeOf: {
    read: {
      permission: "content.read",
      read: true,
      run: (store, f, actor) => store.placeOf(actor, { entityType: "chart", id: f.chart }),
    },
  },
  collectionItems: {
    read: {
      permission: "content.read",
      read: true,
      run: (store, f, actor) => store.collectionItems(actor, f.collection),
    },
  },
  listRowLimits: {
    list: {
      permission: "collections.manage",
      read: true,
      run: (store, f, actor) => store.listRowLimits(actor, f.dataset),
    },
  },
  // The account's own attributes from its provider's claim: any signed-in role (the sign-on hooks).
  syncSignOnAttributes: {
    sync: {
      permission: "content.read",
      run: (store, _f, actor) => store.syncSignOnAttributes(actor, { team: [unique("Claimed")] }),
    },
  },
  isRowLimited: {
    read: { permission: "content.read", read: true, run: (s, _f, a) => s.isRowLimited(a) },
  },
  setRowLimit: {
    set: {
      permission: "collections.manage",
      run: (store, f, actor) =>
        store.setRowLimit(actor, {
          datasetId: f.dataset,
          groupId: f.spareGroup,
          conditions: [{ column: "region", op: "eq", value: "East" }],
        }),
    },
  },
  clearRowLimit: {
    clear: {
      permission: "collections.manage",
      events: 2,
      run: async (store, f, actor) => {
        const at = { datasetId: f.dataset, groupId: f.spareGroup };
        await store.setRowLimit(actor, { ...at, conditions: [{ column: "region", op: "empty" }] });
        return store.clearRowLimit(actor, at);
      },
    },
  },
  setSqlQuestionsEnabled: {
    turn: {
      permission: "settings.manage",
      run: (store, _f, actor) => store.setSqlQuestionsEnabled(actor, { enabled: true }),
    },
  },
  recordAuditEvent: {
    "dashboard event": {
      permission: "content.write",
      run: (store, f, actor) =>
        store.recordAuditEvent({
          actor,
          action: "dashboard.sign-embed-link",
          entityType: "dashboard",
          entityId: f.dashboard,
          detail: { kind: "dashboard" },
        }),
    },
    "source event": {
      permission: "sources.manage",
      run: (store, f, actor) =>
        store.recordAuditEvent({
          actor,
          action: "source.update",
          entityType: "source",
          entityId: f.source,
        }),
    },
    "user event": {
      permission: "users.manage",
      run: (store, _f, actor) =>
        store.recordAuditEvent({
          actor,
          action: "user.set-role",
          entityType: "user",
          entityId: "user-viewer",
          detail: { role: "editor" },
        }),
    },
    "own account event": {
      permission: "content.read",
      run: (store, _f, actor) =>
        store.recordAuditEvent({
          actor,
          action: "user.enable-two-factor",
          entityType: "user",
          entityId: actor.id,
        }),
    },
    "own sign-in": {
      permission: "content.read",
      run: (store, _f, actor) =>
        store.recordAuditEvent({
          actor,
          action: "user.sign-in",
          entityType: "user",
          entityId: actor.id,
          detail: { method: "password" },
        }),
    },
    "another account's sign-in": {
      permission: "users.manage",
      run: (store, _f, actor) =>
        store.recordAuditEvent({
          actor,
          action: "user.sign-in",
          entityType: "user",
          entityId: `${actor.id}-other`,
          detail: { method: "password" },
        }),
    },
  },
};

export const cases = Object.entries(operations).flatMap(([method, variants]) =>
  Object.entries(variants).map(([variant, test]) => ({ name: `${method} (${variant})`, ...test })),
);

export async function makeFixture(store: Store): Promise<Fixture> {
  const dataset = await store.createDataset(salesInput(unique("Sales")), admin);
  const spareDataset = await store.createDataset(salesInput(unique("Spare")), admin);
  const chartInput = {
    type: "line" as const,
    datasetId: dataset.id,
    indexColumn: "month",
    seriesColumns: ["revenue"],
  };
  const chart = await store.createChart({ ...chartInput, title: unique("Revenue") }, admin);
  const spareChart = await store.createChart({ ...chartInput, title: unique("Spare") }, admin);
  await store.updateChart(chart.id, 1, { title: unique("Revenue") }, admin);
  const slug = unique("board").replace(" ", "-");
  const dashboard = await store.createDashboard(
    {
      title: slug,
      slug,
      tiles: [
        { kind: "chart", chartId: chart.id },
        { kind: "text", markdown: "Notes" },
      ],
    },
    admin,
  );
  const textTile = dashboard.tiles.find((tile) => tile.kind === "text")?.id ?? "";
  await store.updateDashboard(dashboard.id, 1, { description: "Changed" }, admin);
  const token = await store.createDatasetToken(
    { datasetId: dataset.id, name: unique("Job"), scope: "append" },
    admin,
  );
  const source = await store.createSource(unreachableSource(), admin);
  const question = await store.createQuestionDataset(admin, {
    name: unique("Question"),
    sql: "select 1 as one",
  });
  const team = await store.createGroup(admin, { name: unique("Team") });
  await store.setGroupMembers(admin, team.id, { userIds: ["user-editor", "user-viewer"] });
  const collection = await store.createCollection(admin, { name: unique("Team room") });
  await store.setCollectionGrants(admin, collection.id, {
    grants: [{ groupId: team.id, level: "edit" }],
  });
  const spareGroup = await store.createGroup(admin, { name: unique("Nobody") });
  return {
    collection: collection.id,
    spareGroup: spareGroup.id,
    question: question.id,
    dataset: dataset.id,
    spareDataset: spareDataset.id,
    chart: chart.id,
    spareChart: spareChart.id,
    dashboard: dashboard.id,
    textTile,
    token: token.token.id,
    source: source.id,
  };
}
