// Dashboards: listing and the versioned writes (details, tiles, layout, filters, publishing,
// restore, delete). What pages render from them is read in ../render/.
import {
  type DashboardFilterConfig,
  type DashboardInput,
  type DashboardLayoutInput,
  type DashboardPatch,
  dashboardInputSchema,
  dashboardLayoutSchema,
  dashboardLimits,
  dashboardPatchSchema,
  formatZodError,
  NotFoundError,
  type TileInput,
  ValidationError,
} from "@seed/model";
import { type Actor, authorize } from "../../access/policy.js";
import {
  type AuditAction,
  type Executor,
  isUniqueViolation,
  newId,
  parseInput,
  type RecordedActor,
  type StoreContext,
} from "../../context.js";
import type { DashboardsTable } from "../../db/schema.js";
import { getVersionIn, type VersionSnapshot } from "../history.js";
import { createdWrite, versionedDelete, versionedWriteIn } from "../versioned-write.js";
import { checkFilterColumns, getDashboardFilterColumns } from "./filters.js";
import {
  getDashboard,
  getDashboardIn,
  listDashboards,
  listPublishedDashboards,
} from "./records.js";
import { gridProblems, type TileWrite, tileToInput, writeTiles } from "./tiles.js";
import type { Dashboard, DashboardTile, DashboardWithTiles } from "./types.js";

function duplicateSlug(slug: string): ValidationError {
  return new ValidationError({
    fieldErrors: { slug: [`The slug "${slug}" is already used by another dashboard.`] },
  });
}

async function assertSlugFree(trx: Executor, slug: string, exceptId?: string): Promise<void> {
  let query = trx.selectFrom("dashboards").select("id").where("slug", "=", slug);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  if (await query.executeTakeFirst()) throw duplicateSlug(slug);
}

/** Runs a dashboard write, turning a unique-slug race lost at commit into the same field error. */
async function withSlugGuard<T>(slug: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (slug !== undefined && isUniqueViolation(error)) throw duplicateSlug(slug);
    throw error;
  }
}

/**
 * A dashboard kept from a file of the dashboards folder changes only through that file (the
 * provisioning run), never in the app or by another file's import: the one home of the rule.
 */
export function refuseManaged(dashboard: { managedFile: string | null }): void {
  if (dashboard.managedFile === null) return;
  throw new ValidationError({
    fieldErrors: {},
    formError: `This dashboard is kept from the file "${dashboard.managedFile}" in the dashboards folder; change the file instead.`,
  });
}

export async function createDashboardIn(
  trx: Executor,
  ctx: StoreContext,
  input: DashboardInput,
  actor: RecordedActor,
  options: { managedFile?: string } = {},
): Promise<DashboardWithTiles> {
  const parsed = parseInput(dashboardInputSchema, input);
  await assertSlugFree(trx, parsed.slug);
  const at = ctx.now().toISOString();
  const dashboard: Dashboard = {
    id: newId(),
    title: parsed.title,
    slug: parsed.slug,
    description: parsed.description,
    icon: parsed.icon,
    timeZone: parsed.timeZone,
    status: parsed.published ? "published" : "draft",
    publishedAt: parsed.published ? at : null,
    embedOrigins: parsed.embedOrigins,
    refreshSeconds: parsed.refreshSeconds,
    filters: parsed.filters,
    managedFile: options.managedFile ?? null,
    version: 1,
    createdAt: at,
    updatedAt: at,
  };
  return createdWrite(trx, ctx, actor, {
    entityType: "dashboard",
    id: dashboard.id,
    create: async () => {
      await trx
        .insertInto("dashboards")
        .values({
          id: dashboard.id,
          title: dashboard.title,
          slug: dashboard.slug,
          description: dashboard.description,
          icon: dashboard.icon,
          time_zone: dashboard.timeZone,
          status: dashboard.status,
          published_at: dashboard.publishedAt,
          embed_origins_json: JSON.stringify(dashboard.embedOrigins),
          refresh_seconds: dashboard.refreshSeconds,
          filters_json: JSON.stringify(dashboard.filters),
          managed_file: dashboard.managedFile,
          version: 1,
          created_at: at,
          updated_at: at,
        })
        .execute();
      const tiles = await writeTiles(trx, dashboard.id, parsed.tiles, actor);
      const created = { ...dashboard, tiles };
      return {
        result: created,
        action: "dashboard.create",
        detail: {
          title: dashboard.title,
          slug: dashboard.slug,
          status: dashboard.status,
          tileCount: tiles.length,
        },
        snapshot: dashboardSnapshot(created),
      };
    },
  });
}

export async function createDashboard(
  ctx: StoreContext,
  input: DashboardInput,
  actor: Actor,
): Promise<DashboardWithTiles> {
  const checkedActor = authorize(actor, "content.write");
  const slug = typeof input?.slug === "string" ? input.slug.trim() : undefined;
  return withSlugGuard(slug, () =>
    ctx.db.transaction().execute((trx) => createDashboardIn(trx, ctx, input, checkedActor)),
  );
}

export interface DashboardChange {
  values?: Partial<Record<keyof DashboardsTable, string | number | null>>;
  /** New filter columns, checked against the datasets of the dashboard's tiles after the write. */
  filters?: DashboardFilterConfig;
  tiles?: ReadonlyArray<TileWrite>;
  action: AuditAction;
  /** Set when the change restores an older version. */
  restoredFrom?: number;
  detail: (current: DashboardWithTiles) => Record<string, unknown>;
}

/** The one path for every dashboard edit: version check, write, tiles, audit, in one transaction. */
function changeDashboard(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  checkedActor: RecordedActor,
  buildChange: (current: DashboardWithTiles) => DashboardChange,
): Promise<DashboardWithTiles> {
  return ctx.db.transaction().execute((trx) =>
    changeDashboardIn(trx, ctx, id, expectedVersion, checkedActor, (current) => {
      refuseManaged(current);
      return buildChange(current);
    }),
  );
}

/** changeDashboard in the caller's transaction (a dashboard file also writes its charts). */
export function changeDashboardIn(
  trx: Executor,
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  checkedActor: RecordedActor,
  buildChange: (current: DashboardWithTiles) => DashboardChange,
): Promise<DashboardWithTiles> {
  return versionedWriteIn(trx, ctx, checkedActor, {
    entityType: "dashboard",
    id,
    expectedVersion,
    read: getDashboardIn,
    change: async (current, row, trx) => {
      const change = buildChange(current);
      await row.update({ ...change.values, updated_at: ctx.now().toISOString() });
      if (change.tiles) await writeTiles(trx, id, change.tiles, checkedActor);
      if (change.filters) await checkFilterColumns(trx, id, change.filters);
      const next = await getDashboardIn(trx, id);
      if (!next) throw new NotFoundError("dashboard", id);
      return {
        result: next,
        action: change.action,
        detail: change.detail(current),
        snapshot: dashboardSnapshot(next),
        restoredFrom: change.restoredFrom,
      };
    },
  });
}

export function updateDashboard(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  patch: DashboardPatch,
  actor: Actor,
): Promise<DashboardWithTiles> {
  return saveDashboard(ctx, id, expectedVersion, patch, actor, {});
}

/** An update, or with `restoredFrom` a restore (audited and kept as dashboard.restore). */
async function saveDashboard(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  patch: DashboardPatch,
  actor: Actor,
  options: { restoredFrom?: number },
): Promise<DashboardWithTiles> {
  const checkedActor = authorize(actor, "content.write");
  const parsed = parseInput(dashboardPatchSchema, patch);
  return withSlugGuard(parsed.slug, async () => {
    if (parsed.slug !== undefined) await assertSlugFree(ctx.db, parsed.slug, id);
    return changeDashboard(ctx, id, expectedVersion, checkedActor, (current) => {
      const values: DashboardChange["values"] = {};
      if (parsed.title !== undefined) values.title = parsed.title;
      if (parsed.slug !== undefined) values.slug = parsed.slug;
      if (parsed.description !== undefined) values.description = parsed.description;
      if (parsed.icon !== undefined) values.icon = parsed.icon;
      if (parsed.timeZone !== undefined) values.time_zone = parsed.timeZone;
      if (parsed.embedOrigins !== undefined)
        values.embed_origins_json = JSON.stringify(parsed.embedOrigins);
      if (parsed.refreshSeconds !== undefined) values.refresh_seconds = parsed.refreshSeconds;
      if (parsed.filters !== undefined) values.filters_json = JSON.stringify(parsed.filters);
      return {
        values,
        ...(parsed.tiles ? { tiles: parsed.tiles } : {}),
        ...(parsed.filters ? { filters: parsed.filters } : {}),
        ...(options.restoredFrom === undefined
          ? { action: "dashboard.update" as const }
          : { action: "dashboard.restore" as const, restoredFrom: options.restoredFrom }),
        detail: () => ({
          title: parsed.title ?? current.title,
          changed: Object.keys(parsed),
          ...(options.restoredFrom === undefined ? {} : { restoredFrom: options.restoredFrom }),
          ...(parsed.embedOrigins !== undefined ? { embedOrigins: parsed.embedOrigins } : {}),
          ...(parsed.refreshSeconds !== undefined ? { refreshSeconds: parsed.refreshSeconds } : {}),
          ...(parsed.filters !== undefined ? { filters: parsed.filters } : {}),
          ...(parsed.slug !== undefined && parsed.slug !== current.slug
            ? { slugFrom: current.slug, slugTo: parsed.slug }
            : {}),
        }),
      };
    });
  });
}

/**
 * What a dashboard's history keeps of it: every field its update takes (so a restore replays
 * them, and settings added later are kept too) and its tiles as inputs, plus its status to show.
 */
export function dashboardSnapshot(dashboard: DashboardWithTiles): VersionSnapshot {
  const snapshot: VersionSnapshot = {};
  const fields = dashboard as unknown as Record<string, unknown>;
  for (const key of Object.keys(dashboardPatchSchema.shape)) {
    if (key !== "tiles" && key in fields) snapshot[key] = fields[key];
  }
  snapshot.status = dashboard.status;
  snapshot.tiles = dashboard.tiles.map(tileToInput);
  return snapshot;
}

/**
 * Saves an older version's fields and tiles as the dashboard's next version, checked like any
 * update (a tile whose chart or dataset is gone is refused and nothing changes). Whether it is
 * published stays as it is: publishing is its own action.
 */
export async function restoreDashboardVersion(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  fromVersion: number,
  actor: Actor,
): Promise<DashboardWithTiles> {
  authorize(actor, "content.write");
  const kept = await getVersionIn(ctx.db, "dashboard", id, fromVersion);
  if (!kept) {
    const message = `Version ${fromVersion} of this dashboard is not kept.`;
    throw new ValidationError({ fieldErrors: { fromVersion: [message] }, formError: message });
  }
  const { status: _status, ...patch } = kept.snapshot;
  return saveDashboard(ctx, id, expectedVersion, patch as DashboardPatch, actor, {
    restoredFrom: fromVersion,
  });
}

export async function addDashboardTile(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  tile: TileInput,
  actor: Actor,
  options: { position?: number } = {},
): Promise<DashboardWithTiles> {
  const checkedActor = authorize(actor, "content.write");
  return changeDashboard(ctx, id, expectedVersion, checkedActor, (current) => {
    if (current.tiles.length >= dashboardLimits.maxTiles) {
      throw new ValidationError({
        fieldErrors: {},
        formError: `A dashboard has at most ${dashboardLimits.maxTiles} tiles.`,
      });
    }
    const tiles: TileWrite[] = current.tiles.map(tileToInput);
    const position = Math.max(0, Math.min(options.position ?? tiles.length, tiles.length));
    // A new tile never reuses an id, so writeTiles mints one; without a place it goes below the rest.
    const { id: _ignoredId, ...freshTile } = tile as TileWrite;
    tiles.splice(position, 0, freshTile as TileInput);
    return {
      tiles,
      action: "dashboard.update",
      detail: () => ({ title: current.title, changed: ["tiles"], addedTile: tile.kind }),
    };
  });
}

export async function removeDashboardTile(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  tileId: string,
  actor: Actor,
): Promise<DashboardWithTiles> {
  const checkedActor = authorize(actor, "content.write");
  return changeDashboard(ctx, id, expectedVersion, checkedActor, (current) => {
    if (!current.tiles.some((tile) => tile.id === tileId)) {
      throw new ValidationError({
        fieldErrors: { tileId: ["This tile is not on the dashboard."] },
      });
    }
    return {
      tiles: current.tiles.filter((tile) => tile.id !== tileId).map(tileToInput),
      action: "dashboard.update",
      detail: () => ({ title: current.title, changed: ["tiles"], removedTile: tileId }),
    };
  });
}

/**
 * Saves a whole arrangement as one change: every tile of the dashboard exactly once with its
 * place, checked against the grid's rules, one version and one audit event.
 */
export async function saveDashboardLayout(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  layout: DashboardLayoutInput,
  actor: Actor,
): Promise<DashboardWithTiles> {
  const checkedActor = authorize(actor, "content.write");
  const result = dashboardLayoutSchema.safeParse(layout);
  if (!result.success) {
    const { fieldErrors, formError } = formatZodError(result.error);
    throw new ValidationError({
      fieldErrors: Object.fromEntries(
        Object.entries(fieldErrors).map(([field, messages]) => [`layout.${field}`, messages]),
      ),
      ...(formError === undefined ? {} : { formError }),
    });
  }
  const parsed = result.data;
  return changeDashboard(ctx, id, expectedVersion, checkedActor, (current) => {
    const byId = new Map(current.tiles.map((tile) => [tile.id, tile]));
    const isEveryTileOnce =
      parsed.length === current.tiles.length &&
      new Set(parsed.map((entry) => entry.tileId)).size === parsed.length &&
      parsed.every((entry) => byId.has(entry.tileId));
    if (!isEveryTileOnce) {
      throw new ValidationError({
        fieldErrors: { layout: ["Place every tile of the dashboard exactly once."] },
      });
    }
    const placed = parsed.map(({ tileId, x, y, w, h }) => {
      const tile = byId.get(tileId) as DashboardTile;
      return { tile, layout: { x, y, w, h } };
    });
    const problems = gridProblems(
      placed.map(({ tile, layout }) => ({ kind: tile.kind, layout })),
      "layout",
    );
    if (Object.keys(problems).length > 0) throw new ValidationError({ fieldErrors: problems });
    const moved = placed.filter(
      ({ tile, layout }) =>
        tile.layout.x !== layout.x ||
        tile.layout.y !== layout.y ||
        tile.layout.w !== layout.w ||
        tile.layout.h !== layout.h,
    ).length;
    return {
      tiles: placed.map(({ tile, layout }) => ({ ...tileToInput(tile), layout })),
      action: "dashboard.update",
      detail: () => ({ title: current.title, changed: ["layout"], tilesChanged: moved }),
    };
  });
}

/** Publishing and unpublishing: the status and its time, audited as publish or unpublish. */
function publishing(published: boolean) {
  return async (
    ctx: StoreContext,
    id: string,
    expectedVersion: number,
    actor: Actor,
  ): Promise<DashboardWithTiles> => {
    const checkedActor = authorize(actor, "content.write");
    return changeDashboard(ctx, id, expectedVersion, checkedActor, (current) => ({
      values: published
        ? { status: "published", published_at: ctx.now().toISOString() }
        : { status: "draft", published_at: null },
      action: published ? "dashboard.publish" : "dashboard.unpublish",
      detail: () => ({ title: current.title, slug: current.slug }),
    }));
  };
}

export const publishDashboard = publishing(true);
export const unpublishDashboard = publishing(false);

export const deleteDashboard = versionedDelete({
  entityType: "dashboard",
  permission: "content.write",
  action: "dashboard.delete",
  read: getDashboardIn,
  refuse: refuseManaged,
  detail: (current) => ({ title: current.title, slug: current.slug }),
});

export const dashboardOperations = {
  listDashboards,
  listPublishedDashboards,
  getDashboard,
  /** The columns a dashboard's filters may use (from its tiles' datasets). */
  getDashboardFilterColumns,
  createDashboard,
  updateDashboard,
  addDashboardTile,
  removeDashboardTile,
  /** Saves every tile's place at once: one version, one audit event. */
  saveDashboardLayout,
  publishDashboard,
  unpublishDashboard,
  deleteDashboard,
  restoreDashboardVersion,
};
