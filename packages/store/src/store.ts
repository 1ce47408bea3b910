import path from "node:path";
import type { RowsLimits } from "@seed/model";
import type BetterSqlite3 from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import type pg from "pg";
import { auditDenial, denialOperations } from "./access/denials.js";
import { oneTimeCodeOperations } from "./access/one-time-codes.js";
import { setupOperations } from "./access/setup.js";
import { signInThrottleOperations } from "./access/throttle.js";
import type { StoreContext } from "./context.js";
import { type DataFile, openDataFile, rowsDataFileName } from "./db/data-file.js";
import { openDatabase, resolveDatabaseUrl } from "./db/open.js";
import { closedRowsHome, dataFileRowsHome, type RowsHome, stateRowsHome } from "./db/rows-home.js";
import { PostgresSqlReader } from "./db/sql-sandbox-postgres.js";
import { SqlSnapshots } from "./db/sql-snapshots.js";
import type { QueryObserver } from "./engine/index.js";
import { createResultCache, defaultResultCacheBytes } from "./engine/result-cache.js";
import {
  defaultJobPolicy,
  embeddedJobQueue,
  type JobPolicy,
  type JobQueue,
  pgBossJobQueue,
} from "./ops/jobs.js";
import { pageCacheOperations } from "./ops/page-cache-tags.js";
import { provisioningOperations } from "./ops/provision.js";
import { moveRowsToDataFile, rowsInDataFile } from "./ops/rows-to-data-file.js";
import { seedDemoOnce } from "./ops/seed.js";
import { storeInternals } from "./raw-handles.js";
import { dashboardRenderOperations } from "./render/dashboard.js";
import { embedOperations } from "./render/embeds.js";
import { alertOperations } from "./repo/alerts.js";
import { apiTokenOperations } from "./repo/api-tokens.js";
import { auditOperations } from "./repo/audit.js";
import { chartOperations } from "./repo/charts.js";
import { collectionOperations } from "./repo/collections.js";
import { dashboardOperations } from "./repo/dashboards/dashboards.js";
import { dashboardFileOperations } from "./repo/dashboards/file.js";
import { datasetTokenOperations } from "./repo/dataset-tokens.js";
import { datasetOperations, rowsStateIn } from "./repo/datasets/datasets.js";
import { importOperations } from "./repo/datasets/import.js";
import { previewOperations } from "./repo/datasets/import-preview.js";
import { pushOperations } from "./repo/datasets/push.js";
import { rowEditOperations } from "./repo/datasets/row-edits.js";
import { queryOperations } from "./repo/datasets/run-query.js";
import { removeStaleSpools } from "./repo/datasets/spool.js";
import { groupOperations } from "./repo/groups.js";
import { historyOperations } from "./repo/history.js";
import { recipientOperations } from "./repo/recipients.js";
import { reportOperations } from "./repo/reports.js";
import { rowLimitOperations } from "./repo/row-limits.js";
import { settingsOperations } from "./repo/settings.js";
import { SourcePools } from "./repo/sources/connections.js";
import { remoteSourceOperations } from "./repo/sources/remote.js";
import { sourceOperations } from "./repo/sources/sources.js";
import { sqlQuestionOperations } from "./repo/sql-questions.js";

// The Store is the layers' operations bound to one open database: each operation is written once,
// in its module, taking the store's context first; its type here is derived from it.

export type StoreDialect = "sqlite" | "postgres";

export interface OpenStoreOptions {
  /**
   * postgres:// or postgresql:// selects PostgreSQL. Undefined falls back to the DATABASE_URL
   * environment variable; "" or null forces the SQLite file.
   */
  databaseUrl?: string | null;
  /** Folder for seed.db; defaults to SEED_DATA_DIR, else ./data under the working directory. */
  dataDir?: string;
  /** Seed the demo dashboards on first open (default true). */
  seedDemo?: boolean;
  /** Most PostgreSQL connections this process opens (default 10). */
  maxConnections?: number;
  /** Clock for timestamps; tests pin it, everything else leaves it alone. */
  now?: () => Date;
  /** Told how long every chart and stat query took, and whether it succeeded (for metrics). */
  observeQuery?: QueryObserver;
  /** The key of live sources' passwords; defaults to SEED_SOURCES_KEY, read when needed. */
  sourcesKey?: string;
  /**
   * Bytes of query results kept in memory per dataset version (default 32 MiB; 0 keeps none).
   * Defaults to SEED_RESULT_CACHE_MB when set.
   */
  resultCacheBytes?: number;
  /**
   * Where datasets' rows live in the embedded setup: "sqlite" in the SQLite file itself, or
   * "duckdb" in a DuckDB file beside it (<dataDir>/seed-rows.duckdb, data-file.ts). Defaults to
   * SEED_DATASET_ENGINE, else "duckdb". On PostgreSQL rows always stay in PostgreSQL.
   */
  datasetEngine?: DatasetEngine;
  /**
   * Open the app's state only (users, settings, audit) and leave the dataset rows' data file
   * closed: for command-line tools that run beside the server holding it (DuckDB lets one process
   * open the file). Rows operations are then refused by name; the demo is not seeded and no rows
   * move or recover (the server does that on its own open).
   */
  stateOnly?: boolean;
  /** DuckDB's memory limit and threads (defaults: SEED_DUCKDB_MEMORY or "1GB", SEED_DUCKDB_THREADS or 2). */
  duckdb?: { memoryLimit?: string; threads?: number };
  /**
   * On PostgreSQL, where SQL questions connect: a login role that may only read (README). Defaults
   * to SEED_SQL_DATABASE_URL; without it SQL questions say they are not set up.
   */
  sqlDatabaseUrl?: string;
}

export type DatasetEngine = "sqlite" | "duckdb";

/** The option, else SEED_DATASET_ENGINE, else "duckdb"; anything else is refused by name. */
function datasetEngineOf(option: DatasetEngine | undefined): DatasetEngine {
  const chosen = option ?? (process.env.SEED_DATASET_ENGINE?.trim() || "duckdb");
  if (chosen !== "sqlite" && chosen !== "duckdb") {
    throw new Error(`SEED_DATASET_ENGINE must be "sqlite" or "duckdb", not "${chosen}".`);
  }
  return chosen;
}

/** The DuckDB data file's settings: options, else the environment, else small-machine defaults. */
function duckDbSettingsOf(option: OpenStoreOptions["duckdb"]) {
  const threads = option?.threads ?? Number(process.env.SEED_DUCKDB_THREADS || 2);
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
    throw new Error("SEED_DUCKDB_THREADS must be a whole number from 1 to 256.");
  }
  const memoryLimit = option?.memoryLimit ?? (process.env.SEED_DUCKDB_MEMORY?.trim() || "1GB");
  if (!/^[0-9]+(\.[0-9]+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(memoryLimit)) {
    throw new Error('SEED_DUCKDB_MEMORY must be a size such as "512MB" or "2GB".');
  }
  return { threads, memoryLimit };
}

/** What better-auth's `database` option accepts: a Kysely instance and its dialect name. */
export interface BetterAuthDatabase {
  // biome-ignore lint/suspicious/noExplicitAny: better-auth types this as Kysely<any>.
  db: Kysely<any>;
  type: StoreDialect;
}

/** Every operation group the store exposes, in the order the README lists them. */
const operations = {
  ...datasetOperations,
  ...rowEditOperations,
  ...importOperations,
  ...previewOperations,
  ...datasetTokenOperations,
  ...apiTokenOperations,
  ...pushOperations,
  ...queryOperations,
  ...sqlQuestionOperations,
  ...sourceOperations,
  ...remoteSourceOperations,
  ...chartOperations,
  ...dashboardOperations,
  ...dashboardFileOperations,
  ...provisioningOperations,
  ...dashboardRenderOperations,
  ...embedOperations,
  ...historyOperations,
  ...reportOperations,
  ...alertOperations,
  ...recipientOperations,
  ...settingsOperations,
  ...groupOperations,
  ...collectionOperations,
  ...rowLimitOperations,
  ...auditOperations,
  ...denialOperations,
  ...signInThrottleOperations,
  ...oneTimeCodeOperations,
  ...setupOperations,
  ...pageCacheOperations,
};

type Operations = typeof operations;

/** An operation with the store's context already given. */
type Bound<Operation> = Operation extends (ctx: StoreContext, ...args: infer Args) => infer Result
  ? (...args: Args) => Result
  : never;

/** The connection itself: what the store is opened on, and its life cycle. */
export interface StoreConnection {
  readonly dialect: StoreDialect;
  /**
   * For better-auth's `database` option and its migrations only: auth keeps its own tables on
   * this connection. Nothing else may write through it.
   */
  readonly authDatabase: BetterAuthDatabase;
  /** Path of the SQLite file, or null on PostgreSQL. */
  readonly sqliteFile: string | null;
  /** What one dataset may hold where this store keeps rows (rowsLimits in @seed/model). */
  readonly rowsLimits: RowsLimits;
  /**
   * Runs `work` while holding the database-wide setup lock: a PostgreSQL advisory lock shared by
   * every instance on the database (on SQLite, setups of one file in this process queue). For
   * schema work outside the store's own migrations, such as better-auth's, so instances starting
   * together on an empty database migrate once. openStore takes the same lock.
   */
  runExclusive<T>(work: () => Promise<T>): Promise<T>;
  /** One round trip to the database (for readiness checks); throws when it is unreachable. */
  ping(): Promise<void>;
  /** Runs pending migrations (openStore already does); returns the names it applied. */
  migrate(): Promise<string[]>;
  /**
   * The job queue of this database (src/ops/jobs.ts): pg-boss on PostgreSQL, shared by every
   * instance; on SQLite the jobs table, worked by this process. Closing the store stops it.
   */
  openJobQueue(policy?: Partial<JobPolicy>): Promise<JobQueue>;
  /** Closes the SQLite file or ends the pg pool. */
  close(): Promise<void>;
}

/**
 * Everything the app keeps goes through these methods, each write with its audit event in the same
 * transaction. The raw database handle is not part of this API (tests reach it through
 * src/raw-handles.ts, which the package does not export).
 */
export type Store = StoreConnection & {
  readonly [Name in keyof Operations]: Bound<Operations[Name]>;
};

function bind(ctx: StoreContext): { [Name in keyof Operations]: Bound<Operations[Name]> } {
  const bound: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(operations)) {
    bound[name] = (...args: unknown[]) => {
      const result = (operation as (ctx: StoreContext, ...rest: unknown[]) => unknown)(
        ctx,
        ...args,
      );
      // Every refusal of an account is audited here, once for all operations (src/access/denials.ts).
      return result instanceof Promise
        ? result.catch(async (error: unknown) => {
            await auditDenial(ctx, name, args, error);
            throw error;
          })
        : result;
    };
  }
  return bound as { [Name in keyof Operations]: Bound<Operations[Name]> };
}

/** The result cache's bound: the option, else SEED_RESULT_CACHE_MB, else the default. */
function resultCacheBytesOf(option: number | undefined): number {
  if (option !== undefined) return option;
  const megabytes = Number(process.env.SEED_RESULT_CACHE_MB);
  return process.env.SEED_RESULT_CACHE_MB && Number.isFinite(megabytes) && megabytes >= 0
    ? megabytes * 1024 * 1024
    : defaultResultCacheBytes;
}

/**
 * Opens the store: PostgreSQL when a postgres URL is given (or in DATABASE_URL), otherwise the
 * SQLite file <dataDir>/seed.db. Migrates, and seeds the demo dashboards on first open.
 */
export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  const databaseUrl = resolveDatabaseUrl(options.databaseUrl);
  // Settings are checked before anything opens: a bad value leaves nothing half open.
  const engine = databaseUrl ? "sqlite" : datasetEngineOf(options.datasetEngine);
  const settings = engine === "duckdb" ? duckDbSettingsOf(options.duckdb) : null;
  const opened = openDatabase({
    databaseUrl,
    dataDir: options.dataDir ?? process.env.SEED_DATA_DIR ?? path.join(process.cwd(), "data"),
    maxConnections: options.maxConnections,
  });
  const { db, runExclusive } = opened;
  let rows: RowsHome;
  let dataFile: DataFile | null = null;
  const dataFilePath = opened.sqliteFile
    ? path.join(path.dirname(opened.sqliteFile), rowsDataFileName)
    : null;
  if (settings && dataFilePath && options.stateOnly) {
    rows = closedRowsHome(dataFilePath);
  } else if (settings && dataFilePath && opened.sqliteFile) {
    let file: Awaited<ReturnType<typeof openDataFile>>;
    try {
      file = await openDataFile(dataFilePath, settings);
    } catch (error) {
      await opened.failed(error);
      throw error;
    }
    dataFile = file;
    rows = dataFileRowsHome(
      file,
      (datasetId) => rowsStateIn(db, datasetId),
      path.dirname(opened.sqliteFile),
    );
  } else {
    rows = stateRowsHome(opened.dialect, opened.bulk);
  }
  const ctx: StoreContext = {
    db,
    now: options.now ?? (() => new Date()),
    rows,
    observeQuery: options.observeQuery,
    resultCache: createResultCache(resultCacheBytesOf(options.resultCacheBytes)),
    sources: new SourcePools(),
    sourcesKey: () => options.sourcesKey ?? process.env.SEED_SOURCES_KEY,
    sql: { snapshots: new SqlSnapshots(), reader: null },
  };
  const readerUrl = options.sqlDatabaseUrl ?? process.env.SEED_SQL_DATABASE_URL?.trim();
  if (databaseUrl && readerUrl) ctx.sql.reader = new PostgresSqlReader(readerUrl, db);
  try {
    await runExclusive(async () => {
      await opened.migrate(true);
      const report = await rows.recover(db);
      if (rows.spoolDir) await removeStaleSpools(rows.spoolDir);
      if (dataFile) {
        // Rows an earlier version (or the SQLite engine) kept in seed.db move into the data file.
        const moved = await moveRowsToDataFile(
          db,
          opened.handle as BetterSqlite3.Database,
          dataFile,
        );
        if (moved.length > 0) {
          console.info(
            `[@seed/store] moved the rows of ${moved.length} dataset(s) into the DuckDB data file: ${moved
              .map((dataset) => `${dataset.id} (${dataset.rows} rows)`)
              .join(", ")}`,
          );
        }
      } else if (opened.sqliteFile && rows.kind === "state" && (await rowsInDataFile(db))) {
        throw new Error(
          `This store keeps dataset rows in the DuckDB data file beside ${opened.sqliteFile}; open it with SEED_DATASET_ENGINE=duckdb (datasetEngine "duckdb").`,
        );
      }
      if (report && (report.missing.length > 0 || report.dropped.length > 0)) {
        console.warn("[@seed/store] data file recovered at open:", JSON.stringify(report));
      }
      if (options.seedDemo !== false && !options.stateOnly) await seedDemoOnce(ctx);
    });
  } catch (error) {
    await rows.close();
    await opened.failed(error);
  }
  const dialect = opened.dialect.engine;
  const jobQueues = new Set<JobQueue>();
  const store: Store = {
    dialect,
    authDatabase: { db, type: dialect },
    sqliteFile: opened.sqliteFile,
    rowsLimits: rows.limits,
    runExclusive,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    migrate: () => opened.migrate(),
    openJobQueue: async (policy) => {
      const settings = { ...defaultJobPolicy, ...policy };
      const queue =
        dialect === "postgres"
          ? await pgBossJobQueue(opened.handle as pg.Pool, settings, runExclusive)
          : embeddedJobQueue(db, ctx.now, settings);
      jobQueues.add(queue);
      return queue;
    },
    close: async () => {
      await Promise.all([...jobQueues].map((queue) => queue.stop()));
      await ctx.sources.closeAll();
      await ctx.sql.reader?.close();
      await ctx.sql.snapshots.close();
      await rows.close();
      await db.destroy();
    },
    ...bind(ctx),
  };
  storeInternals.set(store, {
    db,
    database: opened.handle,
    async rowsOf(datasetId, work) {
      const state = await rowsStateIn(db, datasetId);
      if (!state) throw new Error(`No dataset ${datasetId} with rows kept here.`);
      return rows.read(db, state, work);
    },
  });
  return store;
}
