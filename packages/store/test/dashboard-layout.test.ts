import { ConflictError, type TileInput, ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import { openStore, type Store, type StoreDialect } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { editor } from "./actors.js";
import {
  createChartAndDataset,
  createOldDatabase,
  createTestDatabase,
  dialects,
  errorOf,
  openTestStore,
  salesInput,
  sumStat,
} from "./helpers.js";

/**
 * A fresh store with a dataset, a chart and a dashboard of two stats and the chart, in that order
 * (their tile ids in `tileIds`).
 */
async function openBoard(dialect: StoreDialect) {
  const store = await openTestStore(dialect, { seedDemo: false });
  const { dataset, chart } = await createChartAndDataset(store);
  const stat = (label: string): TileInput => sumStat(dataset.id, "revenue", label);
  const dashboard = await store.createDashboard(
    {
      title: "Board",
      slug: "board",
      tiles: [stat("Total"), stat("Again"), { kind: "chart", chartId: chart.id }],
    },
    editor,
  );
  const tileIds = dashboard.tiles.map((tile) => tile.id) as [string, string, string];
  return { store, dataset, chart, dashboard, tileIds };
}

async function auditCount(store: Store): Promise<number> {
  const row = await internalsOf(store)
    .db.selectFrom("audit_events")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A database as the store before 0006 left it, with one dashboard of tiles in `kinds` order. */
async function createPreLayoutDatabase(
  dialect: StoreDialect,
  options: { databaseUrl?: string | null; dataDir?: string },
  kinds: readonly ("chart" | "stat")[],
) {
  await createOldDatabase(dialect, options, "0006", async (db) => {
    const at = "2025-01-01T00:00:00.000Z";
    await db
      .insertInto("dashboards")
      .values({
        id: "old",
        title: "Old",
        slug: "old",
        description: "",
        status: "draft",
        version: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db
      .insertInto("dashboard_tiles")
      .values(
        kinds.map((kind, position) => ({
          id: `tile-${position}`,
          dashboard_id: "old",
          position,
          kind,
          config_json: kind === "stat" ? '{"label":"L","column":"c","aggregation":"sum"}' : "{}",
        })),
      )
      .execute();
  });
}

describe.each(dialects)("dashboard layout on %s", (dialect) => {
  it("gives existing tiles a flowing layout in their order when migrating", async () => {
    const database = await createTestDatabase(dialect);
    await createPreLayoutDatabase(dialect, database.options, [
      "stat",
      "stat",
      "stat",
      "stat",
      "chart",
      "stat",
      "chart",
      "chart",
    ]);

    const store = await openStore(database.options);
    database.openStores.push(store);
    const dashboard = await store.getDashboard("old");

    expect(dashboard?.tiles.map((tile) => [tile.id, tile.layout])).toEqual([
      ["tile-0", { x: 0, y: 0, w: 3, h: 2 }],
      ["tile-1", { x: 3, y: 0, w: 3, h: 2 }],
      ["tile-2", { x: 6, y: 0, w: 3, h: 2 }],
      ["tile-3", { x: 9, y: 0, w: 3, h: 2 }],
      ["tile-4", { x: 0, y: 2, w: 6, h: 4 }],
      ["tile-5", { x: 6, y: 2, w: 3, h: 2 }],
      ["tile-6", { x: 0, y: 6, w: 6, h: 4 }],
      ["tile-7", { x: 6, y: 6, w: 6, h: 4 }],
    ]);
  });

  it("flows new dashboards' tiles left to right at their default sizes", async () => {
    const { dashboard } = await openBoard(dialect);

    expect(dashboard.tiles.map((tile) => [tile.kind, tile.layout])).toEqual([
      ["stat", { x: 0, y: 0, w: 3, h: 2 }],
      ["stat", { x: 3, y: 0, w: 3, h: 2 }],
      ["chart", { x: 6, y: 0, w: 6, h: 4 }],
    ]);
  });

  it("saves a whole arrangement as one version and one audit event, in reading order", async () => {
    const { store, dashboard, tileIds } = await openBoard(dialect);
    const [total, again, chart] = tileIds;
    const eventsBefore = await auditCount(store);

    const saved = await store.saveDashboardLayout(
      dashboard.id,
      1,
      [
        { tileId: chart, x: 0, y: 0, w: 12, h: 5 },
        { tileId: total, x: 6, y: 5, w: 6, h: 2 },
        { tileId: again, x: 0, y: 5, w: 6, h: 2 },
      ],
      editor,
    );

    expect(saved.version).toBe(2);
    expect(saved.tiles.map((tile) => [tile.id, tile.position, tile.layout])).toEqual([
      [chart, 0, { x: 0, y: 0, w: 12, h: 5 }],
      [again, 1, { x: 0, y: 5, w: 6, h: 2 }],
      [total, 2, { x: 6, y: 5, w: 6, h: 2 }],
    ]);
    expect(await auditCount(store)).toBe(eventsBefore + 1);
    const { events } = await store.listAuditEvents({ action: "dashboard.update", limit: 1 });
    expect(events[0]?.detail).toMatchObject({ changed: ["layout"], tilesChanged: 3 });
    expect(await store.getDashboard(dashboard.id)).toEqual(saved);
    // The stat keeps its settings through the layout write.
    expect(saved.tiles[2]).toMatchObject({ kind: "stat", label: "Total", column: "revenue" });
  });

  it("refuses a layout saved against a stale version, writing nothing", async () => {
    const { store, dashboard } = await openBoard(dialect);
    await store.updateDashboard(dashboard.id, 1, { title: "Renamed" }, editor);
    const eventsBefore = await auditCount(store);

    const error = await errorOf(
      store.saveDashboardLayout(
        dashboard.id,
        1,
        dashboard.tiles.map((tile) => ({ tileId: tile.id, ...tile.layout, y: tile.layout.y + 1 })),
        editor,
      ),
    );

    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ expectedVersion: 1, currentVersion: 2 });
    const after = await store.getDashboard(dashboard.id);
    expect(after?.version).toBe(2);
    expect(after?.tiles.map((tile) => tile.layout)).toEqual(
      dashboard.tiles.map((tile) => tile.layout),
    );
    expect(await auditCount(store)).toBe(eventsBefore);
  });

  it("refuses overlaps, tiles off the grid and sizes out of bounds with field errors", async () => {
    const { store, dashboard, tileIds } = await openBoard(dialect);
    const [total, again, chart] = tileIds;
    const eventsBefore = await auditCount(store);
    const attempt = async (
      layout: { tileId: string; x: number; y: number; w: number; h: number }[],
    ) => {
      const error = await errorOf(store.saveDashboardLayout(dashboard.id, 1, layout, editor));
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).fieldErrors;
    };
    const fine = { tileId: chart, x: 6, y: 0, w: 6, h: 4 };

    expect(
      await attempt([
        { tileId: total, x: 0, y: 0, w: 3, h: 2 },
        { tileId: again, x: 2, y: 1, w: 3, h: 2 },
        fine,
      ]),
    ).toEqual({ "layout.1.layout": ["This tile overlaps tile 1; move or resize one of them."] });
    expect(
      await attempt([
        { tileId: total, x: 10, y: 0, w: 3, h: 2 },
        { tileId: again, x: 0, y: -1, w: 3, h: 2 },
        { tileId: chart, x: 0, y: 94, w: 6, h: 4 },
      ]),
    ).toEqual({
      "layout.0.x": ["The tile reaches past column 12."],
      "layout.1.y": ["The row must be a whole number from 1."],
      "layout.2.y": ["The tile reaches past row 96."],
    });
    expect(
      await attempt([
        { tileId: total, x: 0, y: 0, w: 1, h: 2 },
        { tileId: again, x: 3, y: 0, w: 3, h: 9 },
        { tileId: chart, x: 6, y: 0, w: 2, h: 2 },
      ]),
    ).toEqual({
      "layout.0.w": ["The width must be 2 to 12 columns."],
      "layout.1.h": ["The height must be 2 to 8 rows."],
      "layout.2.w": ["The width must be 3 to 12 columns."],
      "layout.2.h": ["The height must be 3 to 8 rows."],
    });
    expect(await attempt([{ tileId: total, x: 0, y: 0, w: 3.5, h: 2 }, fine, fine])).toEqual({
      "layout.0.w": ["The width must be a whole number."],
    });
    expect(await attempt([{ tileId: total, x: 0, y: 0, w: 3, h: 2 }, fine])).toEqual({
      layout: ["Place every tile of the dashboard exactly once."],
    });

    const after = await store.getDashboard(dashboard.id);
    expect(after?.version).toBe(1);
    expect(after?.tiles).toEqual(dashboard.tiles);
    expect(await auditCount(store)).toBe(eventsBefore);
  });
});

describe.each(dialects)("text tiles on %s", (dialect) => {
  it("keeps Markdown as written and renders it as a tile of the dashboard", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const markdown = "## Notes\n\nSee [the report](https://example.com/r) or <b>bold</b>.";

    const dashboard = await store.createDashboard(
      { title: "Notes", slug: "notes", published: true, tiles: [{ kind: "text", markdown }] },
      editor,
    );
    const rendered = await store.getDashboardBySlug("notes");

    expect(dashboard.tiles).toEqual([
      {
        kind: "text",
        id: expect.any(String),
        key: null,
        position: 0,
        layout: { x: 0, y: 0, w: 6, h: 2 },
        markdown,
      },
    ]);
    expect(rendered?.tiles).toEqual(dashboard.tiles);
  });

  it("refuses unsafe link targets and over-long text with a field error, writing nothing", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dashboard = await store.createDashboard({ title: "Notes", slug: "notes" }, editor);
    const refusals: string[] = [
      "[click](javascript:alert(1))",
      "[click](JaVaScRiPt:alert(1))",
      "[click](&#106;avascript:alert(1))",
      "[click]( <javascript:alert(1)> )",
      "![pixel](data:image/svg+xml;base64,PHN2Zz4=)",
      "[click][1]\n\n[1]: vbscript:msgbox(1)",
      "<javascript:alert(1)>",
      "x".repeat(2_001),
      "   ",
    ];

    for (const markdown of refusals) {
      const error = await errorOf(
        store.addDashboardTile(dashboard.id, 1, { kind: "text", markdown }, editor),
      );
      expect(error, markdown).toBeInstanceOf(ValidationError);
      expect(Object.keys((error as ValidationError).fieldErrors), markdown).toEqual([
        "tiles.0.markdown",
      ]);
    }

    const safe = await store.addDashboardTile(
      dashboard.id,
      1,
      {
        kind: "text",
        markdown:
          "[a](https://a.example) [b](http://b.example) [c](mailto:c@example.com) [d](/d/x)",
      },
      editor,
    );
    expect(safe.version).toBe(2);
  });
});

describe.each(dialects)("stat thresholds on %s", (dialect) => {
  it("names and tones the value by the nearest rule it meets", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    // Revenue sums to 370.
    const stat = (label: string, thresholds: unknown) => ({
      ...sumStat(dataset.id, "revenue", label),
      thresholds: thresholds as never,
    });
    await store.createDashboard(
      {
        title: "Targets",
        slug: "targets",
        published: true,
        tiles: [
          stat("Short", [
            { when: "below", value: 400, tone: "bad" },
            { when: "at_or_above", value: 400, tone: "good" },
          ]),
          stat("Met", [
            { when: "below", value: 300, tone: "bad" },
            { when: "at_or_above", value: 300, tone: "good", label: "on target" },
          ]),
          stat("Nearest", [
            { when: "below", value: 1000, tone: "warning" },
            { when: "below", value: 380, tone: "bad", label: "far below" },
          ]),
          stat("None", []),
        ],
      },
      editor,
    );

    const rendered = await store.getDashboardBySlug("targets");

    expect(
      rendered?.tiles.map((tile) => (tile.kind === "stat" ? [tile.label, tile.status] : null)),
    ).toEqual([
      ["Short", { tone: "bad", label: "below target" }],
      ["Met", { tone: "good", label: "on target" }],
      ["Nearest", { tone: "bad", label: "far below" }],
      ["None", null],
    ]);
  });

  it("refuses malformed rules with field errors on the rule's field", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const dashboard = await store.createDashboard({ title: "T", slug: "t" }, editor);
    const attempt = async (thresholds: unknown) => {
      const error = await errorOf(
        store.addDashboardTile(
          dashboard.id,
          1,
          { ...sumStat(dataset.id), thresholds: thresholds as never },
          editor,
        ),
      );
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).fieldErrors;
    };

    expect(await attempt([{ when: "below", value: Number.NaN, tone: "bad" }])).toEqual({
      "tiles.0.thresholds.0.value": ["Enter the target as a number."],
    });
    expect(await attempt([{ when: "under", value: 1, tone: "red" }])).toEqual({
      "tiles.0.thresholds.0.when": ["Choose below or at or above."],
      "tiles.0.thresholds.0.tone": ["Choose good, warning or bad."],
    });
    expect(
      await attempt([
        { when: "below", value: 5, tone: "bad" },
        { when: "below", value: 5, tone: "warning" },
      ]),
    ).toEqual({ "tiles.0.thresholds.1.value": ["Another rule already applies at this value."] });
    expect(
      await attempt([{ when: "below", value: 5, tone: "bad", label: "x".repeat(41) }]),
    ).toEqual({ "tiles.0.thresholds.0.label": ["Keep the rule label under 41 characters."] });
    expect(
      await attempt([1, 2, 3, 4, 5].map((value) => ({ when: "below", value, tone: "bad" }))),
    ).toEqual({ "tiles.0.thresholds": ["At most 4 threshold rules."] });
    expect((await store.getDashboard(dashboard.id))?.version).toBe(1);
  });
});
