import { randomBytes } from "node:crypto";
import path from "node:path";
import { InUseError, ValidationError } from "@seed/model";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  createLiveSourceDatabase,
  type LiveSourceDatabase,
} from "../../../scripts/throwaway-live-source.mjs";
import { migrateSqliteToPostgres, openStore, type Store } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { sourceConnectFailed } from "../src/repo/sources/connections.js";
import { admin, editor } from "./actors.js";
import {
  columnsOf,
  createTestDatabase,
  dialects,
  errorOf,
  openTestStore,
  sourceSettings,
} from "./helpers.js";

const key = randomBytes(32).toString("base64");

let remote: LiveSourceDatabase;
beforeAll(() => {
  remote = createLiveSourceDatabase(inject("postgresUrl"));
});
afterAll(() => {
  remote.drop();
});

function sourceInput(overrides: Record<string, unknown> = {}) {
  return {
    name: "Warehouse",
    host: remote.host,
    port: remote.port,
    database: remote.database,
    user: remote.user,
    password: remote.password,
    ...sourceSettings,
    ...overrides,
  };
}

async function storeWithSource(dialect: (typeof dialects)[number], overrides = {}) {
  const store = await openTestStore(dialect, { seedDemo: false, sourcesKey: key });
  const source = await store.createSource(sourceInput(overrides), admin);
  return { store, source };
}

function messageOf(error: unknown): string {
  if (!(error instanceof ValidationError)) throw error;
  return [error.formError ?? "", ...Object.values(error.fieldErrors).flat()].join(" ");
}

async function auditDetails(store: Store): Promise<string> {
  const rows = await internalsOf(store)
    .db.selectFrom("audit_events")
    .select("detail_json")
    .where("entity_type", "=", "source")
    .execute();
  return rows.map((row) => row.detail_json).join("\n");
}

describe.each(dialects)("live sources kept on %s", (dialect) => {
  it("keeps the password only encrypted, never returns or audits it, and keeps it on a blank edit", async () => {
    const { store, source } = await storeWithSource(dialect);
    expect(JSON.stringify(source)).not.toContain(remote.password);
    expect(JSON.stringify(await store.listSources())).not.toContain(remote.password);
    const raw = await internalsOf(store)
      .db.selectFrom("data_sources")
      .select("password_encrypted")
      .executeTakeFirstOrThrow();
    expect(raw.password_encrypted).toMatch(/^v1:/);
    expect(raw.password_encrypted).not.toContain(remote.password);
    expect(Buffer.from(raw.password_encrypted.slice(3), "base64").toString("latin1")).not.toContain(
      remote.password,
    );

    const renamed = await store.updateSource(
      source.id,
      source.version,
      { ...sourceInput({ name: "Warehouse (read)" }), password: "" },
      admin,
    );
    expect(renamed.version).toBe(2);
    const kept = await internalsOf(store)
      .db.selectFrom("data_sources")
      .select("password_encrypted")
      .executeTakeFirstOrThrow();
    expect(kept.password_encrypted).toBe(raw.password_encrypted);
    expect(
      (
        await store.testSourceConnection(
          { ...sourceInput(), password: "", sourceId: source.id },
          admin,
        )
      ).ok,
    ).toBe(true);

    await store.updateSource(source.id, 2, { ...sourceInput(), password: "other" }, admin);
    const changed = await internalsOf(store)
      .db.selectFrom("data_sources")
      .select("password_encrypted")
      .executeTakeFirstOrThrow();
    expect(changed.password_encrypted).not.toBe(raw.password_encrypted);
    const audit = await auditDetails(store);
    expect(audit).toContain("Warehouse (read)");
    expect(audit).not.toContain(remote.password);
    expect(audit).not.toContain('"other"');
  });

  it("refuses bad input field by field and writes nothing", async () => {
    const store = await openTestStore(dialect, { seedDemo: false, sourcesKey: key });
    const error = await errorOf(
      store.createSource(
        sourceInput({
          name: "",
          host: "db host; drop",
          port: 70_000,
          rowCap: 0,
          statementTimeoutMs: 600_000,
          cacheTtlSeconds: 90_000,
          sslMode: "maybe",
          password: "",
          user: "u".repeat(64),
        }),
        admin,
      ),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).fieldErrors).sort()).toEqual([
      "cacheTtlSeconds",
      "host",
      "name",
      "password",
      "port",
      "rowCap",
      "sslMode",
      "statementTimeoutMs",
      "user",
    ]);
    expect(await store.listSources()).toEqual([]);
    await store.createSource(sourceInput(), admin);
    const taken = await errorOf(store.createSource(sourceInput(), admin));
    expect((taken as ValidationError).fieldErrors.name).toEqual(["Another source has this name."]);
  });

  it("refuses to add a source without a usable key, naming the variable", async () => {
    for (const sourcesKey of ["", "short", randomBytes(16).toString("base64")]) {
      const store = await openTestStore(dialect, { seedDemo: false, sourcesKey });
      const previous = process.env.SEED_SOURCES_KEY;
      delete process.env.SEED_SOURCES_KEY;
      try {
        const error = await errorOf(store.createSource(sourceInput(), admin));
        expect(messageOf(error)).toContain("SEED_SOURCES_KEY");
      } finally {
        if (previous !== undefined) process.env.SEED_SOURCES_KEY = previous;
      }
      expect(await store.listSources()).toEqual([]);
    }
  });

  it("refuses to delete a source its datasets read, naming them; deletes it after them", async () => {
    const { store, source } = await storeWithSource(dialect);
    const dataset = await store.createLiveDataset(
      { sourceId: source.id, schema: "public", table: "sales", name: "Remote sales" },
      admin,
    );
    const error = await errorOf(store.deleteSource(source.id, source.version, admin));
    expect(error).toBeInstanceOf(InUseError);
    expect((error as Error).message).toContain('dataset "Remote sales"');
    expect(await store.listSources()).toHaveLength(1);
    await store.deleteDataset(dataset.id, 1, editor);
    await store.deleteSource(source.id, source.version, admin);
    expect(await store.listSources()).toEqual([]);
    expect(await auditDetails(store)).not.toContain(remote.password);
  });
});

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
    expect(JSON.stringify([wrong, unreachable])).not.toContain(remote.password);

    remote.exec(`grant insert on readings to ${remote.user}`);
    try {
      const writer = await store.testSourceConnection(sourceInput(), admin);
      expect(writer.ok && writer.warnings).toEqual([
        "This user can write to 1 table: use a read-only role instead.",
      ]);
    } finally {
      remote.exec(`revoke insert on readings from ${remote.user}`);
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
          tiles: [
            { kind: "chart", chartId: chart.id },
            { kind: "stat", label: "Orders", datasetId: id, column: "orders", aggregation: "sum" },
          ],
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
      remote.exec("update sales set orders = orders + 100 where region = 'South'");
      try {
        const again = await store.getDashboardBySlug("live");
        expect(again?.tiles[1] && "value" in again.tiles[1] ? again.tiles[1].value : null).toBe(
          115,
        );
        expect((await store.getChartEmbed(chart.id))?.liveCacheSeconds).toBe(60);
      } finally {
        remote.exec("update sales set orders = orders - 100 where region = 'South'");
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
        tiles: [
          { kind: "chart", chartId: chart.id },
          { kind: "stat", label: "Orders", datasetId: id, column: "orders", aggregation: "sum" },
        ],
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
      expect(messageOf(error)).not.toContain(remote.password);
    } finally {
      await other.close();
    }
  });
});

describe("live sources moved from SQLite to PostgreSQL", () => {
  it("copies sources and live datasets (no rows table to copy); the same key reads them there", async () => {
    const sqlite = await openTestStore("sqlite", { seedDemo: false, sourcesKey: key });
    const source = await sqlite.createSource(sourceInput(), admin);
    const { id } = await sqlite.createLiveDataset(
      { sourceId: source.id, schema: "public", table: "sales" },
      admin,
    );
    await sqlite.close();
    const target = await createTestDatabase("postgres");
    const result = await migrateSqliteToPostgres({
      sqliteFile: sqlite.sqliteFile ?? "",
      postgresUrl: target.options.databaseUrl ?? "",
    });
    expect(result.tables.find((table) => table.table === "data_sources")).toMatchObject({
      sourceRows: 1,
      targetRows: 1,
      matches: true,
    });
    const moved = await openStore({ ...target.options, seedDemo: false, sourcesKey: key });
    target.openStores.push(moved);
    const rows = await moved.runChartQuery(id, {
      x: { column: "region" },
      measures: [{ column: "orders", aggregate: "sum" }],
      filters: [],
    });
    expect(rows.rows).toEqual([
      { x: "North", m0: 9 },
      { x: "South", m0: 6 },
    ]);
  });
});
