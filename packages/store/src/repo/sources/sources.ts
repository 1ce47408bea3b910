import {
  type DatasetColumn,
  datasetLimits,
  InUseError,
  type LiveDatasetInput,
  liveDatasetInputSchema,
  NotFoundError,
  type SourceInput,
  type SourcePatch,
  type SourceSslMode,
  sourceInputSchema,
  sourcePatchSchema,
  ValidationError,
} from "@seed/model";
import { type Selectable, sql } from "kysely";
import type pg from "pg";
import { type Actor, authorize } from "../../access/policy.js";
import { requireReusableSecret } from "../../access/secret-binding.js";
import {
  type Executor,
  isUniqueViolation,
  newId,
  parseInput,
  type RecordedActor,
  type StoreContext,
} from "../../context.js";
import type { DataSourcesTable } from "../../db/schema.js";
import { isRemoteIdentifier } from "../datasets/table.js";
import { createdWrite, versionedWrite } from "../versioned-write.js";
import {
  clientConfig,
  connectClient,
  describeRemoteError,
  endpointOf,
  type RemoteExecutor,
  type RemoteFailureDetail,
  readOnlyRemote,
  remoteFailureDetail,
  type SourceConnection,
  type SourceEndpoint,
  sourceFailure,
  sourcePasswordBinding,
} from "./connections.js";
import { decryptPassword, encryptPassword, sourcesKeyOf } from "./secret.js";

/** A live source as callers see it: never its password. */
export interface DataSource {
  id: string;
  name: string;
  host: string;
  port: number;
  database: string;
  user: string;
  sslMode: SourceSslMode;
  statementTimeoutMs: number;
  rowCap: number;
  cacheTtlSeconds: number;
  version: number;
  createdAt: string;
  updatedAt: string;
  createdBy: RecordedActor;
}

export type SourceRow = Selectable<DataSourcesTable>;

function toSource(row: SourceRow): DataSource {
  return {
    id: row.id,
    name: row.name,
    host: row.host,
    port: Number(row.port),
    database: row.database_name,
    user: row.user_name,
    sslMode: row.ssl_mode as SourceSslMode,
    statementTimeoutMs: Number(row.statement_timeout_ms),
    rowCap: Number(row.row_cap),
    cacheTtlSeconds: Number(row.cache_ttl_seconds),
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: { id: row.created_by_id, email: row.created_by_email },
  };
}

/** What the audit log keeps of a source: its settings, never the password. */
function auditDetail(source: DataSource): Record<string, unknown> {
  return {
    name: source.name,
    host: source.host,
    port: source.port,
    database: source.database,
    user: source.user,
    sslMode: source.sslMode,
    statementTimeoutMs: source.statementTimeoutMs,
    rowCap: source.rowCap,
    cacheTtlSeconds: source.cacheTtlSeconds,
  };
}

function nameTaken(): ValidationError {
  return new ValidationError({ fieldErrors: { name: ["Another source has this name."] } });
}

export async function getSourceRowIn(trx: Executor, id: string): Promise<SourceRow | undefined> {
  return trx.selectFrom("data_sources").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listSources(ctx: StoreContext): Promise<DataSource[]> {
  const rows = await ctx.db.selectFrom("data_sources").selectAll().orderBy("name").execute();
  return rows.map(toSource);
}

export async function getSource(ctx: StoreContext, id: string): Promise<DataSource | null> {
  const row = await getSourceRowIn(ctx.db, id);
  return row ? toSource(row) : null;
}

export async function createSource(
  ctx: StoreContext,
  input: SourceInput,
  actor: Actor,
): Promise<DataSource> {
  const checkedActor = authorize(actor, "sources.manage");
  const key = sourcesKeyOf(ctx.sourcesKey());
  const fields = parseInput(sourceInputSchema, input);
  const id = newId();
  const now = ctx.now().toISOString();
  const row: SourceRow = {
    id,
    name: fields.name,
    host: fields.host,
    port: fields.port,
    database_name: fields.database,
    user_name: fields.user,
    password_encrypted: encryptPassword(key, id, fields.password),
    ssl_mode: fields.sslMode,
    statement_timeout_ms: fields.statementTimeoutMs,
    row_cap: fields.rowCap,
    cache_ttl_seconds: fields.cacheTtlSeconds,
    version: 1,
    created_at: now,
    updated_at: now,
    created_by_id: checkedActor.id,
    created_by_email: checkedActor.email,
  };
  try {
    return await ctx.db.transaction().execute((trx) =>
      createdWrite(trx, ctx, checkedActor, {
        entityType: "source",
        id,
        create: async () => {
          await trx.insertInto("data_sources").values(row).execute();
          const source = toSource(row);
          return { result: source, action: "source.create", detail: auditDetail(source) };
        },
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function updateSource(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  patch: SourcePatch,
  actor: Actor,
): Promise<DataSource> {
  const checkedActor = authorize(actor, "sources.manage");
  const fields = parseInput(sourcePatchSchema, patch);
  const newPassword = fields.password ? fields.password : null;
  // A new password needs the key; keeping the old one does not.
  const key = newPassword === null ? null : sourcesKeyOf(ctx.sourcesKey());
  try {
    const updated = await ctx.db.transaction().execute((trx) =>
      versionedWrite(trx, ctx, checkedActor, {
        entityType: "source",
        id,
        expectedVersion,
        read: getSourceRowIn,
        change: async (saved, row) => {
          if (newPassword === null) requireSavedPasswordReusable(saved, fields);
          const values: Record<string, string | number> = {
            name: fields.name,
            host: fields.host,
            port: fields.port,
            database_name: fields.database,
            user_name: fields.user,
            ssl_mode: fields.sslMode,
            statement_timeout_ms: fields.statementTimeoutMs,
            row_cap: fields.rowCap,
            cache_ttl_seconds: fields.cacheTtlSeconds,
            updated_at: ctx.now().toISOString(),
          };
          if (key !== null && newPassword !== null) {
            values.password_encrypted = encryptPassword(key, id, newPassword);
          }
          await row.update(values);
          const source = toSource((await getSourceRowIn(trx, id)) as SourceRow);
          return {
            result: source,
            action: "source.update",
            detail: { ...auditDetail(source), passwordChanged: newPassword !== null },
          };
        },
      }),
    );
    await ctx.sources.release(id);
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/** Refused while datasets read from the source (InUseError names them): delete those first. */
export async function deleteSource(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  actor: Actor,
): Promise<void> {
  const checkedActor = authorize(actor, "sources.manage");
  await ctx.db.transaction().execute((trx) =>
    versionedWrite(trx, ctx, checkedActor, {
      entityType: "source",
      id,
      expectedVersion,
      read: getSourceRowIn,
      change: async (saved, row) => {
        const users = await trx
          .selectFrom("datasets")
          .select(["id", "name"])
          .where("source_id", "=", id)
          .orderBy("name")
          .execute();
        if (users.length > 0) {
          throw new InUseError(
            "source",
            id,
            users.map((user) => ({
              entityType: "dataset" as const,
              id: user.id,
              title: user.name,
            })),
          );
        }
        await row.remove();
        return { result: undefined, action: "source.delete", detail: auditDetail(toSource(saved)) };
      },
    }),
  );
  await ctx.sources.release(id);
}

function savedEndpointOf(row: SourceRow): SourceEndpoint {
  return {
    host: row.host,
    port: Number(row.port),
    database: row.database_name,
    user: row.user_name,
    sslMode: row.ssl_mode as SourceSslMode,
  };
}

/** The one check before a blank password field reuses the saved one (Test connection and Save). */
function requireSavedPasswordReusable(row: SourceRow, requested: SourceEndpoint): void {
  requireReusableSecret(sourcePasswordBinding, savedEndpointOf(row), endpointOf(requested), {
    field: "password",
    label: "password",
  });
}

/** The stored source's connection with its password decrypted (needs the key it was saved with). */
export function connectionOf(ctx: StoreContext, row: SourceRow): SourceConnection {
  const key = sourcesKeyOf(ctx.sourcesKey());
  return {
    ...savedEndpointOf(row),
    password: decryptPassword(key, row.id, row.password_encrypted),
  };
}

/** Runs `work` on the source's pool in a read-only transaction with its statement timeout. */
export async function withSource<T>(
  ctx: StoreContext,
  row: SourceRow,
  work: (executor: RemoteExecutor) => Promise<T>,
): Promise<T> {
  const connection = connectionOf(ctx, row);
  const db = await ctx.sources.executorOf(row.id, Number(row.version), connection);
  const timeout = Number(row.statement_timeout_ms);
  try {
    return await readOnlyRemote(db, timeout, work);
  } catch (error) {
    // Our own refusals (a query that does not fit) pass through; remote failures become a sentence.
    if (error instanceof ValidationError) throw error;
    throw sourceFailure(describeRemoteError(error, { statementTimeoutMs: timeout }));
  }
}

export type ConnectionTestResult =
  | { ok: true; serverVersion: string; warnings: string[] }
  | {
      ok: false;
      /** What the form shows: one sentence for every failure to connect or sign in. */
      reason: string;
      /** What happened, for the server log only. */
      detail: RemoteFailureDetail;
    };

/**
 * Connects with the form's settings and reports the server version, with a warning when the user
 * can write anything. A blank password on an existing source uses the saved one only for the
 * settings it was saved with; otherwise a ValidationError asks for it again.
 */
export async function testSourceConnection(
  ctx: StoreContext,
  input: SourcePatch & { sourceId?: string },
  actor: Actor,
): Promise<ConnectionTestResult> {
  authorize(actor, "sources.manage");
  const fields = parseInput(sourcePatchSchema, input);
  let password = fields.password ?? "";
  if (password === "" && input.sourceId) {
    const row = await getSourceRowIn(ctx.db, input.sourceId);
    if (!row) throw new NotFoundError("source", input.sourceId);
    requireSavedPasswordReusable(row, fields);
    password = connectionOf(ctx, row).password;
  }
  if (password === "") {
    throw new ValidationError({ fieldErrors: { password: ["Enter the password."] } });
  }
  let client: pg.Client | null = null;
  try {
    client = await connectClient({
      ...clientConfig({ ...endpointOf(fields), password }),
      statement_timeout: fields.statementTimeoutMs,
    });
    const result = await client.query<{
      version: string;
      superuser: boolean;
      writable_tables: string;
      can_create: boolean;
    }>(`select current_setting('server_version') as version,
      coalesce((select rolsuper from pg_roles where rolname = current_user), false) as superuser,
      (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
          and has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')) as writable_tables,
      has_database_privilege(current_database(), 'CREATE') as can_create`);
    const row = result.rows[0];
    const warnings: string[] = [];
    if (row?.superuser) {
      warnings.push("This user is a superuser: use a read-only role instead.");
    } else {
      const writable = Number(row?.writable_tables ?? 0);
      if (writable > 0) {
        warnings.push(
          `This user can write to ${writable.toLocaleString("en-US")} table${writable === 1 ? "" : "s"}: use a read-only role instead.`,
        );
      }
      if (row?.can_create) warnings.push("This user can create schemas in the database.");
    }
    return { ok: true, serverVersion: row?.version ?? "unknown", warnings };
  } catch (error) {
    return {
      ok: false,
      reason: describeRemoteError(error, { statementTimeoutMs: fields.statementTimeoutMs }),
      detail: remoteFailureDetail(error, password),
    };
  } finally {
    await client?.end().catch(() => undefined);
  }
}

export interface RemoteTable {
  schema: string;
  name: string;
  kind: "table" | "view";
}

const maxListedTables = 1_000;

/** The tables and views the source's user may read, from its catalog. */
export async function listSourceTables(
  ctx: StoreContext,
  sourceId: string,
  actor: Actor,
): Promise<RemoteTable[]> {
  authorize(actor, "sources.manage");
  const row = await getSourceRowIn(ctx.db, sourceId);
  if (!row) throw new NotFoundError("source", sourceId);
  return withSource(ctx, row, async (executor) => {
    const result = await sql<{
      table_schema: string;
      table_name: string;
      table_type: string;
    }>`select table_schema, table_name, table_type from information_schema.tables
      where table_schema not in ('pg_catalog', 'information_schema')
      order by table_schema, table_name limit ${sql.lit(maxListedTables)}`.execute(executor);
    return result.rows.map((table) => ({
      schema: table.table_schema,
      name: table.table_name,
      kind: table.table_type === "VIEW" ? "view" : "table",
    }));
  });
}

/** PostgreSQL's information_schema data types the query engine can read, by dataset type. */
const remoteTypes: Record<string, DatasetColumn["type"]> = {
  smallint: "number",
  integer: "number",
  bigint: "number",
  numeric: "number",
  real: "number",
  "double precision": "number",
  text: "string",
  "character varying": "string",
  character: "string",
  date: "date",
  "timestamp with time zone": "timestamp",
  "timestamp without time zone": "timestamp",
};

export interface DiscoveredColumns {
  columns: Array<{ id: string; name: string; type: DatasetColumn["type"] }>;
  /** One sentence naming the columns left out, or null. */
  note: string | null;
}

/** A remote table's or view's columns, mapped to dataset types; unsupported ones are listed. */
export async function discoverColumns(
  ctx: StoreContext,
  row: SourceRow,
  schema: string,
  table: string,
): Promise<DiscoveredColumns> {
  const found = await withSource(ctx, row, async (executor) => {
    const exists = await sql<{ n: unknown }>`select count(*) as n from information_schema.tables
      where table_schema = ${schema} and table_name = ${table}`.execute(executor);
    if (Number(exists.rows[0]?.n ?? 0) === 0) return null;
    return (
      await sql<{ column_name: string; data_type: string }>`select column_name, data_type
      from information_schema.columns where table_schema = ${schema} and table_name = ${table}
      order by ordinal_position`.execute(executor)
    ).rows;
  });
  if (found === null) {
    throw new ValidationError({
      fieldErrors: {
        table: [`The source has no table or view "${schema}.${table}" this user may read.`],
      },
    });
  }
  const columns: DiscoveredColumns["columns"] = [];
  const skipped: string[] = [];
  for (const column of found) {
    const type = remoteTypes[column.data_type];
    if (type === undefined || !isRemoteIdentifier(column.column_name)) {
      skipped.push(`${column.column_name} (${column.data_type})`);
    } else if (columns.length < datasetLimits.maxColumns) {
      columns.push({ id: column.column_name, name: column.column_name, type });
    } else {
      skipped.push(`${column.column_name} (past ${datasetLimits.maxColumns} columns)`);
    }
  }
  if (columns.length === 0) {
    throw new ValidationError({
      fieldErrors: { table: ["None of this table's columns has a type charts can read."] },
    });
  }
  const note =
    skipped.length > 0 ? `Columns left out (unsupported type): ${skipped.join(", ")}.` : null;
  return { columns, note };
}

/** Adds a remote table or view as a live dataset: read-only, its columns from the catalog. */
export async function createLiveDataset(
  ctx: StoreContext,
  input: LiveDatasetInput,
  actor: Actor,
): Promise<{ id: string; note: string | null }> {
  const checkedActor = authorize(actor, "sources.manage");
  const fields = parseInput(liveDatasetInputSchema, input);
  const row = await getSourceRowIn(ctx.db, fields.sourceId);
  if (!row) throw new NotFoundError("source", fields.sourceId);
  const { columns, note } = await discoverColumns(ctx, row, fields.schema, fields.table);
  const id = newId();
  const now = ctx.now().toISOString();
  const name = fields.name ? fields.name : fields.table;
  await ctx.db.transaction().execute((trx) =>
    createdWrite(trx, ctx, checkedActor, {
      entityType: "dataset",
      id,
      create: async () => {
        await trx
          .insertInto("datasets")
          .values({
            id,
            name,
            description: "",
            columns_json: JSON.stringify(columns),
            row_count: 0,
            version: 1,
            created_at: now,
            updated_at: now,
            source_id: row.id,
            source_schema: fields.schema,
            source_table: fields.table,
            source_note: note,
          })
          .execute();
        return {
          result: undefined,
          action: "dataset.create",
          detail: { name, live: { source: row.name, schema: fields.schema, table: fields.table } },
        };
      },
    }),
  );
  return { id, note };
}

/** Live PostgreSQL sources: never with their passwords. */
export const sourceOperations = {
  listSources,
  getSource,
  createSource,
  updateSource,
  deleteSource,
  testSourceConnection,
  listSourceTables,
  createLiveDataset,
};
