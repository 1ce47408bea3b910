import {
  ConflictError,
  type EntityType,
  InUseError,
  NotFoundError,
  type Permission,
  ValidationError,
} from "@seed/model";
import { type Actor, authorize } from "../access/policy.js";
import type { AuditAction, Executor, RecordedActor, StoreContext } from "../context.js";
import { writeAudit } from "../context.js";
import { assertEditable } from "./collections.js";
import { recordVersion, type VersionedEntity, type VersionSnapshot } from "./history.js";

// The one way a stored record changes: the version the caller read is checked, the change made,
// and its audit event and (for charts and dashboards) its history row written, all in the
// caller's transaction, so a change and its record commit or roll back together.

/** The table each versioned record lives in. */
const tableOf = {
  dataset: "datasets",
  chart: "charts",
  dashboard: "dashboards",
  source: "data_sources",
} as const satisfies Record<EntityType, string>;

/** What a write made and how the audit log and history record it. */
export interface WriteRecord<Result> {
  result: Result;
  action: AuditAction;
  detail: Record<string, unknown>;
  /** What history keeps of the record after the change (charts and dashboards only). */
  snapshot?: VersionSnapshot;
  /** Set when the change restores an older version. */
  restoredFrom?: number;
}

/** The record's row, changed under the version check (zero rows touched is a conflict). */
export interface VersionedRow {
  update(values: Record<string, string | number | null>): Promise<void>;
  remove(): Promise<void>;
}

function checkVersion(expectedVersion: number): number {
  if (!Number.isInteger(expectedVersion) || expectedVersion < 1) {
    throw new ValidationError({
      fieldErrors: { version: ["The version must be a positive whole number."] },
    });
  }
  return expectedVersion;
}

/**
 * Changes one existing record: reads it, checks the caller's version (NotFoundError,
 * ConflictError), runs `change`, then writes its audit event and history row.
 */
export function versionedWrite<Current extends { version: number }, Result>(
  ctx: StoreContext,
  actor: RecordedActor,
  write: VersionedWrite<Current, Result>,
): Promise<Result> {
  return ctx.db.transaction().execute((trx) => versionedWriteIn(trx, ctx, actor, write));
}

export interface VersionedWrite<Current, Result> {
  entityType: EntityType;
  id: string;
  expectedVersion: number;
  read: (trx: Executor, id: string) => Promise<Current | null | undefined>;
  change: (current: Current, row: VersionedRow, trx: Executor) => Promise<WriteRecord<Result>>;
}

/** versionedWrite on the caller's transaction (the push API and imports add their own records). */
export async function versionedWriteIn<Current extends { version: number }, Result>(
  trx: Executor,
  ctx: StoreContext,
  actor: RecordedActor,
  write: VersionedWrite<Current, Result>,
): Promise<Result> {
  const { entityType, id, expectedVersion } = write;
  checkVersion(expectedVersion);
  await assertEditable(trx, actor, entityType, id);
  const current = (await write.read(trx, id)) ?? undefined;
  assertVersion(entityType, id, current, expectedVersion);
  const row: VersionedRow = {
    update: (values) => updateVersioned(trx, entityType, id, expectedVersion, values),
    remove: () => deleteVersioned(trx, entityType, id, expectedVersion),
  };
  const made = await write.change(current, row, trx);
  await record(trx, ctx, actor, entityType, id, expectedVersion + 1, made);
  return made.result;
}

/** Makes a new record (version 1) with `create`, then writes its audit event and history row. */
export async function createdWrite<Result>(
  trx: Executor,
  ctx: StoreContext,
  actor: RecordedActor,
  write: { entityType: EntityType; id: string; create: () => Promise<WriteRecord<Result>> },
): Promise<Result> {
  const made = await write.create();
  await record(trx, ctx, actor, write.entityType, write.id, 1, made);
  return made.result;
}

async function record(
  trx: Executor,
  ctx: StoreContext,
  actor: RecordedActor,
  entityType: EntityType,
  id: string,
  version: number,
  made: WriteRecord<unknown>,
): Promise<void> {
  await writeAudit(trx, ctx, actor, made.action, entityType, id, made.detail);
  if (!made.snapshot) return;
  await recordVersion(trx, ctx, {
    entityType: entityType as VersionedEntity,
    entityId: id,
    version,
    actor,
    action: made.action,
    snapshot: made.snapshot,
    restoredFrom: made.restoredFrom ?? null,
  });
}

/** Throws NotFoundError or ConflictError when a versioned row is missing or changed. */
function assertVersion<Row extends { version: number }>(
  entityType: EntityType,
  id: string,
  row: Row | undefined,
  expectedVersion: number,
): asserts row is Row {
  if (!row) throw new NotFoundError(entityType, id);
  if (row.version !== expectedVersion) {
    throw new ConflictError(entityType, id, expectedVersion, row.version);
  }
}

/** UPDATE ... WHERE id = ? AND version = ?; zero affected rows means someone else won the race. */
async function updateVersioned(
  trx: Executor,
  entityType: EntityType,
  id: string,
  expectedVersion: number,
  values: Record<string, string | number | null>,
): Promise<void> {
  const result = await trx
    .updateTable(tableOf[entityType])
    .set({ ...values, version: expectedVersion + 1 })
    .where("id", "=", id)
    .where("version", "=", expectedVersion)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) await lostRace(trx, entityType, id, expectedVersion);
}

/** DELETE ... WHERE id = ? AND version = ?, with the same conflict reporting as updates. */
async function deleteVersioned(
  trx: Executor,
  entityType: EntityType,
  id: string,
  expectedVersion: number,
): Promise<void> {
  const result = await trx
    .deleteFrom(tableOf[entityType])
    .where("id", "=", id)
    .where("version", "=", expectedVersion)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) await lostRace(trx, entityType, id, expectedVersion);
}

/** After a guarded write touched no row: NotFoundError if it is gone, else ConflictError. */
async function lostRace(
  trx: Executor,
  entityType: EntityType,
  id: string,
  expectedVersion: number,
): Promise<never> {
  const current = await trx
    .selectFrom(tableOf[entityType])
    .select("version")
    .where("id", "=", id)
    .executeTakeFirst();
  assertVersion(entityType, id, current, expectedVersion);
  throw new ConflictError(entityType, id, expectedVersion, current.version);
}

/** A record that uses another, named in InUseError. */
export interface RecordUser {
  entityType: EntityType;
  id: string;
  title: string;
}

/**
 * The one shape of a delete: the permission, the version check, a refusal (InUseError) while
 * other records use it, the row and whatever goes with it removed, and the audit event.
 */
export function versionedDelete<Current extends { version: number }>(spec: {
  entityType: EntityType;
  permission: Permission;
  action: AuditAction;
  read: (trx: Executor, id: string) => Promise<Current | null | undefined>;
  usedBy?: (trx: Executor, id: string) => Promise<readonly RecordUser[]>;
  /** Throws when this record may not be deleted at all (a provisioned dashboard). */
  refuse?: (current: Current) => void;
  /** What goes with the record, in the same transaction (a dataset's own table). */
  alsoRemove?: (trx: Executor, id: string, ctx: StoreContext) => Promise<void>;
  /** After the commit (a source's connection pool). */
  afterwards?: (ctx: StoreContext, id: string) => Promise<void>;
  detail: (current: Current) => Record<string, unknown>;
}) {
  return async (
    ctx: StoreContext,
    id: string,
    expectedVersion: number,
    actor: Actor,
  ): Promise<void> => {
    await versionedWrite(ctx, authorize(actor, spec.permission), {
      entityType: spec.entityType,
      id,
      expectedVersion,
      read: spec.read,
      change: async (current, row, trx) => {
        spec.refuse?.(current);
        refuseWhileUsed(spec.entityType, id, (await spec.usedBy?.(trx, id)) ?? []);
        await row.remove();
        await spec.alsoRemove?.(trx, id, ctx);
        return { result: undefined, action: spec.action, detail: spec.detail(current) };
      },
    });
    await spec.afterwards?.(ctx, id);
  };
}

/** Refuses a delete while other records use this one (InUseError names them). */
export function refuseWhileUsed(
  entityType: EntityType,
  id: string,
  users: readonly RecordUser[],
): void {
  if (users.length > 0) throw new InUseError(entityType, id, users);
}

/** The dashboards with a tile on this chart or dataset. */
export async function dashboardsWithTilesOn(
  trx: Executor,
  column: "chart_id" | "dataset_id",
  id: string,
): Promise<{ entityType: "dashboard"; id: string; title: string }[]> {
  const rows = await trx
    .selectFrom("dashboard_tiles")
    .innerJoin("dashboards", "dashboards.id", "dashboard_tiles.dashboard_id")
    .select(["dashboards.id", "dashboards.title"])
    .where(`dashboard_tiles.${column}`, "=", id)
    .distinct()
    .execute();
  return rows.map((row) => ({ entityType: "dashboard", ...row }));
}
