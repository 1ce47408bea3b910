import { randomBytes } from "node:crypto";
import { InUseError, ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import { migrateSqliteToPostgres, openStore, type Store } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { admin, editor } from "./actors.js";
import { createTestDatabase, dialects, errorOf, openTestStore } from "./helpers.js";
import { key, messageOf, useLiveSource } from "./live-source.js";

const live = useLiveSource();
const { sourceInput, storeWithSource } = live;

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
    expect(JSON.stringify(source)).not.toContain(live.remote.password);
    expect(JSON.stringify(await store.listSources())).not.toContain(live.remote.password);
    const raw = await internalsOf(store)
      .db.selectFrom("data_sources")
      .select("password_encrypted")
      .executeTakeFirstOrThrow();
    expect(raw.password_encrypted).toMatch(/^v1:/);
    expect(raw.password_encrypted).not.toContain(live.remote.password);
    expect(Buffer.from(raw.password_encrypted.slice(3), "base64").toString("latin1")).not.toContain(
      live.remote.password,
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
    expect(audit).not.toContain(live.remote.password);
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
    expect(await auditDetails(store)).not.toContain(live.remote.password);
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
