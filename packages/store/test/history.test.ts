import { ConflictError, ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import { editor, otherEditor } from "./actors.js";
import { createChartAndDataset, dialects, errorOf, openTestStore } from "./helpers.js";

describe.each(dialects)("chart and dashboard history on %s", (dialect) => {
  it("keeps every chart version with who and when, compares two and restores one as a new version", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { chart } = await createChartAndDataset(store);
    const renamed = await store.updateChart(chart.id, 1, { title: "Net revenue" }, otherEditor);
    await store.updateChart(chart.id, renamed.version, { type: "bar" }, editor);

    const versions = await store.listVersions("chart", chart.id);
    expect(versions.map((entry) => [entry.version, entry.action, entry.actor.email])).toEqual([
      [3, "chart.update", editor.email],
      [2, "chart.update", otherEditor.email],
      [1, "chart.create", editor.email],
    ]);
    expect(await store.compareVersions("chart", chart.id, 1, 3)).toEqual([
      { path: "title", label: "Title", before: "Revenue", after: "Net revenue" },
      { path: "type", label: "Chart type", before: "line", after: "bar" },
    ]);
    expect(await store.compareVersions("chart", chart.id, 1, 99)).toBeNull();

    const restored = await store.restoreChartVersion(chart.id, 3, 1, otherEditor);
    expect(restored).toMatchObject({ version: 4, title: "Revenue", type: "line" });
    const [latest] = await store.listVersions("chart", chart.id);
    expect(latest).toMatchObject({ version: 4, action: "chart.restore", restoredFrom: 1 });
    expect(await store.compareVersions("chart", chart.id, 1, 4)).toEqual([]);
    const audit = await store.listAuditEvents({ action: "chart.restore" });
    expect(audit.events[0]).toMatchObject({ entityId: chart.id, detail: { restoredFrom: 1 } });

    // A stale restore is a conflict, and an unknown version a field error; neither writes.
    expect(await errorOf(store.restoreChartVersion(chart.id, 3, 2, editor))).toBeInstanceOf(
      ConflictError,
    );
    expect(await errorOf(store.restoreChartVersion(chart.id, 4, 42, editor))).toBeInstanceOf(
      ValidationError,
    );
    expect(await store.listVersions("chart", chart.id)).toHaveLength(4);
  });

  it("keeps dashboard versions with their tiles; a restore brings back fields and tiles, not the publish state", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { chart } = await createChartAndDataset(store);
    const board = await store.createDashboard(
      { title: "Board", slug: "board", tiles: [{ kind: "chart", chartId: chart.id }] },
      editor,
    );
    const withText = await store.addDashboardTile(
      board.id,
      1,
      { kind: "text", markdown: "## Notes" },
      editor,
    );
    const renamed = await store.updateDashboard(
      board.id,
      withText.version,
      { title: "Sales board" },
      editor,
    );
    const published = await store.publishDashboard(board.id, renamed.version, editor);

    const changes = await store.compareVersions("dashboard", board.id, 1, published.version);
    expect(changes?.map((change) => change.path)).toEqual([
      "title",
      "status",
      `tiles.${withText.tiles[1]?.id}`,
    ]);
    expect(changes?.find((change) => change.path.startsWith("tiles."))).toMatchObject({
      before: null,
      after: expect.stringContaining("## Notes"),
    });

    const restored = await store.restoreDashboardVersion(board.id, published.version, 1, editor);
    expect(restored.title).toBe("Board");
    expect(restored.tiles.map((tile) => tile.kind)).toEqual(["chart"]);
    expect(restored.status).toBe("published");
    const [latest] = await store.listVersions("dashboard", board.id);
    expect(latest).toMatchObject({ action: "dashboard.restore", restoredFrom: 1 });

    // A version whose chart is gone is refused and nothing changes.
    const bare = await store.removeDashboardTile(
      board.id,
      restored.version,
      restored.tiles[0]?.id ?? "",
      editor,
    );
    const current = await store.getChart(chart.id);
    await store.deleteChart(chart.id, current?.version ?? 0, editor);
    const refused = await errorOf(store.restoreDashboardVersion(board.id, bare.version, 1, editor));
    expect(refused).toBeInstanceOf(ValidationError);
    expect((await store.getDashboard(board.id))?.version).toBe(bare.version);
  });
});
