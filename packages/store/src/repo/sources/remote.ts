// What a live source reaches on its server: testing a connection, listing tables, adding one as a live dataset.
import {
  type DatasetColumn,
  datasetLimits,
  type LiveDatasetInput,
  liveDatasetInputSchema,
  NotFoundError,
  type SourcePatch,
  sourcePatchSchema,
  ValidationError,
} from "@seed/model";
import { sql } from "kysely";
import type pg from "pg";
import { type Actor, authorize } from "../../access/policy.js";
import { newId, parseInput, type StoreContext } from "../../context.js";
import { isRemoteIdentifier } from "../../db/dataset-table.js";
import { createdWrite } from "../versioned-write.js";
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
  sourceFailure,
} from "./connections.js";
import { decryptPassword, sourcesKeyOf } from "./secret.js";
import {
  getSourceRowIn,
  requireSavedPasswordReusable,
  type SourceRow,
  savedEndpointOf,
} from "./sources.js";

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

export const maxListedTables = 1_000;

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
export const remoteTypes: Record<string, DatasetColumn["type"]> = {
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

export const remoteSourceOperations = {
  /** Connects with the given settings (blank password + sourceId: the saved one); never throws for remote failures. */
  testSourceConnection,
  /** The tables and views the source's user may read. */
  listSourceTables,
  /** Adds a remote table or view as a read-only live dataset, its columns from the catalog. */
  createLiveDataset,
};
