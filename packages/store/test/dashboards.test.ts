import { ConflictError, ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import { internalsOf } from "../src/raw-handles.js";
import { editor, otherEditor } from "./actors.js";
import { createChartAndDataset, engines, errorOf, openTestStore, sumStat } from "./helpers.js";

describe.each(engines)("dashboards on %s", (dialect) => {
  it("lists each dashboard's last update: its own, its charts' or the data they draw", async () => {
    let now = Date.parse("2026-03-01T10:00:00.000Z");
    const store = await openTestStore(dialect, {
      seedDemo: false,
      now: () => new Date(now),
    });
    const { dataset, chart } = await createChartAndDataset(store);
    now += 60_000;
    const dashboard = await store.createDashboard(
      { title: "Recent", slug: "recent", tiles: [{ kind: "chart", chartId: chart.id }] },
      editor,
    );
    const lastUpdate = async () =>
      (await store.listDashboards()).find((entry) => entry.id === dashboard.id)?.lastUpdatedAt;
    expect(await lastUpdate()).toBe("2026-03-01T10:01:00.000Z");
    now += 60_000;
    await store.updateChart(chart.id, chart.version, { title: "Revenue (net)" }, editor);
    expect(await lastUpdate()).toBe("2026-03-01T10:02:00.000Z");
    now += 60_000;
    await store.replaceDatasetRows(
      dataset.id,
      dataset.version,
      [{ month: "2026-01-01", revenue: 5 }],
      editor,
    );
    expect(await lastUpdate()).toBe("2026-03-01T10:03:00.000Z");
  });

  it("keeps an IANA time zone and refuses unknown ones with a field error", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const created = await store.createDashboard(
      { title: "Paris", slug: "paris", timeZone: "Europe/Paris" },
      editor,
    );
    expect(created.timeZone).toBe("Europe/Paris");
    for (const timeZone of ["Mars/Olympus", "Europe/Paris'; drop table x", "x".repeat(65)]) {
      const error = await errorOf(
        store.createDashboard({ title: "Bad", slug: `bad-${timeZone.length}`, timeZone }, editor),
      );
      expect((error as { fieldErrors?: Record<string, string[]> }).fieldErrors?.timeZone).toEqual([
        "Choose a time zone such as UTC or Europe/Paris.",
      ]);
    }
    const updated = await store.updateDashboard(created.id, 1, { timeZone: null }, editor);
    expect(updated.timeZone).toBeNull();
  });

  it("creates a draft with ordered chart and stat tiles", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { dataset, chart } = await createChartAndDataset(store);

    const dashboard = await store.createDashboard(
      {
        title: "Sales",
        slug: "sales",
        icon: "crown",
        tiles: [
          {
            ...sumStat(dataset.id),
            icon: "crown",
          },
          { kind: "chart", chartId: chart.id },
        ],
      },
      editor,
    );

    expect(dashboard).toMatchObject({
      status: "draft",
      publishedAt: null,
      version: 1,
      icon: "crown",
    });
    expect(dashboard.tiles.map((tile) => [tile.kind, tile.position])).toEqual([
      ["stat", 0],
      ["chart", 1],
    ]);
    expect(await store.getDashboard(dashboard.id)).toEqual(dashboard);
  });

  it("rolls back the whole dashboard when a tile is invalid", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { dataset, chart } = await createChartAndDataset(store);
    const auditBefore = (await store.getOverviewCounts()).auditEvents;

    const error = await errorOf(
      store.createDashboard(
        {
          title: "Half",
          slug: "half",
          tiles: [
            { kind: "chart", chartId: chart.id },
            { kind: "chart", chartId: "missing-chart" },
            {
              kind: "stat",
              label: "Regions",
              datasetId: dataset.id,
              column: "region",
              aggregation: "sum",
            },
          ],
        },
        editor,
      ),
    );

    expect((error as ValidationError).fieldErrors).toEqual({
      "tiles.1.chartId": ["Choose an existing chart."],
      "tiles.2.column": ['"region" is a string column; sum needs a number column.'],
    });
    expect(await store.listDashboards()).toEqual([]);
    const tileCount = await internalsOf(store)
      .db.selectFrom("dashboard_tiles")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(tileCount.n)).toBe(0);
    expect((await store.getOverviewCounts()).auditEvents).toBe(auditBefore);
  });

  it("rolls back an update whose fields were written before a tile failed", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { chart } = await createChartAndDataset(store);
    const dashboard = await store.createDashboard(
      { title: "Before", slug: "before", tiles: [{ kind: "chart", chartId: chart.id }] },
      editor,
    );

    const error = await errorOf(
      store.updateDashboard(
        dashboard.id,
        1,
        { title: "After", slug: "after", tiles: [{ kind: "chart", chartId: "gone" }] },
        editor,
      ),
    );

    expect((error as ValidationError).fieldErrors).toEqual({
      "tiles.0.chartId": ["Choose an existing chart."],
    });
    expect(await store.getDashboard(dashboard.id)).toEqual(dashboard);
    expect((await store.listAuditEvents({ action: "dashboard.update" })).events).toEqual([]);
  });

  it("records publish and unpublish in the audit log with the actor", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dashboard = await store.createDashboard({ title: "Launch", slug: "launch" }, editor);

    await store.publishDashboard(dashboard.id, 1, editor);
    await store.unpublishDashboard(dashboard.id, 2, otherEditor);
    const { events } = await store.listAuditEvents({ entityType: "dashboard" });

    expect(events.map((event) => [event.action, event.actor.id, event.entityId])).toEqual([
      ["dashboard.unpublish", otherEditor.id, dashboard.id],
      ["dashboard.publish", editor.id, dashboard.id],
      ["dashboard.create", editor.id, dashboard.id],
    ]);
    expect(events[1]?.detail).toEqual({ title: "Launch", slug: "launch" });
  });

  it("gives a field error on slug for a duplicate or malformed slug", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    await store.createDashboard({ title: "One", slug: "team" }, editor);

    const duplicate = await errorOf(store.createDashboard({ title: "Two", slug: "team" }, editor));
    const malformed = await errorOf(
      store.createDashboard({ title: "Three", slug: "Team Space!" }, editor),
    );

    expect((duplicate as ValidationError).fieldErrors).toEqual({
      slug: ['The slug "team" is already used by another dashboard.'],
    });
    expect((malformed as ValidationError).fieldErrors.slug).toEqual([
      "Use lowercase letters, digits and single hyphens, e.g. store-performance.",
    ]);
    expect(await store.listDashboards()).toHaveLength(1);
  });

  it("turns a slug race lost at the unique index into the same field error", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const results = await Promise.allSettled(
      ["A", "B", "C"].map((title) => store.createDashboard({ title, slug: "race" }, editor)),
    );

    const errors = results.flatMap((result) =>
      result.status === "rejected" ? [result.reason] : [],
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fieldErrors.slug).toEqual([
        'The slug "race" is already used by another dashboard.',
      ]);
    }
  });

  it("renames the slug, but not onto another dashboard's", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const first = await store.createDashboard({ title: "One", slug: "one" }, editor);
    await store.createDashboard({ title: "Two", slug: "two" }, editor);

    const renamed = await store.updateDashboard(
      first.id,
      1,
      { slug: "first", title: "First" },
      editor,
    );
    const clash = await errorOf(store.updateDashboard(first.id, 2, { slug: "two" }, editor));
    const same = await store.updateDashboard(
      first.id,
      2,
      { slug: "first", description: "x" },
      editor,
    );

    expect(renamed).toMatchObject({ slug: "first", title: "First", version: 2 });
    expect((clash as ValidationError).fieldErrors.slug).toHaveLength(1);
    expect(same).toMatchObject({ slug: "first", description: "x", version: 3 });
  });

  it("adds a tile at the first free place and removes tiles, each bumping the version", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { dataset, chart } = await createChartAndDataset(store);
    const dashboard = await store.createDashboard(
      { title: "Ops", slug: "ops", tiles: [{ kind: "chart", chartId: chart.id }] },
      editor,
    );

    const added = await store.addDashboardTile(
      dashboard.id,
      1,
      {
        kind: "stat",
        label: "Orders",
        datasetId: dataset.id,
        column: "orders",
        aggregation: "last",
      },
      editor,
    );
    const [chartTile, statTile] = added.tiles;
    const removed = await store.removeDashboardTile(dashboard.id, 2, chartTile?.id ?? "", editor);

    expect(added.tiles.map((tile) => [tile.kind, tile.layout])).toEqual([
      ["chart", { x: 0, y: 0, w: 6, h: 4 }],
      ["stat", { x: 6, y: 0, w: 3, h: 2 }],
    ]);
    expect(chartTile?.id).toBe(dashboard.tiles[0]?.id);
    expect(removed.tiles.map((tile) => tile.id)).toEqual([statTile?.id]);
    expect(removed.version).toBe(3);
  });

  it("rejects an invalid added tile", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { chart } = await createChartAndDataset(store);
    const dashboard = await store.createDashboard(
      { title: "Ops", slug: "ops", tiles: [{ kind: "chart", chartId: chart.id }] },
      editor,
    );

    const badTile = await errorOf(
      store.addDashboardTile(dashboard.id, 1, { kind: "chart", chartId: "" }, editor),
    );

    expect((badTile as ValidationError).fieldErrors).toEqual({
      "tiles.1.chartId": ["Choose a chart."],
    });
    expect((await store.getDashboard(dashboard.id))?.version).toBe(1);
  });

  it("publishes and unpublishes, guarded by the version", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dashboard = await store.createDashboard({ title: "Launch", slug: "launch" }, editor);

    const published = await store.publishDashboard(dashboard.id, 1, editor);
    const listed = await store.listPublishedDashboards();
    const stale = await errorOf(store.unpublishDashboard(dashboard.id, 1, otherEditor));
    const unpublished = await store.unpublishDashboard(dashboard.id, 2, editor);

    expect(published).toMatchObject({ status: "published", version: 2 });
    expect(published.publishedAt).not.toBeNull();
    expect(listed.map((item) => item.slug)).toEqual(["launch"]);
    expect(stale).toBeInstanceOf(ConflictError);
    expect(unpublished).toMatchObject({ status: "draft", publishedAt: null, version: 3 });
    expect(await store.listPublishedDashboards()).toEqual([]);
    expect(await store.getDashboardBySlug("launch")).toBeNull();
  });

  it("renders a chart whose query no longer fits its dataset as a tile error naming the column", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { dataset, chart } = await createChartAndDataset(store, {
      title: "Broken",
      type: "bar",
      indexColumn: "region",
    });
    await store.createDashboard(
      {
        title: "Broken board",
        slug: "broken",
        published: true,
        tiles: [{ kind: "chart", chartId: chart.id }, sumStat(dataset.id)],
      },
      editor,
    );
    // As if a column had gone from under the chart (no store write allows this any more).
    await internalsOf(store)
      .db.updateTable("charts")
      .set({
        query_json: JSON.stringify({
          x: { column: "territory" },
          measures: [{ column: "revenue", aggregate: "sum" }],
        }),
      })
      .where("id", "=", chart.id)
      .execute();
    const rendered = await store.getDashboardBySlug("broken");
    const [chartTile, statTile] = rendered?.tiles ?? [];
    expect(chartTile).toMatchObject({
      kind: "chart",
      result: null,
      error: 'The dataset has no column "territory".',
    });
    // The rest of the dashboard still renders.
    expect(statTile).toMatchObject({ kind: "stat", value: 370, error: null });
  });

  it("renders a dashboard by slug: tiles in order, chart rows, stat values and deltas", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { dataset, chart } = await createChartAndDataset(store);
    await store.createDashboard(
      {
        title: "Sales",
        slug: "sales",
        published: true,
        tiles: [
          { kind: "chart", chartId: chart.id },
          {
            ...sumStat(dataset.id),
            format: { style: "currency", currency: "USD" },
          },
          {
            kind: "stat",
            label: "Latest",
            datasetId: dataset.id,
            column: "revenue",
            aggregation: "last",
          },
          {
            kind: "stat",
            label: "Months",
            datasetId: dataset.id,
            column: "month",
            aggregation: "count",
          },
        ],
      },
      editor,
    );

    const rendered = await store.getDashboardBySlug("sales");

    const [chartTile, sumTile, lastTile, countTile] = rendered?.tiles ?? [];
    expect(chartTile).toMatchObject({ kind: "chart", chart: { id: chart.id } });
    // The page gets the chart's query result, not the dataset.
    expect(chartTile?.kind === "chart" && chartTile.result?.rows).toHaveLength(3);
    expect(chartTile).not.toHaveProperty("dataset");
    expect(sumTile).toMatchObject({
      value: 370,
      delta: null,
      datasetName: "Sales",
      format: { style: "currency", currency: "USD" },
    });
    expect(lastTile).toMatchObject({ value: 120, deltaLabel: "vs previous" });
    expect(lastTile?.kind === "stat" && lastTile.delta).toBeCloseTo(-0.2);
    expect(countTile).toMatchObject({ value: 3 });
  });

  it("deletes a dashboard with its tiles, refusing a stale version", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { chart } = await createChartAndDataset(store);
    const dashboard = await store.createDashboard(
      { title: "Gone", slug: "gone", tiles: [{ kind: "chart", chartId: chart.id }] },
      editor,
    );
    await store.updateDashboard(dashboard.id, 1, { title: "Going" }, editor);

    const stale = await errorOf(store.deleteDashboard(dashboard.id, 1, editor));
    await store.deleteDashboard(dashboard.id, 2, editor);

    expect(stale).toBeInstanceOf(ConflictError);
    expect(await store.getDashboard(dashboard.id)).toBeNull();
    await store.deleteChart(chart.id, 1, editor);
    expect(await store.getChart(chart.id)).toBeNull();
  });

  it("replaces all tiles through updateDashboard, keeping known tile ids", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { dataset, chart } = await createChartAndDataset(store);
    const dashboard = await store.createDashboard(
      { title: "Ops", slug: "ops", tiles: [{ kind: "chart", chartId: chart.id }] },
      editor,
    );
    const chartTileId = dashboard.tiles[0]?.id;

    const updated = await store.updateDashboard(
      dashboard.id,
      1,
      {
        tiles: [
          {
            kind: "stat",
            label: "Orders",
            datasetId: dataset.id,
            column: "orders",
            aggregation: "max",
          },
          { kind: "chart", id: chartTileId, chartId: chart.id },
        ],
      },
      editor,
    );

    expect(updated.tiles.map((tile) => tile.kind)).toEqual(["stat", "chart"]);
    expect(updated.tiles[1]?.id).toBe(chartTileId);
    expect(updated.version).toBe(2);
  });
});
