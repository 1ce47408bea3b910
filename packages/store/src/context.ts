import { type AuditEntityType, formatZodError, ValidationError } from "@seed/model";
import type { Kysely, Transaction } from "kysely";
import type { z } from "zod";
import type { RowsHome } from "./db/rows-home.js";
import type { StoreDatabase } from "./db/schema.js";
import type { PostgresSqlReader } from "./db/sql-sandbox-postgres.js";
import type { SqlSnapshots } from "./db/sql-snapshots.js";
import type { QueryObserver } from "./engine/execute.js";
import type { ResultCache } from "./engine/result-cache.js";
import type { SourcePools } from "./repo/sources/connections.js";

export type Executor = Kysely<StoreDatabase> | Transaction<StoreDatabase>;

export interface StoreContext {
  db: Kysely<StoreDatabase>;
  now: () => Date;
  /** Where datasets' rows live and how they are read and written (db/rows-home.ts). */
  rows: RowsHome;
  /** Told the duration of every chart and stat query (OpenStoreOptions.observeQuery). */
  observeQuery?: QueryObserver;
  /** Query results per dataset version, in this process (engine/result-cache.ts). */
  resultCache: ResultCache;
  /** Live sources' connection pools of this process (src/repo/sources). */
  sources: SourcePools;
  /** The key that encrypts source passwords (SEED_SOURCES_KEY), read when needed. */
  sourcesKey: () => string | undefined;
  /** Where SQL questions run: Parquet snapshots for DuckDB, or PostgreSQL's reader role (or none). */
  sql: { snapshots: SqlSnapshots; reader: PostgresSqlReader | null };
}

/** Who made a change, as the audit log, history and tokens record them. */
export interface RecordedActor {
  id: string;
  email: string;
}

export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.output<Schema> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(formatZodError(result.error));
  return result.data;
}

export function newId(): string {
  return crypto.randomUUID();
}

export type AuditAction =
  | "dataset.create"
  | "dataset.update"
  | "dataset.delete"
  | "chart.create"
  | "chart.update"
  | "chart.delete"
  | "chart.restore"
  | "dashboard.create"
  | "dashboard.update"
  | "dashboard.delete"
  | "dashboard.publish"
  | "dashboard.unpublish"
  | "dashboard.restore"
  | "dataset.token-create"
  | "dataset.token-revoke"
  | "dataset.push"
  /** A signed embed link was made (the web app records it; links themselves are not stored). */
  | "dashboard.sign-embed-link"
  | "source.create"
  | "source.update"
  | "source.delete"
  /** A SQL question ran (or was refused by the engine): its text, rows and time. */
  | "question.run"
  | "settings.update"
  /** A scheduled report was made, changed or deleted by its owner (or an admin). */
  | "report.create"
  | "report.update"
  | "report.delete"
  /** Someone asked for a run now, outside the schedule. */
  | "report.run-now"
  /** A run of a report reached every recipient, or failed for some or all (the scheduler's). */
  | "report.send"
  | "report.fail"
  /** A recipient followed their unsubscribe link. */
  | "report.unsubscribe"
  /** An alert was made, changed, deleted or snoozed by its owner (or an admin). */
  | "alert.create"
  | "alert.update"
  | "alert.delete"
  | "alert.snooze"
  /** A check found the alert's condition starting or stopping to hold (the scheduler's). */
  | "alert.fire"
  | "alert.resolve"
  /** An event reached every destination, or failed for some or all. */
  | "alert.send"
  | "alert.fail"
  | "alert.unsubscribe"
  /** An admin made, renamed or deleted a group of accounts, or chose its members. */
  | "group.create"
  | "group.rename"
  | "group.delete"
  | "group.update-members"
  /** A collection was made, changed (name, description) or deleted, or its grants set. */
  | "collection.create"
  | "collection.update"
  | "collection.delete"
  | "collection.set-grants"
  /** A dataset, chart, dashboard or source was moved into another collection (or Shared). */
  | "collection.move-item"
  /** An admin limited a group's access to a dataset's rows, or lifted that limit. */
  | "dataset.set-row-limit"
  | "dataset.clear-row-limit"
  /** A signed-in account's call the policy refused, recorded on that account (src/access/denials.ts). */
  | "user.denied"
  | UserAuditAction;

/** User-management events the web app records (better-auth keeps the users themselves). */
export type UserAuditAction = `user.${string}`;

const maxDetailLength = 2_000;

let auditSequence = 0;

/**
 * Audit ids sort in creation order (time, then a per-process counter, then randomness), so
 * events written in the same millisecond still list newest first. Lowercase base 36 of fixed
 * width compares the same under any PostgreSQL collation.
 */
export function newAuditId(at: Date): string {
  auditSequence = (auditSequence + 1) % 36 ** 6;
  return (
    Math.max(0, at.getTime()).toString(36).padStart(9, "0") +
    auditSequence.toString(36).padStart(6, "0") +
    crypto.randomUUID().replaceAll("-", "").slice(0, 12)
  );
}

/** Writes one audit row on the caller's transaction, so the change and its record commit together. */
/** One row of the audit log as callers see it. */
export interface WrittenAuditEvent {
  id: string;
  at: string;
  actor: RecordedActor;
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string;
  detail: Record<string, unknown>;
}

export async function writeAudit(
  trx: Executor,
  ctx: StoreContext,
  actor: RecordedActor,
  action: AuditAction,
  entityType: AuditEntityType,
  entityId: string,
  detail: Record<string, unknown>,
): Promise<WrittenAuditEvent> {
  let detailJson = JSON.stringify(detail);
  // The detail is a hint for humans, not a copy of the record: cap it so the log stays small.
  if (detailJson.length > maxDetailLength) detailJson = JSON.stringify({ truncated: true });
  const at = ctx.now();
  const id = newAuditId(at);
  await trx
    .insertInto("audit_events")
    .values({
      id,
      at: at.toISOString(),
      actor_id: actor.id,
      actor_email: actor.email,
      action,
      entity_type: entityType,
      entity_id: entityId,
      detail_json: detailJson,
    })
    .execute();
  return {
    id,
    at: at.toISOString(),
    actor: { id: actor.id, email: actor.email },
    action,
    entityType,
    entityId,
    detail: JSON.parse(detailJson) as Record<string, unknown>,
  };
}

/**
 * Unique-constraint failures (a unique index or a primary key) from better-sqlite3 and pg, told
 * apart from other errors.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  const code = (error as { code: unknown }).code;
  return (
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    code === "23505"
  );
}

export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}
