import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, type PostgresPoolClient } from "kysely";
import pg from "pg";
import { openCsvCopy } from "../db/bulk-load.js";
import {
  migrationLockTableName,
  migrationProvider,
  migrations,
  migrationTableName,
} from "../db/migrations.js";
import { postgresSetupLockKey } from "../db/open.js";
import { createRowsIndexes, createRowsTable } from "../repo/datasets/rows-table.js";
import { type DatasetColumn, type DatasetTable, datasetTableName } from "../repo/datasets/table.js";

// Moves a SQLite install into an empty PostgreSQL database: the store's schema by its own
// migrations, the auth library's by the caller's hook, then every row streamed by COPY, all in
// one PostgreSQL transaction that commits only when every table's count and checksum match.

// biome-ignore lint/suspicious/noExplicitAny: the auth library's tables are outside the store's schema type.
export type AnyKysely = Kysely<any>;

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

export interface MigratedSequence {
  table: string;
  column: string;
  /** The value the next insert gets. */
  next: string;
}

export interface MigrateToPostgresResult {
  tables: MigratedTable[];
  sequences: MigratedSequence[];
}

/** Refused before anything was written (bad input, non-empty target, not a Seed database). */
export class MigrationRefusedError extends Error {
  override name = "MigrationRefusedError";
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

/** How a column's values compare across engines; decided by the target column's type. */
export type ValueKind = "boolean" | "timestamp" | "date" | "integer" | "float" | "json" | "text";

export function valueKindOf(postgresType: string): ValueKind {
  switch (postgresType) {
    case "boolean":
      return "boolean";
    case "timestamp with time zone":
    case "timestamp without time zone":
      return "timestamp";
    case "date":
      return "date";
    case "smallint":
    case "integer":
    case "bigint":
      return "integer";
    case "real":
    case "double precision":
    case "numeric":
      return "float";
    case "json":
    case "jsonb":
      return "json";
    default:
      return "text";
  }
}

function booleanOf(value: unknown): boolean {
  if (value === true || value === 1 || value === 1n) return true;
  if (value === false || value === 0 || value === 0n) return false;
  const text = String(value).toLowerCase();
  if (text === "1" || text === "t" || text === "true") return true;
  if (text === "0" || text === "f" || text === "false") return false;
  throw new Error(`${JSON.stringify(String(value))} is not a boolean`);
}

/** Epoch milliseconds from SQLite's forms (ms numbers, ISO text) or PostgreSQL's (ms as text). */
function epochMsOf(value: unknown): number {
  let ms: number;
  if (typeof value === "number") ms = value;
  else if (typeof value === "bigint") ms = Number(value);
  else {
    const text = String(value);
    if (/^-?\d+(\.\d+)?$/.test(text)) ms = Number(text);
    else {
      // Date-times without a zone (SQLite's CURRENT_TIMESTAMP form) are UTC, never local time.
      const zoneless = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(text);
      ms = Date.parse(zoneless ? `${text.replace(" ", "T")}${text.length > 10 ? "Z" : ""}` : text);
    }
  }
  if (!Number.isFinite(ms)) throw new Error(`${JSON.stringify(String(value))} is not a timestamp`);
  return Math.round(ms);
}

function numberText(value: number): string {
  return Object.is(value, -0) ? "-0" : String(value);
}

function sortedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedJson);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortedJson((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * One text form per value, whichever engine it was read from: the checksum input. Booleans as
 * true/false, timestamps as epoch ms, numbers as JavaScript prints them, JSON with sorted keys.
 */
export function canonicalValue(kind: ValueKind, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) throw new Error("binary values are not supported");
  switch (kind) {
    case "boolean":
      return booleanOf(value) ? "true" : "false";
    case "timestamp":
      return String(epochMsOf(value));
    case "integer": {
      if (typeof value === "bigint") return value.toString();
      const text = String(value);
      return /^-?\d+$/.test(text) ? BigInt(text).toString() : numberText(Number(text));
    }
    case "float":
      return numberText(typeof value === "number" ? value : Number(String(value)));
    case "json":
      return JSON.stringify(sortedJson(JSON.parse(String(value))));
    default:
      return String(value);
  }
}

/** A source value as COPY's CSV input for a column of this kind. */
function copyValue(kind: ValueKind, value: unknown): string | null {
  const canonical = canonicalValue(kind, value);
  if (canonical === null) return null;
  if (kind === "timestamp") return new Date(Number(canonical)).toISOString();
  if (kind === "json") return String(value);
  return canonical;
}

/** Rows in order into SHA-256; every value length-prefixed so no two row lists hash alike. */
class TableChecksum {
  readonly #hash = createHash("sha256");
  rows = 0;
  constructor(columns: readonly string[]) {
    this.#hash.update(`${JSON.stringify(columns)}\n`);
  }
  add(values: ReadonlyArray<string | null>) {
    for (const value of values) {
      this.#hash.update(value === null ? "\u0000N" : `${value.length}:${value}`);
    }
    this.#hash.update("\n");
    this.rows += 1;
  }
  digest(): string {
    return this.#hash.digest("hex");
  }
}

function quoteIdentifier(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
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

interface SourceTable {
  name: string;
  columns: string[];
  primaryKey: string[];
}

interface SourceInfo {
  tables: Map<string, SourceTable>;
  datasets: DatasetTable[];
}

const storeBookkeeping = new Set([migrationTableName, migrationLockTableName]);

function readSource(database: BetterSqlite3.Database, file: string): SourceInfo {
  const refuse = (reason: string): never => {
    throw new MigrationRefusedError(
      `${file} is not a Seed Charts SQLite database (${reason}); nothing was written.`,
    );
  };
  let names: string[];
  try {
    names = (
      database
        .prepare(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name",
        )
        .all() as { name: string }[]
    ).map((row) => row.name);
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
  if (!names.includes(migrationTableName) || !names.includes("datasets")) {
    return refuse("it has no Seed Charts tables");
  }
  const applied = (
    database.prepare(`select name from ${quoteIdentifier(migrationTableName)}`).all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  const known = Object.keys(migrations);
  const missing = known.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new MigrationRefusedError(
      `${file} was migrated by a newer version of Seed Charts (${unknown.join(", ")}); run this command from that version. Nothing was written.`,
    );
  }
  if (missing.length > 0) {
    throw new MigrationRefusedError(
      `${file} lacks the migrations ${missing.join(", ")}: start the app once on this version so it migrates the file, then try again. Nothing was written.`,
    );
  }
  const tables = new Map<string, SourceTable>();
  for (const name of names) {
    if (storeBookkeeping.has(name)) continue;
    const info = database.prepare(`pragma table_info(${quoteIdentifier(name)})`).all() as {
      name: string;
      pk: number;
    }[];
    tables.set(name, {
      name,
      columns: info.map((column) => column.name),
      primaryKey: info
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name),
    });
  }
  const datasets = (
    database
      .prepare("select id, columns_json from datasets where source_id is null order by id")
      .all() as {
      id: string;
      columns_json: string;
    }[]
  ).map((row) => ({
    table: datasetTableName(row.id),
    columns: JSON.parse(row.columns_json) as DatasetColumn[],
  }));
  for (const dataset of datasets) {
    if (!tables.has(dataset.table)) refuse(`the rows table ${dataset.table} is missing`);
  }
  return { tables, datasets };
}

/** A Kysely instance whose every query runs on this one client, inside its open transaction. */
function kyselyOn(client: pg.Client): AnyKysely {
  const connection = {
    query: (text: string, parameters: unknown[]) => client.query(text, parameters),
    release: () => {},
  } as unknown as PostgresPoolClient;
  return new Kysely({
    dialect: new PostgresDialect({
      pool: { connect: async () => connection, end: async () => {} },
    }),
  });
}

async function targetObjects(client: pg.Client): Promise<string[]> {
  const result = await client.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
        and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
        and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
      order by 1`,
  );
  return result.rows.map((row) => row.name);
}

async function targetColumns(client: pg.Client): Promise<Map<string, Map<string, ValueKind>>> {
  const result = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    `select table_name, column_name, data_type from information_schema.columns
      where table_schema = current_schema() order by table_name, ordinal_position`,
  );
  const tables = new Map<string, Map<string, ValueKind>>();
  for (const row of result.rows) {
    const columns = tables.get(row.table_name) ?? new Map<string, ValueKind>();
    columns.set(row.column_name, valueKindOf(row.data_type));
    tables.set(row.table_name, columns);
  }
  return tables;
}

/** Parents before children, by the target's foreign keys; ties in name order. */
async function copyOrder(client: pg.Client, tables: readonly string[]): Promise<string[]> {
  const result = await client.query<{ child: string; parent: string }>(
    `select child.relname as child, parent.relname as parent
       from pg_constraint k
       join pg_class child on child.oid = k.conrelid
       join pg_class parent on parent.oid = k.confrelid
       join pg_namespace n on n.oid = child.relnamespace
      where k.contype = 'f' and n.nspname = current_schema()`,
  );
  const pending = new Set(tables);
  const order: string[] = [];
  while (pending.size > 0) {
    const ready = [...pending]
      .filter(
        (table) =>
          !result.rows.some(
            (row) => row.child === table && row.parent !== table && pending.has(row.parent),
          ),
      )
      .sort();
    // A cycle would leave nothing ready; copying the rest in name order then fails loudly.
    const next = ready.length > 0 ? ready : [...pending].sort();
    for (const table of next) {
      order.push(table);
      pending.delete(table);
    }
  }
  return order;
}

interface TablePlan {
  table: string;
  columns: string[];
  kinds: ValueKind[];
  orderBy: string[];
}

function sourceSelect(plan: TablePlan): string {
  return `select ${plan.columns.map(quoteIdentifier).join(", ")} from ${quoteIdentifier(
    plan.table,
  )} order by ${plan.orderBy.map(quoteIdentifier).join(", ")}`;
}

/** Text of every column (timestamps as epoch ms), ordered like SQLite's BINARY collation. */
function targetSelect(plan: TablePlan): string {
  const values = plan.columns.map((column, index) =>
    plan.kinds[index] === "timestamp"
      ? `round(extract(epoch from ${quoteIdentifier(column)}) * 1000)::text`
      : `${quoteIdentifier(column)}::text`,
  );
  // Qualified, so ORDER BY sorts the stored column, not the text output column of that name.
  const order = plan.orderBy.map((column) => {
    const kind = plan.kinds[plan.columns.indexOf(column)];
    return kind === "text" || kind === "date" || kind === "json"
      ? `source.${quoteIdentifier(column)}::text collate "C"`
      : `source.${quoteIdentifier(column)}`;
  });
  return `select ${values.join(", ")} from ${quoteIdentifier(plan.table)} as source order by ${order.join(", ")}`;
}

async function copyTable(
  source: BetterSqlite3.Database,
  client: pg.Client,
  plan: TablePlan,
): Promise<{ rows: number; checksum: string }> {
  const checksum = new TableChecksum(plan.columns);
  const writer = openCsvCopy(
    client,
    `copy ${quoteIdentifier(plan.table)} (${plan.columns.map(quoteIdentifier).join(", ")})`,
  );
  const statement = source.prepare(sourceSelect(plan)).raw(true).safeIntegers(true);
  try {
    for (const row of statement.iterate() as Iterable<unknown[]>) {
      checksum.add(row.map((value, index) => canonicalValue(plan.kinds[index] ?? "text", value)));
      const pending = writer.write(
        row.map((value, index) => copyValue(plan.kinds[index] ?? "text", value)),
      );
      if (pending) await pending;
    }
    await writer.close();
  } catch (error) {
    await writer.abort();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Copying ${plan.table} failed: ${reason}`, { cause: error });
  }
  return { rows: checksum.rows, checksum: checksum.digest() };
}

async function targetChecksum(
  client: pg.Client,
  plan: TablePlan,
  fetchRows: number,
): Promise<{ rows: number; checksum: string }> {
  const checksum = new TableChecksum(plan.columns);
  await client.query(`declare seed_verify no scroll cursor for ${targetSelect(plan)}`);
  for (;;) {
    const batch = await client.query<unknown[]>({
      text: `fetch forward ${fetchRows} from seed_verify`,
      rowMode: "array",
    });
    for (const row of batch.rows) {
      checksum.add(row.map((value, index) => canonicalValue(plan.kinds[index] ?? "text", value)));
    }
    if (batch.rows.length < fetchRows) break;
  }
  await client.query("close seed_verify");
  return { rows: checksum.rows, checksum: checksum.digest() };
}

/** Moves every identity and serial column's sequence past the largest copied value. */
async function advanceSequences(client: pg.Client): Promise<MigratedSequence[]> {
  const columns = await client.query<{ table_name: string; column_name: string; seq: string }>(
    `select table_name, column_name,
            pg_get_serial_sequence(quote_ident(table_name), column_name) as seq
       from information_schema.columns
      where table_schema = current_schema()
        and (is_identity = 'YES' or column_default like 'nextval(%')
      order by table_name, column_name`,
  );
  const advanced: MigratedSequence[] = [];
  for (const { table_name: table, column_name: column, seq } of columns.rows) {
    if (!seq) continue;
    const result = await client.query<{ next: string }>(
      `select setval($1, coalesce((select max(${quoteIdentifier(column)}) from ${quoteIdentifier(
        table,
      )}), 0) + 1, false)::text as next`,
      [seq],
    );
    advanced.push({ table, column, next: result.rows[0]?.next ?? "1" });
  }
  return advanced;
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
  let source: BetterSqlite3.Database;
  try {
    source = new BetterSqlite3(options.sqliteFile, { readonly: true, fileMustExist: true });
  } catch (error) {
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
