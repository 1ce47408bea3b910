import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { admin } from "better-auth/plugins/admin";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import {
  type Actor,
  type AnyKysely,
  MigrationRefusedError,
  MigrationVerificationError,
  migrateSqliteToPostgres,
  openStore,
  type Store,
} from "../src/index.js";
import { canonicalValue } from "../src/ops/migrate-to-postgres.js";
import { errorOf, textStream } from "./helpers.js";
import { createPostgresDatabase } from "./postgres-database.js";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "../../..");
const secret = "migrate-test-secret-of-at-least-32-characters";
const password = "correct horse battery staple";
const actor: Actor = { id: "user-admin", email: "admin@example.com", role: "admin" };

// The schema-relevant part of the web app's auth setup (apps/web/src/server/auth-options.mjs):
// email and password, and the admin plugin's role and ban fields. The CLI test uses the app's own.
function authOptions(database: { db: AnyKysely; type: "sqlite" | "postgres" }) {
  return {
    database,
    secret,
    baseURL: "http://localhost",
    emailAndPassword: { enabled: true },
    plugins: [admin()],
    telemetry: { enabled: false },
  };
}

async function createAuthSchema(db: AnyKysely) {
  const { runMigrations } = await getMigrations(authOptions({ db, type: "postgres" }));
  await runMigrations();
}

function fileHash(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

async function emptyPostgres(): Promise<string> {
  const database = await createPostgresDatabase(inject("postgresUrl"), "migrate");
  onTestFinished(() => database.drop());
  return database.url;
}

async function query<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

async function userTables(url: string): Promise<string[]> {
  const rows = await query<{ name: string }>(
    url,
    "select table_name as name from information_schema.tables where table_schema = 'public' order by 1",
  );
  return rows.map((row) => row.name);
}

/** Everything a reader of the store sees, to compare the two engines. */
async function storeContents(store: Store) {
  const datasets = await store.listDatasets();
  const dashboards = await store.listDashboards();
  return {
    datasets,
    rows: await Promise.all(datasets.map(async (dataset) => store.getDataset(dataset.id))),
    charts: await store.listCharts(),
    dashboards: await Promise.all(dashboards.map((entry) => store.getDashboard(entry.id))),
    audit: (await store.listAuditEvents({ limit: 200 })).events,
  };
}

// Every column type the store infers from CSV, with NULLs, unicode, quoting and extreme numbers
// (a 16-digit integer would be read as an id, text: it does not fit a double exactly).
const everyTypeCsv = [
  "label,amount,ratio,active,day,at",
  '"Zürich 🌍 ""quoted"", with comma\nand newline \\ backslash",900719925474099.5,0.30000000000000004,true,2024-02-29,2025-06-30T23:59:59.999Z',
  "日本語のテキスト,-1.7976931348623157e308,5e-324,false,1970-01-01,1969-12-31T23:59:59.001Z",
  ",,,,,",
  "x,0,-0.000001,true,2099-12-31,2000-01-01T00:00:00.000Z",
].join("\r\n");

/** A SQLite install filled through the store's and better-auth's own APIs, then closed. */
async function createSourceInstall(datasetEngine: "sqlite" | "duckdb" = "sqlite") {
  const dataDir = mkdtempSync(path.join(tmpdir(), "seed-migrate-source-"));
  onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
  const store = await openStore({ databaseUrl: null, dataDir, datasetEngine });
  const auth = betterAuth(authOptions(store.authDatabase));
  await (await getMigrations(auth.options)).runMigrations();
  await auth.api.signUpEmail({
    body: { email: "ada@example.com", password, name: "Ada Lövelace" },
  });
  await auth.api.signUpEmail({ body: { email: "grace@example.com", password, name: "Grace" } });
  const signedIn = await auth.api.signInEmail({
    body: { email: "ada@example.com", password },
    returnHeaders: true,
  });
  const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

  const imported = await store.importNewDataset(
    { name: "Every type ✓", source: textStream(everyTypeCsv) },
    actor,
  );
  const dataset = { id: imported.datasetId };
  const chart = await store.createChart(
    {
      title: "Amount by day",
      type: "bar",
      datasetId: dataset.id,
      indexColumn: "day",
      seriesColumns: ["amount"],
    },
    actor,
  );
  const dashboard = await store.createDashboard(
    {
      title: "Migrated ✓",
      slug: "migrated",
      timeZone: "Europe/Paris",
      tiles: [
        { kind: "chart", chartId: chart.id },
        { kind: "stat", label: "Sum", datasetId: dataset.id, column: "amount", aggregation: "sum" },
      ],
    },
    actor,
  );
  await store.publishDashboard(dashboard.id, dashboard.version, actor);
  await store.recordAuditEvent({
    actor,
    action: "user.create",
    entityType: "user",
    entityId: "some-user",
    detail: { note: "ünïcödé" },
  });
  await store.recordSignInFailure({ address: "127.0.0.1", account: "grace@example.com" });
  const contents = await storeContents(store);
  await store.close();
  return { file: path.join(dataDir, "seed.db"), cookie, datasetId: dataset.id, contents };
}

describe("migrateSqliteToPostgres", () => {
  it("copies every table, verifies it, keeps sessions working and advances sequences", async () => {
    const source = await createSourceInstall();
    const url = await emptyPostgres();
    const before = fileHash(source.file);

    const result = await migrateSqliteToPostgres({
      sqliteFile: source.file,
      postgresUrl: url,
      createAuthSchema,
      fetchRows: 2,
    });

    expect(fileHash(source.file)).toBe(before);
    const byName = new Map(result.tables.map((table) => [table.table, table]));
    for (const table of ["user", "session", "account", "datasets", "charts", "dashboards"]) {
      expect(byName.get(table)?.sourceRows, table).toBeGreaterThan(0);
    }
    for (const table of [...byName.keys(), "dashboard_tiles", "audit_events", "sign_in_throttle"]) {
      expect(byName.has(table), table).toBe(true);
    }
    expect(byName.get("user")?.targetRows).toBe(2);
    expect(byName.get(`ds_${source.datasetId.toLowerCase().replace(/[^a-z0-9]/g, "_")}`)).toEqual(
      expect.objectContaining({ sourceRows: 4, targetRows: 4, matches: true }),
    );
    for (const table of result.tables) {
      expect(table.matches, table.table).toBe(true);
      expect(table.targetChecksum).toBe(table.sourceChecksum);
    }

    // The store on PostgreSQL reads back exactly what the SQLite store held.
    const store = await openStore({ databaseUrl: url });
    onTestFinished(() => store.close());
    expect(await storeContents(store)).toEqual(source.contents);

    // Sequences: a new row gets the next key instead of colliding with a copied one.
    const dataset = await store.getDataset(source.datasetId);
    const edited = await store.editDatasetRows(
      source.datasetId,
      dataset?.version ?? 0,
      { append: [{ label: "after the move", amount: 1 }] },
      actor,
    );
    expect(edited.rowCount).toBe(5);
    const page = await store.listDatasetRows(source.datasetId, { limit: 10 });
    expect(page?.rows.map((row) => row.key)).toEqual([1, 2, 3, 4, 5]);

    // The session made on SQLite resolves to its user on PostgreSQL; the password hash still works.
    const pool = new pg.Pool({ connectionString: url });
    // Dropping the test database (WITH FORCE) may end an idle client before the pool is closed.
    pool.on("error", () => {});
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    onTestFinished(() => db.destroy());
    const auth = betterAuth(authOptions({ db, type: "postgres" }));
    const session = await auth.api.getSession({ headers: new Headers({ cookie: source.cookie }) });
    expect(session?.user.email).toBe("ada@example.com");
    expect(session?.user.name).toBe("Ada Lövelace");
    const again = await auth.api.signInEmail({ body: { email: "grace@example.com", password } });
    expect(again.user.email).toBe("grace@example.com");
    await auth.api.signUpEmail({ body: { email: "new@example.com", password, name: "New" } });
  });

  it("copies a store whose rows are in the DuckDB data file, rows and keys as they were, leaving both files untouched", async () => {
    const source = await createSourceInstall("duckdb");
    const url = await emptyPostgres();
    const dataFile = path.join(path.dirname(source.file), "seed-rows.duckdb");
    const before = [fileHash(source.file), fileHash(dataFile)];

    const result = await migrateSqliteToPostgres({
      sqliteFile: source.file,
      postgresUrl: url,
      createAuthSchema,
    });

    expect([fileHash(source.file), fileHash(dataFile)]).toEqual(before);
    for (const table of result.tables) expect(table.matches, table.table).toBe(true);
    const rowsTable = `ds_${source.datasetId.toLowerCase().replace(/[^a-z0-9]/g, "_")}`;
    expect(result.tables.find((table) => table.table === rowsTable)).toEqual(
      expect.objectContaining({ sourceRows: 4, targetRows: 4, matches: true }),
    );
    const store = await openStore({ databaseUrl: url });
    onTestFinished(() => store.close());
    expect(await storeContents(store)).toEqual(source.contents);
    const page = await store.listDatasetRows(source.datasetId, { limit: 10 });
    expect(page?.rows.map((row) => row.key)).toEqual([1, 2, 3, 4]);
  });

  it("refuses a target that is not empty and leaves it as it was", async () => {
    const source = await createSourceInstall();
    const url = await emptyPostgres();
    await query(
      url,
      "create table keep_me (id integer primary key); insert into keep_me values (7)",
    );

    const error = await errorOf(
      migrateSqliteToPostgres({ sqliteFile: source.file, postgresUrl: url, createAuthSchema }),
    );

    expect(error).toBeInstanceOf(MigrationRefusedError);
    expect((error as Error).message).toMatch(/not empty.*public\.keep_me/);
    expect(await userTables(url)).toEqual(["keep_me"]);
    expect(await query(url, "select id from keep_me")).toEqual([{ id: 7 }]);
  });

  it("refuses sources that are not Seed Charts databases, and missing locations", async () => {
    const url = await emptyPostgres();
    const folder = mkdtempSync(path.join(tmpdir(), "seed-migrate-junk-"));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const text = path.join(folder, "notes.db");
    writeFileSync(text, "not a database at all, just some text that is long enough");
    const other = path.join(folder, "other.db");
    const database = new BetterSqlite3(other);
    database.exec("create table things (id integer primary key, name text)");
    database.close();

    for (const [sqliteFile, postgresUrl, message] of [
      [text, url, /not a (Seed Charts )?SQLite database/],
      [other, url, /not a Seed Charts SQLite database/],
      [path.join(folder, "missing.db"), url, /no SQLite database/],
      ["", url, /No SQLite file/],
      [other, "", /No PostgreSQL URL/],
      [other, "mysql://localhost/seed", /postgres:\/\//],
    ] as const) {
      const error = await errorOf(migrateSqliteToPostgres({ sqliteFile, postgresUrl }));
      expect(error).toBeInstanceOf(MigrationRefusedError);
      expect((error as Error).message).toMatch(message);
    }
    expect(await userTables(url)).toEqual([]);
  });

  it("rolls everything back when a row fails midway, leaving the target empty", async () => {
    const source = await createSourceInstall();
    const url = await emptyPostgres();
    // A date PostgreSQL rejects, put into the file behind the store's back: the copy of that
    // table fails after other tables were already copied in the transaction.
    const writable = new BetterSqlite3(source.file);
    const table = `ds_${source.datasetId.toLowerCase().replace(/[^a-z0-9]/g, "_")}`;
    writable.prepare(`update ${table} set c_day = '2025-02-30' where _row = 2`).run();
    writable.close();
    const copied: string[] = [];

    const error = await errorOf(
      migrateSqliteToPostgres({
        sqliteFile: source.file,
        postgresUrl: url,
        createAuthSchema,
        onTableCopied: (name) => copied.push(name),
      }),
    );

    expect((error as Error).message).toMatch(new RegExp(`rolled back.*Copying ${table} failed`));
    expect(copied.length).toBeGreaterThan(0);
    expect(copied).not.toContain(table);
    expect(await userTables(url)).toEqual([]);
    const sequences = await query(
      url,
      "select count(*)::int as n from pg_class where relkind = 'S' and relnamespace = 'public'::regnamespace",
    );
    expect(sequences).toEqual([{ n: 0 }]);
  });

  it("fails verification and rolls back when PostgreSQL keeps a value in another form", async () => {
    const source = await createSourceInstall();
    const url = await emptyPostgres();
    // PostgreSQL accepts this date but stores it as 2025-01-05: the copy succeeds, the check fails.
    const writable = new BetterSqlite3(source.file);
    const table = `ds_${source.datasetId.toLowerCase().replace(/[^a-z0-9]/g, "_")}`;
    writable.prepare(`update ${table} set c_day = '2025-1-5' where _row = 1`).run();
    writable.close();

    const error = await errorOf(
      migrateSqliteToPostgres({ sqliteFile: source.file, postgresUrl: url, createAuthSchema }),
    );

    expect(error).toBeInstanceOf(MigrationVerificationError);
    const tables = (error as MigrationVerificationError).tables;
    expect(tables.filter((entry) => !entry.matches).map((entry) => entry.table)).toEqual([table]);
    expect(tables.find((entry) => entry.table === table)).toEqual(
      expect.objectContaining({ sourceRows: 4, targetRows: 4 }),
    );
    expect(await userTables(url)).toEqual([]);
  });

  it("runs the db:migrate-to-postgres CLI as a child process and prints the per-table report", async () => {
    const source = await createSourceInstall();
    const url = await emptyPostgres();
    const script = path.join(repoRoot, "apps/web/scripts/migrate-to-postgres.mjs");
    const env: NodeJS.ProcessEnv = { ...process.env, BETTER_AUTH_SECRET: secret };
    delete env.DATABASE_URL;
    delete env.SEED_DATA_DIR;

    const { stdout } = await run("node", [script, "--from", source.file, "--to", url], { env });

    expect(stdout).toMatch(/user\s+2\s+2\s+[0-9a-f]{12}\s+ok/);
    expect(stdout).toMatch(/datasets\s+\d+\s+\d+\s+[0-9a-f]{12}\s+ok/);
    expect(stdout).toMatch(/All \d+ tables match/);
    const users = await query<{ email: string }>(url, `select email from "user" order by email`);
    expect(users.map((user) => user.email)).toEqual(["ada@example.com", "grace@example.com"]);

    // A second run, located the way the app is (SEED_DATA_DIR, DATABASE_URL), finds the target
    // full and refuses with a non-zero exit code.
    const second = await errorOf(
      run("node", [script], {
        env: { ...env, SEED_DATA_DIR: path.dirname(source.file), DATABASE_URL: url },
      }),
    );
    expect((second as { code?: number }).code).toBe(1);
    expect((second as { stderr?: string }).stderr).toMatch(/not empty/);
    expect(await query(url, `select count(*)::int as n from "user"`)).toEqual([{ n: 2 }]);
    const missing = await errorOf(run("node", [script, "--from", source.file], { env }));
    expect((missing as { code?: number }).code).toBe(2);
    expect((missing as { stderr?: string }).stderr).toMatch(/DATABASE_URL|--to/);
  });
});

describe("canonicalValue", () => {
  it("gives one form per value whichever engine it was read from", () => {
    const same = (kind: Parameters<typeof canonicalValue>[0], ...forms: unknown[]) =>
      expect(new Set(forms.map((form) => canonicalValue(kind, form))).size).toBe(1);
    same("boolean", 1, 1n, "1", "t", "true", true);
    same("boolean", 0, 0n, "0", "f", "false", false);
    same("timestamp", 1735732496789, 1735732496789n, "1735732496789", "2025-01-01T11:54:56.789Z");
    same("timestamp", "2025-01-01 11:54:56", "2025-01-01T11:54:56Z", "1735732496000");
    same("integer", 9007199254740993n, "9007199254740993");
    same("float", 1e21, "1e+21", "1000000000000000000000");
    same("float", 0.30000000000000004, "0.30000000000000004");
    same("json", '{"b":1,"a":[1,2]}', '{"a": [1, 2], "b": 1}');
    expect(canonicalValue("float", -0)).toBe("-0");
    expect(canonicalValue("float", "-0")).toBe("-0");
    expect(canonicalValue("text", null)).toBeNull();
    expect(canonicalValue("text", "")).toBe("");
    expect(() => canonicalValue("boolean", "maybe")).toThrow(/not a boolean/);
    expect(() => canonicalValue("timestamp", "soon")).toThrow(/not a timestamp/);
  });
});
