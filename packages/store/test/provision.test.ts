import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, provisioningActor, type Store } from "../src/index.js";
import { editor } from "./actors.js";
import { createTestDatabase, dialects, errorOf, openTestStore, salesInput } from "./helpers.js";

// Provisioning (issue 30): a folder of dashboard files kept in the database, read-only in the
// app, applied once however often and by however many instances it runs.

const salesFile = (title = "Sales") => `format: seed.dashboard/v1
slug: sales
title: ${title}
published: true
tiles:
  - key: revenue
    kind: chart
    chart:
      title: Revenue by month
      type: line
      dataset: store_sales
      query:
        x: { column: month, grain: month }
        measures: [{ column: revenue, aggregate: sum }]
layout:
  revenue: { x: 0, y: 0, w: 6, h: 4 }
`;
const notesFile = `format: seed.dashboard/v1
slug: notes
title: Notes
tiles:
  - { key: intro, kind: text, markdown: "## Team notes" }
`;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folderWith(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), "seed-dashboards-"));
  folders.push(folder);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  return folder;
}

async function storeWithSales(store: Store): Promise<Store> {
  await store.createDataset(salesInput("Store sales"), editor);
  return store;
}

describe.each(dialects)("provisioning on %s", (dialect) => {
  it("creates each file's dashboard once, read-only in the app, and reports bad files", async () => {
    const store = await storeWithSales(await openTestStore(dialect, { seedDemo: false }));
    const folder = folderWith({
      "sales.yaml": salesFile(),
      "team/notes.yml": notesFile,
      "broken.yaml": "format: seed.dashboard/v1\nslug: [\n",
      ".hidden.yaml": notesFile.replace("slug: notes", "slug: hidden"),
      "readme.txt": "not a dashboard",
    });
    const report = await store.provisionDashboards(folder);
    expect(report.files.map(({ file, outcome, slug }) => [file, outcome, slug])).toEqual([
      ["broken.yaml", "failed", null],
      ["sales.yaml", "created", "sales"],
      ["team/notes.yml", "created", "notes"],
    ]);
    expect(report.files[0]?.problems[0]).toMatch(/^This is not valid YAML: /);
    const dashboards = await store.listDashboards();
    expect(dashboards.map((d) => [d.slug, d.managedFile, d.status, d.version])).toEqual([
      ["notes", "team/notes.yml", "draft", 1],
      ["sales", "sales.yaml", "published", 1],
    ]);

    // In the app, every write to a provisioned dashboard is refused and nothing changes.
    const sales = dashboards.find((d) => d.slug === "sales");
    const refusal = `This dashboard is kept from the file "sales.yaml" in the dashboards folder; change the file instead.`;
    // One write at a time: each is started only when awaited, so none rejects unobserved.
    for (const write of [
      () => store.updateDashboard(sales?.id ?? "", 1, { title: "Mine" }, editor),
      () => store.unpublishDashboard(sales?.id ?? "", 1, editor),
      () => store.deleteDashboard(sales?.id ?? "", 1, editor),
      () => store.importDashboardFile(salesFile("Mine"), editor),
    ]) {
      expect(await errorOf(write())).toMatchObject({ kind: "invalid", formError: refusal });
    }
    expect((await store.getDashboard(sales?.id ?? ""))?.version).toBe(1);
    // Its charts too: they change only through the file.
    const chartTile = (await store.getDashboard(sales?.id ?? ""))?.tiles[0];
    const chartId = chartTile?.kind === "chart" ? chartTile.chartId : "";
    const chartRefusal = `This chart is on the dashboard "Sales", kept from the file "sales.yaml" in the dashboards folder; change the file instead.`;
    for (const write of [
      () => store.updateChart(chartId, 1, { title: "Mine" }, editor),
      () => store.restoreChartVersion(chartId, 1, 1, editor),
    ]) {
      expect(await errorOf(write())).toMatchObject({ kind: "invalid", formError: chartRefusal });
    }
    expect((await store.getChart(chartId))?.version).toBe(1);

    // Run again: nothing written. Change a file: one new version, by provisioning.
    const again = await store.provisionDashboards(folder);
    expect(again.files.map((entry) => entry.outcome)).toEqual(["failed", "unchanged", "unchanged"]);
    writeFileSync(path.join(folder, "sales.yaml"), salesFile("Sales 2025"));
    const changed = await store.provisionDashboards(folder);
    expect(changed.files[1]).toMatchObject({ outcome: "updated", slug: "sales" });
    const updated = await store.getDashboard(sales?.id ?? "");
    expect(updated).toMatchObject({ title: "Sales 2025", version: 2, managedFile: "sales.yaml" });
    // The file changing its chart changes the chart, as provisioning.
    writeFileSync(
      path.join(folder, "sales.yaml"),
      salesFile("Sales 2025").replace("Revenue by month", "Monthly revenue"),
    );
    expect((await store.provisionDashboards(folder)).files[1]).toMatchObject({
      outcome: "updated",
    });
    expect(await store.getChart(chartId)).toMatchObject({ title: "Monthly revenue", version: 2 });
    const events = await store.listAuditEvents({ actorId: provisioningActor.id, limit: 50 });
    expect(events.events.map((event) => event.action).sort()).toEqual([
      "chart.create",
      "chart.update",
      "dashboard.create",
      "dashboard.create",
      "dashboard.update",
      "dashboard.update",
    ]);

    // A file taken away releases its dashboard: kept, and editable again.
    rmSync(path.join(folder, "team/notes.yml"));
    const released = await store.provisionDashboards(folder);
    expect(released.released).toEqual(["notes"]);
    const notes = (await store.listDashboards()).find((d) => d.slug === "notes");
    expect(notes?.managedFile).toBeNull();
    await store.updateDashboard(notes?.id ?? "", notes?.version ?? 0, { title: "Ours" }, editor);
  });

  it("never takes over a dashboard made in the app or another file's slug", async () => {
    const store = await storeWithSales(await openTestStore(dialect, { seedDemo: false }));
    const mine = await store.createDashboard({ title: "Mine", slug: "sales" }, editor);
    const folder = folderWith({
      "a.yaml": salesFile(),
      "b.yaml": notesFile,
      "c.yaml": notesFile.replace("title: Notes", "title: Copy"),
    });
    const report = await store.provisionDashboards(folder);
    expect(report.files.map((entry) => [entry.outcome, entry.problems])).toEqual([
      [
        "failed",
        [
          'A dashboard made in the app already has the slug "sales"; rename or delete it to provision this file.',
        ],
      ],
      ["created", []],
      ["failed", ['The file "b.yaml" already provisions the slug "notes".']],
    ]);
    expect(await store.getDashboard(mine.id)).toMatchObject({
      title: "Mine",
      version: 1,
      managedFile: null,
    });
  });
});

describe("provisioning by several instances", () => {
  it("two stores on one PostgreSQL applying the same folder at once make each dashboard once", async () => {
    const database = await createTestDatabase("postgres");
    const open = async () => {
      const store = await openStore({ ...database.options, seedDemo: false });
      database.openStores.push(store);
      return store;
    };
    const [first, second] = [await storeWithSales(await open()), await open()];
    const folder = folderWith({ "sales.yaml": salesFile(), "notes.yaml": notesFile });
    const reports = await Promise.all([
      first.provisionDashboards(folder),
      second.provisionDashboards(folder),
    ]);
    const outcomes = reports.flatMap((report) => report.files.map((entry) => entry.outcome));
    expect(outcomes.filter((outcome) => outcome === "created")).toHaveLength(2);
    const failures = reports.flatMap((report) =>
      report.files.filter((entry) => entry.problems.length > 0),
    );
    expect(failures).toEqual([]);
    expect((await first.listDashboards()).map((d) => [d.slug, d.version])).toEqual([
      ["notes", 1],
      ["sales", 1],
    ]);
    expect((await first.listCharts()).length).toBe(1);
  });
});
