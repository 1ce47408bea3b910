import { randomBytes } from "node:crypto";
import path from "node:path";
import type { ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import { openStore } from "../src/index.js";
import { sourceConnectFailed } from "../src/repo/sources/connections.js";
import { admin, editor } from "./actors.js";
import { columnsOf, dialects, errorOf, openTestStore, sumStat } from "./helpers.js";
import { key, messageOf, useLiveSource } from "./live-source.js";

const live = useLiveSource();
const { sourceInput, storeWithSource } = live;

describe("live source connections", () => {
  it("tests a connection: ok with the server version, one sentence for a wrong password or an unreachable host", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false, sourcesKey: key });
    const ok = await store.testSourceConnection(sourceInput(), admin);
    expect(ok).toMatchObject({ ok: true, warnings: [] });
    expect(ok.ok && ok.serverVersion).toMatch(/^\d+/);

    const wrong = await store.testSourceConnection(sourceInput({ password: "not-it" }), admin);
    expect(wrong).toMatchObject({ ok: false, reason: sourceConnectFailed });
    expect(!wrong.ok && wrong.detail).toMatchObject({ stage: "connect", code: "28P01" });
    const unreachable = await store.testSourceConnection(sourceInput({ port: 1 }), admin);
    expect(unreachable).toMatchObject({ ok: false, reason: sourceConnectFailed });
    expect(!unreachable.ok && unreachable.detail).toMatchObject({
      stage: "connect",
      code: "ECONNREFUSED",
    });
    expect(JSON.stringify([wrong, unreachable])).not.toContain(live.remote.password);

    live.remote.exec(`grant insert on readings to ${live.remote.user}`);
    try {
      const writer = await store.testSourceConnection(sourceInput(), admin);
      expect(writer.ok && writer.warnings).toEqual([
        "This user can write to 1 table: use a read-only role instead.",
      ]);
    } finally {
      live.remote.exec(`revoke insert on readings from ${live.remote.user}`);
    }
    const superuser = await store.testSourceConnection(sourceInput({ user: "postgres" }), admin);
    expect(superuser.ok && superuser.warnings).toEqual([
      "This user is a superuser: use a read-only role instead.",
    ]);
  });

  it("lists the tables and views the user may read and adds one as a live, read-only dataset", async () => {
    const { store, source } = await storeWithSource("postgres");
    const tables = await store.listSourceTables(source.id, admin);
    expect(tables).toEqual([
      { schema: "public", name: "readings", kind: "table" },
      { schema: "public", name: "revenue_by_region", kind: "view" },
      { schema: "public", name: "sales", kind: "table" },
      { schema: "public", name: "slow_sales", kind: "view" },
    ]);
    const { id, note } = await store.createLiveDataset(
      { sourceId: source.id, schema: "public", table: "sales" },
      admin,
    );
    expect(note).toBe("Columns left out (unsupported type): tags (ARRAY), payload (jsonb).");
    const dataset = await store.getDataset(id);
    expect(dataset).toMatchObject({
      name: "sales",
      rows: [],
      live: { sourceId: source.id, schema: "public", table: "sales", note },
      columns: columnsOf({
        month: "date",
        region: "string",
        revenue: "number",
        orders: "number",
        at: "timestamp",
      }),
    });
    const missing = await errorOf(
      store.createLiveDataset({ sourceId: source.id, schema: "public", table: "secrets" }, admin),
    );
    expect((missing as ValidationError).fieldErrors.table?.[0]).toContain("public.secrets");

    const readOnly = "This dataset is live: its rows stay in its source database";
    expect(messageOf(await errorOf(store.replaceDatasetRows(id, 1, [], editor)))).toContain(
      readOnly,
    );
    expect(
      messageOf(await errorOf(store.editDatasetRows(id, 1, { append: [{ region: "X" }] }, editor))),
    ).toContain(readOnly);
    expect(
      messageOf(
        await errorOf(
          store.createDatasetToken({ datasetId: id, name: "Feed", scope: "append" }, editor),
        ),
      ),
    ).toContain(readOnly);
    expect(
      messageOf(
        await errorOf(
          store.importIntoDataset(
            {
              datasetId: id,
              expectedVersion: 1,
              mode: "append",
              stream: (async function* () {
                yield Buffer.from("month,region,revenue,orders,at\n");
              })(),
            } as never,
            editor,
          ),
        ),
      ),
    ).toContain(readOnly);
    expect(await store.listDatasetRows(id, { limit: 10, offset: 0 } as never)).toEqual({
      rows: [],
      total: 0,
    });
    // A rename is fine (only the rows are out of reach), and the dataset still reads its source.
    await store.updateDataset(id, 1, { name: "Remote sales" }, editor);
    const afterRename = await store.runChartQuery(id, {
      x: { column: "region" },
      measures: [{ column: "orders", aggregate: "sum" }],
      filters: [],
    });
    expect(afterRename.rows).toEqual([
      { x: "North", m0: 9 },
      { x: "South", m0: 6 },
    ]);
  });

  it.each(dialects)(
    "charts over a live table query it where it lives, with bound parameters (app database on %s)",
    async (dialect) => {
      const { store, source } = await storeWithSource(dialect);
      const { id } = await store.createLiveDataset(
        { sourceId: source.id, schema: "public", table: "sales" },
        admin,
      );
      const byRegion = {
        x: { column: "region" },
        measures: [{ column: "revenue", aggregate: "sum" as const }],
        filters: [],
      };
      const result = await store.runChartQuery(id, byRegion);
      expect(result.rows).toEqual([
        { x: "North", m0: 220 },
        { x: "South", m0: 150 },
      ]);
      const hostile = await store.runChartQuery(id, {
        ...byRegion,
        filters: [{ column: "region", op: "eq", value: "North'; drop table sales; --" }],
      });
      expect(hostile.rows).toEqual([]);
      const monthly = await store.runChartQuery(id, {
        x: { column: "at", grain: "month" },
        measures: [{ column: null, aggregate: "count" }],
        filters: [{ column: "month", op: "gte", value: "2025-02-01" }],
      });
      expect(monthly.rows).toEqual([
        { x: "2025-02-01", m0: 1 },
        { x: "2025-03-01", m0: 1 },
      ]);
      const raw = await store.runChartQuery(id, {
        x: { column: "month" },
        measures: [{ column: "revenue", aggregate: "none" }],
        filters: [],
      });
      expect(raw.rows.map((row) => row.m0)).toEqual([100, 150, 120]);

      // A published dashboard renders from the source, and shows remote changes on its next render.
      const chart = await store.createChart(
        { title: "By region", type: "bar", datasetId: id, query: byRegion },
        editor,
      );
      const dashboard = await store.createDashboard(
        {
          title: "Live",
          slug: "live",
          tiles: [{ kind: "chart", chartId: chart.id }, sumStat(id, "orders", "Orders")],
        },
        editor,
      );
      await store.publishDashboard(dashboard.id, dashboard.version, editor);
      const rendered = await store.getDashboardBySlug("live");
      expect(rendered?.liveCacheSeconds).toBe(60);
      expect(rendered?.tiles.map((tile) => ("value" in tile ? tile.value : tile.kind))).toEqual([
        "chart",
        15,
      ]);
      live.remote.exec("update sales set orders = orders + 100 where region = 'South'");
      try {
        const again = await store.getDashboardBySlug("live");
        expect(again?.tiles[1] && "value" in again.tiles[1] ? again.tiles[1].value : null).toBe(
          115,
        );
        expect((await store.getChartEmbed(chart.id))?.liveCacheSeconds).toBe(60);
      } finally {
        live.remote.exec("update sales set orders = orders - 100 where region = 'South'");
      }
    },
  );

  it("applies dashboard filters to live tiles and offers the live column's values", async () => {
    const { store, source } = await storeWithSource("sqlite");
    const { id } = await store.createLiveDataset(
      { sourceId: source.id, schema: "public", table: "sales" },
      admin,
    );
    const chart = await store.createChart(
      {
        title: "By month",
        type: "bar",
        datasetId: id,
        query: {
          x: { column: "region" },
          measures: [{ column: "revenue", aggregate: "sum" }],
          filters: [],
        },
      },
      editor,
    );
    const board = await store.createDashboard(
      {
        title: "Live filtered",
        slug: "live-filtered",
        tiles: [{ kind: "chart", chartId: chart.id }, sumStat(id, "orders", "Orders")],
        filters: { dateColumn: null, categories: ["region"] },
      },
      editor,
    );
    const rendered = await store.getDashboardBySlug(board.slug, {
      includeDrafts: true,
      filterQuery: "region=South",
    });
    expect(rendered?.filterBar.categories).toEqual([
      { column: "region", param: "region", values: ["North", "South"] },
    ]);
    const [chartTile, statTile] = rendered?.tiles ?? [];
    expect(chartTile && "result" in chartTile ? chartTile.result?.rows : null).toEqual([
      { x: "South", m0: 150 },
    ]);
    expect(statTile && "value" in statTile ? statTile.value : null).toBe(6);
    expect(statTile && "notFilteredBy" in statTile ? statTile.notFilteredBy : null).toEqual([]);
  });

  it("stops a slow query at the source's statement timeout; the rest of the page still renders", async () => {
    const { store, source } = await storeWithSource("sqlite", { statementTimeoutMs: 300 });
    const slow = await store.createLiveDataset(
      { sourceId: source.id, schema: "public", table: "slow_sales" },
      admin,
    );
    const fast = await store.createLiveDataset(
      { sourceId: source.id, schema: "public", table: "sales" },
      admin,
    );
    const started = performance.now();
    const error = await errorOf(
      store.runChartQuery(slow.id, {
        x: { column: "region" },
        measures: [{ column: null, aggregate: "count" }],
        filters: [],
      }),
    );
    expect(performance.now() - started).toBeLessThan(1_900);
    expect(messageOf(error)).toContain(
      "The live source did not answer within its statement timeout (300 ms).",
    );
    const stat = (datasetId: string) => ({
      kind: "stat" as const,
      label: "Orders",
      datasetId,
      column: "orders",
      aggregation: "sum" as const,
    });
    const dashboard = await store.createDashboard(
      { title: "Slow", slug: "slow", tiles: [stat(slow.id), stat(fast.id)] },
      editor,
    );
    const rendered = await store.getDashboardBySlug(dashboard.slug, { includeDrafts: true });
    expect(rendered?.tiles.map((tile) => ("error" in tile ? tile.error : null))).toEqual([
      "The live source did not answer within its statement timeout (300 ms).",
      null,
    ]);
  });

  it("returns at most the row cap of a raw series, with a note", async () => {
    const { store, source } = await storeWithSource("sqlite", { rowCap: 100 });
    const { id } = await store.createLiveDataset(
      { sourceId: source.id, schema: "public", table: "readings" },
      admin,
    );
    const result = await store.runChartQuery(id, {
      x: { column: "n" },
      measures: [{ column: "value", aggregate: "none" }],
      filters: [],
    });
    expect(result.rows).toHaveLength(100);
    expect(result.rows.at(-1)).toEqual({ x: 100, m0: 200 });
    expect(result.notes).toContain(
      "Showing the first 100 of 250 rows: this live source returns at most 100 rows per query (its row cap). Filter or choose an aggregate to see all.",
    );
    const total = await store.runChartQuery(id, {
      x: { column: "n", grain: undefined },
      measures: [{ column: "value", aggregate: "sum" }],
      filters: [{ column: "n", op: "gt", value: 240 }],
    });
    expect(total.rows).toHaveLength(10);
  });

  it("cannot read a source with another key: a clear error, no password anywhere", async () => {
    const database = await openTestStore("sqlite", { seedDemo: false, sourcesKey: key });
    const source = await database.createSource(sourceInput(), admin);
    const { id } = await database.createLiveDataset(
      { sourceId: source.id, schema: "public", table: "sales" },
      admin,
    );
    const otherKey = randomBytes(32).toString("hex");
    // The same file opened with another key: listing works, reading the source does not.
    const other = await openStore({
      databaseUrl: null,
      dataDir: path.dirname(database.sqliteFile ?? ""),
      seedDemo: false,
      sourcesKey: otherKey,
    });
    try {
      expect(await other.listSources()).toHaveLength(1);
      const error = await errorOf(
        other.runChartQuery(id, {
          x: { column: "region" },
          measures: [{ column: null, aggregate: "count" }],
          filters: [],
        }),
      );
      expect(messageOf(error)).toContain("SEED_SOURCES_KEY is not the key it was saved with");
      expect(messageOf(error)).not.toContain(live.remote.password);
    } finally {
      await other.close();
    }
  });
});
