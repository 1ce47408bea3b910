import {
  type SourceInput,
  type SourcePatch,
  type SourceSslMode,
  sourceInputSchema,
  sourcePatchSchema,
  ValidationError,
} from "@seed/model";
import type { Selectable } from "kysely";
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
import { createdWrite, versionedDelete, versionedWrite } from "../versioned-write.js";
import { endpointOf, type SourceEndpoint, sourcePasswordBinding } from "./connections.js";
import { encryptPassword, sourcesKeyOf } from "./secret.js";

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

export function toSource(row: SourceRow): DataSource {
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
    collection_id: null,
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
    const updated = await versionedWrite(ctx, checkedActor, {
      entityType: "source",
      id,
      expectedVersion,
      read: getSourceRowIn,
      change: async (saved, row, trx) => {
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
    });
    await ctx.sources.release(id);
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/** Refused while datasets read from the source (InUseError names them): delete those first. */
export const deleteSource = versionedDelete({
  entityType: "source",
  permission: "sources.manage",
  action: "source.delete",
  read: getSourceRowIn,
  usedBy: async (trx, id) => {
    const users = await trx
      .selectFrom("datasets")
      .select(["id", "name"])
      .where("source_id", "=", id)
      .orderBy("name")
      .execute();
    return users.map((user) => ({ entityType: "dataset" as const, id: user.id, title: user.name }));
  },
  afterwards: (ctx, id) => ctx.sources.release(id),
  detail: (current) => auditDetail(toSource(current)),
});

export function savedEndpointOf(row: SourceRow): SourceEndpoint {
  return {
    host: row.host,
    port: Number(row.port),
    database: row.database_name,
    user: row.user_name,
    sslMode: row.ssl_mode as SourceSslMode,
  };
}

/** The one check before a blank password field reuses the saved one (Test connection and Save). */
export function requireSavedPasswordReusable(row: SourceRow, requested: SourceEndpoint): void {
  requireReusableSecret(sourcePasswordBinding, savedEndpointOf(row), endpointOf(requested), {
    field: "password",
    label: "password",
  });
}

/** Live PostgreSQL sources: never with their passwords. */
export const sourceOperations = {
  listSources,
  getSource,
  createSource,
  updateSource,
  deleteSource,
};
