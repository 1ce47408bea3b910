import { existsSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { Migrator } from "kysely";
import pg from "pg";
import { migrationLockTableName, migrationProvider, migrationTableName } from "../db/migrations.js";
import { postgresSetupLockKey } from "../db/open.js";
import { createRowsIndexes, createRowsTable } from "../db/rows-table.js";
import { sqliteSourceWithRows } from "./migrate-to-postgres-data-file.js";
import {
  MigrationRefusedError,
  readSource,
  type SourceInfo,
} from "./migrate-to-postgres-source.js";
import {
  type AnyKysely,
  advanceSequences,
  copyOrder,
  copyTable,
  kyselyOn,
  type MigratedSequence,
  type TablePlan,
  targetChecksum,
  targetColumns,
  targetObjects,
} from "./migrate-to-postgres-target.js";
import type { ValueKind } from "./migrate-to-postgres-values.js";

// Moves a SQLite install into an empty PostgreSQL database: the store's schema by its own
// migrations, the auth library's by the caller's hook, then every row streamed by COPY, all in
// one PostgreSQL transaction that commits only when every table's count and checksum match.
// The SQLite side is read in migrate-to-postgres-source.ts, the PostgreSQL side copied and read
// back in migrate-to-postgres-target.ts, values compared by migrate-to-postgres-values.ts.

export { MigrationRefusedError } from "./migrate-to-postgres-source.js";

export type { AnyKysely, MigratedSequence } from "./migrate-to-postgres-target.js";
export {
  canonicalValue,
  type ValueKind,
  valueKindOf,
} from "./migrate-to-postgres-values.js";

export interface MigrateToPostgresOptions {
  /** The SQLite file (seed.db) to copy; opened read-only and never written. */
  sqliteFile: string;
  /** postgres:// URL of an empty database. */
  postgresUrl: string;
  /**
   * Creates the auth library's tables on the target, inside the migration's transaction. The web
   * app passes better-auth's own migrations, so the auth schema has one definition.
   */
  createAuthSchema?: (db: AnyKysely) => Promise<void>;
  /** Told after each table is copied. */
  onTableCopied?: (table: string, rows: number) => void;
  /** Rows per fetch when reading the target back (default 5,000). */
  fetchRows?: number;
}

export interface MigratedTable {
  table: string;
  sourceRows: number;
  targetRows: number;
  /** SHA-256 over the rows in primary-key order, values normalised the same way on both sides. */
  sourceChecksum: string;
  targetChecksum: string;
  matches: boolean;
}

export interface MigrateToPostgresResult {
  tables: MigratedTable[];
  sequences: MigratedSequence[];
}

/** The copy finished but did not verify; the transaction was rolled back. */
export class MigrationVerificationError extends Error {
  override name = "MigrationVerificationError";
  constructor(
    message: string,
    readonly tables: MigratedTable[],
  ) {
    super(message);
  }
}

function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "the target URL";
  }
}

/**
 * Copies the SQLite install at `sqliteFile` into the empty PostgreSQL database at `postgresUrl`:
 * schema, every row (ids, tokens and password hashes as they are), identity sequences advanced,
 * then per-table counts and checksums compared. One transaction: on any failure or mismatch the
 * target is left as empty as it was found. Throws MigrationRefusedError before writing anything
 * when the inputs are wrong.
 */
export async function migrateSqliteToPostgres(
  options: MigrateToPostgresOptions,
): Promise<MigrateToPostgresResult> {
  const fetchRows = options.fetchRows ?? 5_000;
  if (!options.sqliteFile?.trim()) {
    throw new MigrationRefusedError("No SQLite file to migrate from was given.");
  }
  if (!options.postgresUrl?.trim()) {
    throw new MigrationRefusedError("No PostgreSQL URL to migrate to was given.");
  }
  if (!/^postgres(?:ql)?:\/\//i.test(options.postgresUrl)) {
    throw new MigrationRefusedError("The target must be a postgres:// or postgresql:// URL.");
  }
  if (!existsSync(options.sqliteFile)) {
    throw new MigrationRefusedError(`There is no SQLite database at ${options.sqliteFile}.`);
  }
  // Rows kept in the DuckDB data file beside it are put back into a copy of the file first.
  let prepared: Awaited<ReturnType<typeof sqliteSourceWithRows>>;
  try {
    prepared = await sqliteSourceWithRows(options.sqliteFile);
  } catch (error) {
    if (error instanceof MigrationRefusedError) throw error;
    throw new MigrationRefusedError(
      `${options.sqliteFile} is not a SQLite database (${error instanceof Error ? error.message : error}); nothing was written.`,
    );
  }
  let source: BetterSqlite3.Database;
  try {
    source = new BetterSqlite3(prepared.file, { readonly: true, fileMustExist: true });
  } catch (error) {
    prepared.cleanup();
    throw new MigrationRefusedError(
      `${options.sqliteFile} is not a SQLite database (${error instanceof Error ? error.message : error}); nothing was written.`,
    );
  }
  const client = new pg.Client({ connectionString: options.postgresUrl });
  try {
    // One read transaction: every table is copied from the same snapshot of the source.
    source.exec("begin");
    const info = readSource(source, options.sqliteFile);
    try {
      await client.connect();
    } catch (error) {
      throw new MigrationRefusedError(
        `Could not connect to ${describeUrl(options.postgresUrl)}: ${error instanceof Error ? error.message : error}`,
      );
    }
    await client.query("begin");
    try {
      const result = await migrateInTransaction(client, source, info, options, fetchRows);
      await client.query("commit");
      return result;
    } catch (error) {
      await client.query("rollback").catch(() => undefined);
      if (error instanceof MigrationRefusedError || error instanceof MigrationVerificationError) {
        throw error;
      }
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`The migration failed and was rolled back; the target is empty: ${reason}`, {
        cause: error,
      });
    }
  } finally {
    source.close();
    prepared.cleanup();
    await client.end().catch(() => undefined);
  }
}

async function migrateInTransaction(
  client: pg.Client,
  source: BetterSqlite3.Database,
  info: SourceInfo,
  options: MigrateToPostgresOptions,
  fetchRows: number,
): Promise<MigrateToPostgresResult> {
  // App instances starting on this database wait here until the copy commits or rolls back.
  await client.query("select pg_advisory_xact_lock($1)", [postgresSetupLockKey]);
  await client.query("set local datestyle = 'ISO, YMD'");
  await client.query("set local extra_float_digits = 1");
  const existing = await targetObjects(client);
  if (existing.length > 0) {
    const shown = existing.slice(0, 5).join(", ") + (existing.length > 5 ? ", ..." : "");
    throw new MigrationRefusedError(
      `The target database is not empty (${existing.length} tables or other objects: ${shown}); migrate into a new, empty database. Nothing was written.`,
    );
  }

  const db = kyselyOn(client);
  const migrated = await new Migrator({
    db,
    provider: migrationProvider,
    migrationTableName,
    migrationLockTableName,
    // Already inside this function's transaction, which makes the DDL atomic with the copy.
    disableTransactions: true,
  }).migrateToLatest();
  if (migrated.error) throw migrated.error;
  await options.createAuthSchema?.(db);
  for (const dataset of info.datasets) {
    await createRowsTable(db, dataset, { indexes: false });
  }

  const target = await targetColumns(client);
  const datasetTables = new Set(info.datasets.map((dataset) => dataset.table));
  const unknown = [...info.tables.keys()].filter((table) => !target.has(table));
  if (unknown.length > 0) {
    throw new MigrationRefusedError(
      `The source has tables this version of Seed Charts does not create: ${unknown.join(", ")}. Nothing was written.`,
    );
  }
  const plans = new Map<string, TablePlan>();
  for (const table of info.tables.values()) {
    const kinds = target.get(table.name) as Map<string, ValueKind>;
    const missing = table.columns.filter((column) => !kinds.has(column));
    if (missing.length > 0) {
      throw new MigrationRefusedError(
        `The target's ${table.name} table lacks the source's columns ${missing.join(", ")}. Nothing was written.`,
      );
    }
    plans.set(table.name, {
      table: table.name,
      columns: table.columns,
      kinds: table.columns.map((column) => kinds.get(column) ?? "text"),
      orderBy: table.primaryKey.length > 0 ? table.primaryKey : table.columns,
    });
  }

  const order = await copyOrder(client, [...plans.keys()]);
  const copied = new Map<string, { rows: number; checksum: string }>();
  for (const table of order) {
    const plan = plans.get(table) as TablePlan;
    const result = await copyTable(source, client, plan);
    copied.set(table, result);
    options.onTableCopied?.(table, result.rows);
  }
  for (const dataset of info.datasets) await createRowsIndexes(db, dataset);
  const sequences = await advanceSequences(client);

  const tables: MigratedTable[] = [];
  for (const table of [...plans.keys()].sort((a, b) => {
    const rank = (name: string) => (datasetTables.has(name) ? 1 : 0);
    return rank(a) - rank(b) || a.localeCompare(b);
  })) {
    const plan = plans.get(table) as TablePlan;
    const fromSource = copied.get(table) as { rows: number; checksum: string };
    const fromTarget = await targetChecksum(client, plan, fetchRows);
    tables.push({
      table,
      sourceRows: fromSource.rows,
      targetRows: fromTarget.rows,
      sourceChecksum: fromSource.checksum,
      targetChecksum: fromTarget.checksum,
      matches: fromSource.rows === fromTarget.rows && fromSource.checksum === fromTarget.checksum,
    });
  }
  const mismatched = tables.filter((table) => !table.matches).map((table) => table.table);
  if (mismatched.length > 0) {
    throw new MigrationVerificationError(
      `The copy does not match the source in ${mismatched.join(", ")}; it was rolled back and the target is empty.`,
      tables,
    );
  }
  return { tables, sequences };
}
