import { ConflictError, type EntityType, NotFoundError, ValidationError } from "@seed/model";
import type { AuditAction, Executor, RecordedActor, StoreContext } from "../context.js";
import { writeAudit } from "../context.js";
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
export async function versionedWrite<Current extends { version: number }, Result>(
  trx: Executor,
  ctx: StoreContext,
  actor: RecordedActor,
  write: {
    entityType: EntityType;
    id: string;
    expectedVersion: number;
    read: (trx: Executor, id: string) => Promise<Current | null | undefined>;
    change: (current: Current, row: VersionedRow) => Promise<WriteRecord<Result>>;
  },
): Promise<Result> {
  const { entityType, id, expectedVersion } = write;
  checkVersion(expectedVersion);
  const current = (await write.read(trx, id)) ?? undefined;
  assertVersion(entityType, id, current, expectedVersion);
  const made = await write.change(current, {
    update: (values) => updateVersioned(trx, entityType, id, expectedVersion, values),
    remove: () => deleteVersioned(trx, entityType, id, expectedVersion),
  });
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
