import type { AuditAction, Executor, RecordedActor, StoreContext } from "../context.js";

/** Entities whose every saved state is kept: what was changed, by whom and when. */
export type VersionedEntity = "chart" | "dashboard";

/** One saved state of a chart or dashboard. */
export interface EntityVersion {
  version: number;
  at: string;
  actor: { id: string; email: string };
  /** What made it: e.g. chart.update, dashboard.publish, dashboard.restore. */
  action: string;
  /** Set when this version is a restore of an older one. */
  restoredFrom: number | null;
}

/** What the entity was at that version, in the shape its update takes (restore replays it). */
export type VersionSnapshot = Record<string, unknown>;

export interface EntityVersionWithSnapshot extends EntityVersion {
  snapshot: VersionSnapshot;
}

/** One readable difference between two versions. */
export interface VersionChange {
  /** A stable key: "title", "options", "tiles.<tile id>". */
  path: string;
  /** For people: "Title", "Tile 2 (chart)". */
  label: string;
  /** null when the field or tile did not exist on that side. */
  before: string | null;
  after: string | null;
}

/** Kept in the same transaction as the change itself, so history never misses or invents one. */
export async function recordVersion(
  trx: Executor,
  ctx: StoreContext,
  entry: {
    entityType: VersionedEntity;
    entityId: string;
    version: number;
    actor: RecordedActor;
    action: AuditAction;
    snapshot: VersionSnapshot;
    restoredFrom?: number | null;
  },
): Promise<void> {
  await trx
    .insertInto("entity_versions")
    .values({
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      version: entry.version,
      at: ctx.now().toISOString(),
      actor_id: entry.actor.id,
      actor_email: entry.actor.email,
      action: entry.action,
      snapshot_json: JSON.stringify(entry.snapshot),
      restored_from: entry.restoredFrom ?? null,
    })
    .execute();
}

function toVersion(row: {
  version: number | string;
  at: string;
  actor_id: string;
  actor_email: string;
  action: string;
  restored_from: number | string | null;
}): EntityVersion {
  return {
    version: Number(row.version),
    at: row.at,
    actor: { id: row.actor_id, email: row.actor_email },
    action: row.action,
    restoredFrom: row.restored_from === null ? null : Number(row.restored_from),
  };
}

/** Every kept version of one entity, newest first (at most `limit`). */
export async function listVersions(
  ctx: StoreContext,
  entityType: VersionedEntity,
  entityId: string,
  limit = 200,
): Promise<EntityVersion[]> {
  const rows = await ctx.db
    .selectFrom("entity_versions")
    .select(["version", "at", "actor_id", "actor_email", "action", "restored_from"])
    .where("entity_type", "=", entityType)
    .where("entity_id", "=", entityId)
    .orderBy("version", "desc")
    .limit(Math.max(1, Math.min(limit, 1000)))
    .execute();
  return rows.map(toVersion);
}

export async function getVersionIn(
  trx: Executor,
  entityType: VersionedEntity,
  entityId: string,
  version: number,
): Promise<EntityVersionWithSnapshot | null> {
  if (!Number.isSafeInteger(version) || version < 1) return null;
  const row = await trx
    .selectFrom("entity_versions")
    .selectAll()
    .where("entity_type", "=", entityType)
    .where("entity_id", "=", entityId)
    .where("version", "=", version)
    .executeTakeFirst();
  if (!row) return null;
  return { ...toVersion(row), snapshot: JSON.parse(row.snapshot_json) as VersionSnapshot };
}

const fieldLabels: Record<string, string> = {
  title: "Title",
  type: "Chart type",
  datasetId: "Dataset",
  query: "Query",
  options: "Options",
  slug: "Address (slug)",
  description: "Description",
  icon: "Icon",
  timeZone: "Time zone",
  status: "Status",
  filters: "Dashboard filters",
};

function labelOf(field: string): string {
  return (
    fieldLabels[field] ?? field.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase())
  );
}

/** A dashboard's filter columns as a sentence: "Date range by month; categories: region, channel". */
function describeFilters(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return null;
  const { dateColumn, categories } = value as { dateColumn?: unknown; categories?: unknown };
  const parts = [
    typeof dateColumn === "string" ? `Date range by ${dateColumn}` : "No date range",
    Array.isArray(categories) && categories.length > 0
      ? `categories: ${categories.join(", ")}`
      : "no categories",
  ];
  return parts.join("; ");
}

function show(value: unknown, key?: string): string | null {
  if (value === undefined) return null;
  if (key === "filters") return describeFilters(value) ?? JSON.stringify(value);
  if (value === null) return "(none)";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

interface TileSnapshot {
  id?: string;
  kind?: string;
  layout?: { x: number; y: number; w: number; h: number };
  [key: string]: unknown;
}

function describeTile(tile: TileSnapshot): string {
  const { id: _id, kind, layout, ...settings } = tile;
  const place = layout
    ? `column ${layout.x + 1}, row ${layout.y + 1}, ${layout.w}×${layout.h}`
    : "no place";
  return `${kind ?? "tile"} at ${place}; ${JSON.stringify(settings)}`;
}

/** The fields and tiles that differ from `from` to `to`, in a stable order. */
export function diffSnapshots(from: VersionSnapshot, to: VersionSnapshot): VersionChange[] {
  const changes: VersionChange[] = [];
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].filter(
    (key) => key !== "tiles",
  );
  for (const key of keys) {
    const before = show(from[key], key);
    const after = show(to[key], key);
    if (before !== after) changes.push({ path: key, label: labelOf(key), before, after });
  }
  const fromTiles = (Array.isArray(from.tiles) ? from.tiles : []) as TileSnapshot[];
  const toTiles = (Array.isArray(to.tiles) ? to.tiles : []) as TileSnapshot[];
  if (fromTiles.length === 0 && toTiles.length === 0) return changes;
  const before = new Map(fromTiles.map((tile, index) => [tile.id ?? `#${index}`, tile]));
  const after = new Map(toTiles.map((tile, index) => [tile.id ?? `#${index}`, tile]));
  const order = [...new Set([...after.keys(), ...before.keys()])];
  for (const [index, id] of order.entries()) {
    const was = before.get(id);
    const is = after.get(id);
    const shownBefore = was ? describeTile(was) : null;
    const shownAfter = is ? describeTile(is) : null;
    if (shownBefore === shownAfter) continue;
    changes.push({
      path: `tiles.${id}`,
      label: `Tile ${index + 1} (${(is ?? was)?.kind ?? "tile"})`,
      before: shownBefore,
      after: shownAfter,
    });
  }
  return changes;
}

/** One kept version with what the entity was then, or null. */
export function getVersion(
  ctx: StoreContext,
  entityType: VersionedEntity,
  entityId: string,
  version: number,
): Promise<EntityVersionWithSnapshot | null> {
  return getVersionIn(ctx.db, entityType, entityId, version);
}

/** What changed from version `from` to version `to` (null when either is not kept). */
export async function compareVersions(
  ctx: StoreContext,
  entityType: VersionedEntity,
  entityId: string,
  from: number,
  to: number,
): Promise<VersionChange[] | null> {
  const [before, after] = await Promise.all([
    getVersionIn(ctx.db, entityType, entityId, from),
    getVersionIn(ctx.db, entityType, entityId, to),
  ]);
  return before && after ? diffSnapshots(before.snapshot, after.snapshot) : null;
}

/** A chart's or dashboard's kept versions, newest first. */
export const historyOperations = { listVersions, getVersion, compareVersions };
