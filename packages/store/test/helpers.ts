import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChartInput, DatasetColumnType, TileInput } from "@seed/model";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, inject, onTestFinished } from "vitest";
import { migrationLockTableName, migrations, migrationTableName } from "../src/db/migrations.js";
import {
  type Actor,
  type OpenStoreOptions,
  openStore,
  type Store,
  type StoreDialect,
} from "../src/index.js";
import { admin, editor } from "./actors.js";
import { createPostgresDatabase } from "./postgres-database.js";

export const dialects: readonly StoreDialect[] = ["sqlite", "postgres"];

/**
 * Where a test's store keeps dataset rows: in SQLite or PostgreSQL (the state database), or
 * "duckdb": the SQLite state file with rows in the DuckDB data file beside it.
 */
export type TestEngine = StoreDialect | "duckdb";
export const engines: readonly TestEngine[] = ["sqlite", "postgres", "duckdb"];

export interface TestDatabase {
  /** Options that point openStore at this test's own empty database. */
  options: Pick<OpenStoreOptions, "databaseUrl" | "dataDir" | "datasetEngine" | "sqlDatabaseUrl">;
  /** Where the SQLite file lives, for tests that inspect it. */
  dataDir: string | null;
  /** Stores to close before the database is removed. */
  openStores: Store[];
}

/** A fresh, empty database for one test (a temp dir or a new PostgreSQL database), removed after it. */
export async function createTestDatabase(dialect: TestEngine): Promise<TestDatabase> {
  const openStores: Store[] = [];
  const closeStores = async () => {
    await Promise.all(openStores.map((store) => store.close()));
  };
  if (dialect === "sqlite" || dialect === "duckdb") {
    const dataDir = mkdtempSync(path.join(tmpdir(), "seed-store-test-"));
    onTestFinished(async () => {
      await closeStores();
      rmSync(dataDir, { recursive: true, force: true });
    });
    return { options: { databaseUrl: null, dataDir, datasetEngine: dialect }, dataDir, openStores };
  }
  const database = await createPostgresDatabase(inject("postgresUrl"), "test");
  onTestFinished(async () => {
    await closeStores();
    await database.drop();
  });
  return {
    options: { databaseUrl: database.url, sqlDatabaseUrl: database.readerUrl },
    dataDir: null,
    openStores,
  };
}

/** Opens a store on a fresh database for one test and closes it when the test ends. */
export async function openTestStore(
  dialect: TestEngine,
  options: Omit<OpenStoreOptions, "databaseUrl" | "dataDir"> = {},
): Promise<Store> {
  const database = await createTestDatabase(dialect);
  const store = await openStore({ ...database.options, ...options });
  database.openStores.push(store);
  return store;
}

/** The bytes as a stream of chunks of `size` bytes, cutting through characters and lines. */
export async function* byteChunks(bytes: Uint8Array, size = 7): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

/** A group of these accounts, made by an admin; its id. */
export async function groupOf(store: Store, name: string, members: readonly Actor[]) {
  const group = await store.createGroup(admin, { name });
  await store.setGroupMembers(admin, group.id, { userIds: members.map((one) => one.id) });
  return group.id;
}

/** Runs a promise expected to fail and returns its error, failing the test if it resolves. */
export async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected the operation to fail, but it succeeded.");
}

/** Dataset columns from a record of each column's type, in the record's order. */
export function columnsOf<Type extends DatasetColumnType>(
  types: Record<string, Type>,
): { name: string; type: Type }[] {
  return Object.entries(types).map(([name, type]) => ({ name, type }));
}

export const salesColumns = [
  { name: "month", type: "date" },
  { name: "region", type: "string" },
  { name: "revenue", type: "number" },
  { name: "orders", type: "number" },
] as const;

export function salesInput(name = "Sales") {
  return {
    name,
    columns: salesColumns.map((column) => ({ ...column })),
    rows: [
      { month: "2025-01-01", region: "North", revenue: 100, orders: 4 },
      { month: "2025-02-01", region: "South", revenue: 150, orders: 6 },
      { month: "2025-03-01", region: "North", revenue: 120, orders: 5 },
    ],
  };
}

/**
 * The Sales dataset and a chart of it, made by `editor`: a line chart of revenue by month unless
 * `chart` says otherwise.
 */
export async function createChartAndDataset(
  store: Store,
  chart: Partial<Omit<ChartInput, "datasetId">> = {},
) {
  const dataset = await store.createDataset(salesInput(), editor);
  const created = await store.createChart(
    {
      title: "Revenue",
      type: "line",
      datasetId: dataset.id,
      indexColumn: "month",
      seriesColumns: ["revenue"],
      ...chart,
    },
    editor,
  );
  return { dataset, chart: created };
}

/** A stat tile of the sum of a dataset's column (its revenue, labelled "Revenue", unless told). */
export function sumStat(datasetId: string, column = "revenue", label = "Revenue") {
  return {
    kind: "stat",
    label,
    datasetId,
    column,
    aggregation: "sum",
  } as const satisfies TileInput;
}

/** The text as a stream of one chunk, for the store's CSV imports. */
export async function* textStream(text: string): AsyncGenerator<string> {
  yield text;
}

/** How a promise settled, so a test can look at a rejection without a try. */
export async function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return (await Promise.allSettled([promise]))[0] as PromiseSettledResult<T>;
}

/** A live source's settings that the tests do not vary (all but its name and endpoint). */
export const sourceSettings = {
  sslMode: "disable",
  statementTimeoutMs: 2_000,
  rowCap: 100,
  cacheTtlSeconds: 60,
} as const;

/** A clock the test moves by hand: `now` for openStore, `advance` to move it on. */
export function clock(start = "2026-06-01T12:00:00.000Z") {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/**
 * Opens a store on a fresh database for a whole suite (from beforeAll); the returned function
 * closes it and removes the database (for afterAll).
 */
export async function openSuiteStore(
  dialect: TestEngine,
  options: Omit<OpenStoreOptions, "databaseUrl" | "dataDir"> = {},
): Promise<{ store: Store; close: () => Promise<void> }> {
  if (dialect === "sqlite" || dialect === "duckdb") {
    const dataDir = mkdtempSync(path.join(tmpdir(), "seed-store-test-"));
    const store = await openStore({
      ...options,
      databaseUrl: null,
      dataDir,
      datasetEngine: dialect,
    });
    return {
      store,
      close: async () => {
        await store.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const database = await createPostgresDatabase(inject("postgresUrl"), "test");
  const store = await openStore({
    sqlDatabaseUrl: database.readerUrl,
    ...options,
    databaseUrl: database.url,
  });
  return {
    store,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}

/**
 * A database as an older store left it: only the migrations before `firstMissing` applied, then
 * `fill` writes rows in that old schema. Closed before the store opens it.
 */
export async function createOldDatabase(
  dialect: StoreDialect,
  options: { databaseUrl?: string | null; dataDir?: string },
  firstMissing: string,
  // biome-ignore lint/suspicious/noExplicitAny: an old schema is not today's schema type.
  fill: (db: Kysely<any>) => Promise<void>,
): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: an old schema is not today's schema type.
  const db = new Kysely<any>({
    dialect:
      dialect === "sqlite"
        ? new SqliteDialect({
            database: new BetterSqlite3(path.join(options.dataDir ?? "", "seed.db")),
          })
        : new PostgresDialect({
            pool: new pg.Pool({ connectionString: options.databaseUrl ?? "" }),
          }),
  });
  try {
    const before = Object.fromEntries(
      Object.entries(migrations).filter(([name]) => name < firstMissing),
    );
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => before },
      migrationTableName,
      migrationLockTableName,
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
    await fill(db);
    // Marks the demo as seeded so opening the store does not add the demo on top.
    await db
      .insertInto("store_meta")
      .values({ key: "demo_seeded_at", value: "2025-01-01T00:00:00.000Z" })
      .execute();
  } finally {
    await db.destroy();
  }
}

/** A store on each engine for a whole suite (seedDemo off), opened before it and closed after. */
/** The store of `engine` among storesOnEveryEngine()'s, once they are open. */
export function storeOn(stores: ReadonlyArray<{ name: string; store: Store }>, engine: string) {
  const found = stores.find((entry) => entry.name === engine);
  if (!found) throw new Error(`No store on ${engine}.`);
  return found.store;
}

export function storesOnEveryEngine() {
  const stores: Array<{ name: string; store: Store }> = [];
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    for (const engine of ["sqlite", "postgres", "duckdb"] as const) {
      const opened = await openSuiteStore(engine, { seedDemo: false });
      stores.push({ name: engine, store: opened.store });
      closers.push(opened.close);
    }
  });
  afterAll(async () => {
    for (const close of closers) await close();
  });
  return stores;
}
