import { chmodSync, closeSync, mkdirSync, openSync, readdirSync } from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type TransactionSettings,
} from "kysely";
import pg from "pg";
import { type BulkLoader, postgresBulkLoader, sqliteBulkLoader } from "./bulk-load.js";
import { dialects, type EngineDialect } from "./dialect.js";
import { migrationLockTableName, migrationProvider, migrationTableName } from "./migrations.js";
import type { StoreDatabase } from "./schema.js";
import { registerSqliteFunctions } from "./sqlite-functions.js";

// Opening the database: which engine, its connection settings, migrations and the setup lock that
// instances starting together share. Everything engine-specific about a connection lives here.

const postgresUrlPattern = /^postgres(?:ql)?:\/\//i;

export function resolveDatabaseUrl(option: string | null | undefined): string | null {
  const url = option === undefined ? process.env.DATABASE_URL : option;
  if (url === undefined || url === null || url.trim() === "") return null;
  if (!postgresUrlPattern.test(url)) {
    throw new Error(
      "DATABASE_URL must start with postgres:// or postgresql://; leave it unset to use the SQLite file.",
    );
  }
  return url;
}

/**
 * Write transactions take SQLite's write lock up front (BEGIN IMMEDIATE): a read-then-write
 * could otherwise fail at once with SQLITE_BUSY when another process wrote in between, while
 * this way busy_timeout makes it wait its turn. Read-only transactions stay deferred.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    settings?: TransactionSettings,
  ): Promise<void> {
    const begin = settings?.accessMode === "read only" ? "begin" : "begin immediate";
    await connection.executeQuery(CompiledQuery.raw(begin));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/** The URL without its password, safe for error messages and logs. */
function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "DATABASE_URL";
  }
}

/** Owner-only modes: no other local user may read the database, its journals or secrets. */
const privateFolderMode = 0o700;
const privateFileMode = 0o600;

/** Makes the folder 0700 and every file in it 0600, whatever modes they already had. */
function makeDataDirPrivate(dataDir: string): void {
  chmodSync(dataDir, privateFolderMode);
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isFile()) chmodSync(path.join(dataDir, entry.name), privateFileMode);
  }
}

function openSqlite(dataDir: string): { database: BetterSqlite3.Database; file: string } {
  mkdirSync(dataDir, { recursive: true, mode: privateFolderMode });
  const file = path.join(dataDir, "seed.db");
  // Create the file 0600 before SQLite does; SQLite gives -wal and -shm the main file's mode.
  closeSync(openSync(file, "a", privateFileMode));
  makeDataDirPrivate(dataDir);
  const database = new BetterSqlite3(file);
  // Wait for other writers instead of failing at once; set first so the WAL switch waits too.
  database.pragma("busy_timeout = 5000");
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  registerSqliteFunctions(database);
  makeDataDirPrivate(dataDir);
  return { database, file };
}

async function runMigrations(
  db: Kysely<StoreDatabase>,
  lockFile: BetterSqlite3.Database | null,
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    migrationTableName,
    migrationLockTableName,
  });
  // Kysely's SQLite lock is per process; BEGIN IMMEDIATE also serialises other processes
  // opening the same file (e.g. parallel Next.js build workers) and makes the DDL atomic.
  // Only done while opening, when no other query can be using the connection.
  lockFile?.exec("BEGIN IMMEDIATE");
  let result: Awaited<ReturnType<Migrator["migrateToLatest"]>>;
  try {
    result = await migrator.migrateToLatest();
  } catch (error) {
    if (lockFile?.inTransaction) lockFile.exec("ROLLBACK");
    throw error;
  }
  if (lockFile?.inTransaction) lockFile.exec(result.error ? "ROLLBACK" : "COMMIT");
  if (result.error) {
    const failed = result.results?.find((item) => item.status === "Error")?.migrationName;
    throw new Error(
      `Database migration ${failed ? `"${failed}" ` : ""}failed: ${String(
        result.error instanceof Error ? result.error.message : result.error,
      )}`,
      { cause: result.error },
    );
  }
  return (result.results ?? [])
    .filter((item) => item.status === "Success")
    .map((item) => item.migrationName);
}

const sqliteSetups = new Map<string, Promise<unknown>>();

/**
 * better-sqlite3 waits for locks synchronously, so two connections of one process setting up the
 * same file at once would block each other; setups of one file therefore run one after another.
 */
/** Any fixed number: every instance of the app on one PostgreSQL database takes the same lock. */
export const postgresSetupLockKey = 7_305_517_113;

/**
 * Runs `work` holding a session-level advisory lock on a connection of its own, so the work can
 * use the pool freely (even a pool of one) while other instances wait at this lock.
 */
async function withPostgresSetupLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [postgresSetupLockKey]);
    return await work();
  } finally {
    // Ending the session releases the lock, also when unlocking fails.
    await client.end();
  }
}

function queueSqliteSetup<T>(file: string, setup: () => Promise<T>): Promise<T> {
  const previous = sqliteSetups.get(file) ?? Promise.resolve();
  const next = previous.then(setup, setup);
  const settled = next.catch(() => undefined);
  sqliteSetups.set(file, settled);
  void settled.then(() => {
    if (sqliteSetups.get(file) === settled) sqliteSetups.delete(file);
  });
  return next;
}

export interface OpenDatabaseOptions {
  /** A postgres:// URL, or null for the SQLite file in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  maxConnections?: number;
}

export interface OpenedDatabase {
  db: Kysely<StoreDatabase>;
  /** A store opens on SQLite or PostgreSQL (DuckDB is an analytical engine beside it, not yet a store). */
  dialect: EngineDialect<"sqlite"> | EngineDialect<"postgres">;
  bulk: BulkLoader;
  /** Path of the SQLite file, or null on PostgreSQL. */
  sqliteFile: string | null;
  /** The driver's own handle, for the store's internals (tests, backups). */
  handle: BetterSqlite3.Database | pg.Pool;
  /** Runs `work` holding the database-wide setup lock (see Store.runExclusive). */
  runExclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Runs pending migrations; `opening` also locks the SQLite file against other processes. */
  migrate(opening?: boolean): Promise<string[]>;
  /** Closes the connection and says which database could not be set up, without its password. */
  failed(error: unknown): Promise<never>;
}

export function openDatabase(options: OpenDatabaseOptions): OpenedDatabase {
  const { databaseUrl } = options;
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: options.maxConnections ?? 10 });
    // An idle client dropped by the server (restart, failover) must not crash the process;
    // the pool discards it and opens a new one on the next query.
    pool.on("error", (error) => {
      console.error("[@seed/store] idle PostgreSQL connection closed:", error.message);
    });
    const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
    // Bulk loads (COPY) need the pg client behind a Kysely transaction; see bulk-load.ts.
    const clients = new Set<pg.ClientBase>();
    pool.on("connect", (client) => clients.add(client));
    pool.on("remove", (client) => clients.delete(client));
    return {
      db,
      dialect: dialects.postgres,
      bulk: postgresBulkLoader(clients),
      sqliteFile: null,
      handle: pool,
      runExclusive: (work) => withPostgresSetupLock(databaseUrl, work),
      migrate: () => runMigrations(db, null),
      async failed(error) {
        await db.destroy();
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(
          `Could not open the PostgreSQL database at ${describePostgresUrl(databaseUrl)}: ${reason}`,
          { cause: error },
        );
      },
    };
  }
  const { database, file } = openSqlite(options.dataDir);
  const db = new Kysely<StoreDatabase>({
    dialect: new ImmediateSqliteDialect({ database }),
  });
  return {
    db,
    dialect: dialects.sqlite,
    bulk: sqliteBulkLoader(database),
    sqliteFile: file,
    handle: database,
    runExclusive: (work) => queueSqliteSetup(file, work),
    migrate: (opening) => runMigrations(db, opening ? database : null),
    async failed(error) {
      await db.destroy();
      throw error;
    },
  };
}
