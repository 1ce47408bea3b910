// Dashboards: listing and the versioned writes (details, tiles, layout, filters, publishing,
// restore, delete). What pages render from them is read in ../render/.
import {
  checkStatTileColumn,
  checkTileLayout,
  compareReadingOrder,
  type DashboardFilterConfig,
  type DashboardInput,
  type DashboardLayoutInput,
  type DashboardPatch,
  type DatasetColumn,
  dashboardInputSchema,
  dashboardLayoutSchema,
  dashboardLimits,
  dashboardPatchSchema,
  firstFreePlace,
  flowLayout,
  formatZodError,
  NotFoundError,
  type TileInput,
  type TileKind,
  type TileLayout,
  tileInputSchema,
  tilesOverlap,
  ValidationError,
} from "@seed/model";
import { type Actor, authorize } from "../../access/policy.js";
import {
  type AuditAction,
  type Executor,
  isUniqueViolation,
  newId,
  parseInput,
  parseJson,
  type RecordedActor,
  type StoreContext,
} from "../../context.js";
import type { DashboardsTable } from "../../db/schema.js";
import type { DatasetTable } from "../datasets/table.js";
import { getVersionIn, type VersionSnapshot } from "../history.js";
import { createdWrite, versionedWrite } from "../versioned-write.js";
import { listTilesIn, toDashboard } from "./records.js";
import type {
  Dashboard,
  DashboardStatus,
  DashboardSummary,
  DashboardTile,
  DashboardWithTiles,
  StatTileConfig,
  TextTileConfig,
} from "./types.js";

async function summarize(trx: Executor, status?: DashboardStatus): Promise<DashboardSummary[]> {
  let query = trx.selectFrom("dashboards").selectAll().orderBy("title").orderBy("id");
  if (status) query = query.where("status", "=", status);
  const dashboards = await query.execute();
  const counts = await trx
    .selectFrom("dashboard_tiles as t")
    .leftJoin("charts as c", "c.id", "t.chart_id")
    .leftJoin("datasets as chart_data", "chart_data.id", "c.dataset_id")
    .leftJoin("datasets as stat_data", "stat_data.id", "t.dataset_id")
    .select((eb) => [
      "t.dashboard_id",
      eb.fn.countAll<string | number>().as("tile_count"),
      eb.fn.max("c.updated_at").as("chart_at"),
      eb.fn.max("chart_data.updated_at").as("chart_data_at"),
      eb.fn.max("stat_data.updated_at").as("stat_data_at"),
    ])
    .groupBy("t.dashboard_id")
    .execute();
  const byId = new Map(counts.map((row) => [row.dashboard_id, row]));
  return dashboards.map((row) => {
    const tiles = byId.get(row.id);
    // ISO 8601 text in UTC sorts as time does.
    const times = [row.updated_at, tiles?.chart_at, tiles?.chart_data_at, tiles?.stat_data_at];
    const lastUpdatedAt =
      times
        .filter((time): time is string => typeof time === "string")
        .sort()
        .at(-1) ?? row.updated_at;
    return { ...toDashboard(row), tileCount: Number(tiles?.tile_count ?? 0), lastUpdatedAt };
  });
}

export async function listDashboards(
  ctx: StoreContext,
  filter: { status?: DashboardStatus } = {},
): Promise<DashboardSummary[]> {
  return summarize(ctx.db, filter.status);
}

export async function listPublishedDashboards(ctx: StoreContext): Promise<DashboardSummary[]> {
  return summarize(ctx.db, "published");
}

export async function getDashboardIn(
  trx: Executor,
  id: string,
): Promise<DashboardWithTiles | null> {
  const row = await trx
    .selectFrom("dashboards")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return { ...toDashboard(row), tiles: await listTilesIn(trx, id) };
}

/**
 * The grid's rules over a whole dashboard: each tile inside the grid at an allowed size, no two
 * overlapping. Problems are keyed "<prefix>.<index>.<field>"; overlaps name the other tile.
 */
function gridProblems(
  tiles: ReadonlyArray<{ kind: TileKind; layout: TileLayout }>,
  prefix: string,
): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const [index, tile] of tiles.entries()) {
    for (const [field, message] of Object.entries(checkTileLayout(tile.kind, tile.layout))) {
      fieldErrors[`${prefix}.${index}.${field}`] = [message];
    }
    const other = tiles.findIndex(
      (candidate, at) => at < index && tilesOverlap(candidate.layout, tile.layout),
    );
    if (other !== -1) {
      fieldErrors[`${prefix}.${index}.layout`] = [
        `This tile overlaps tile ${other + 1}; move or resize one of them.`,
      ];
    }
  }
  return fieldErrors;
}

type TileWrite = TileInput & { id?: string };

/** Checks tile references and the grid inside the write's transaction, then rewrites the tiles. */
async function writeTiles(
  trx: Executor,
  dashboardId: string,
  tiles: ReadonlyArray<TileWrite>,
): Promise<DashboardTile[]> {
  const fieldErrors: Record<string, string[]> = {};
  const existingIds = new Set(
    (
      await trx
        .selectFrom("dashboard_tiles")
        .select("id")
        .where("dashboard_id", "=", dashboardId)
        .execute()
    ).map((row) => row.id),
  );
  const columnsByDataset = new Map<string, DatasetColumn[] | null>();
  const columnsOf = async (datasetId: string) => {
    if (!columnsByDataset.has(datasetId)) {
      const row = await trx
        .selectFrom("datasets")
        .select("columns_json")
        .where("id", "=", datasetId)
        .executeTakeFirst();
      columnsByDataset.set(datasetId, row ? parseJson<DatasetColumn[]>(row.columns_json) : null);
    }
    return columnsByDataset.get(datasetId) ?? null;
  };
  const parsedTiles = tiles.map((input, index) => {
    const parsed = tileInputSchema.safeParse(input);
    if (parsed.success) return parsed.data;
    for (const [field, messages] of Object.entries(formatZodError(parsed.error).fieldErrors)) {
      fieldErrors[`tiles.${index}.${field}`] = messages;
    }
    return null;
  });
  // Tiles without a place: a new dashboard's flow in order; a tile added to a laid-out
  // dashboard takes the first free place that fits, row by row.
  const placed = parsedTiles.flatMap((tile) => (tile?.layout ? [tile.layout] : []));
  const unplaced = parsedTiles.flatMap((tile) => (tile && !tile.layout ? [tile.kind] : []));
  const flowed = placed.length === 0 ? flowLayout(unplaced) : null;
  const layouts = parsedTiles.map((tile) => {
    if (!tile) return null;
    if (tile.layout) return tile.layout;
    const layout = flowed ? (flowed.shift() as TileLayout) : firstFreePlace(tile.kind, placed);
    placed.push(layout);
    return layout;
  });
  const written: DashboardTile[] = [];
  const usedIds = new Set<string>();
  for (const [index, tile] of parsedTiles.entries()) {
    const layout = layouts[index];
    if (!tile || !layout) continue;
    // Keep a tile's id across edits, but never adopt an id of another dashboard or reuse one twice.
    const id =
      tile.id !== undefined && existingIds.has(tile.id) && !usedIds.has(tile.id)
        ? tile.id
        : newId();
    usedIds.add(id);
    const position = index;
    if (tile.kind === "chart") {
      const chart = await trx
        .selectFrom("charts")
        .select("id")
        .where("id", "=", tile.chartId)
        .executeTakeFirst();
      if (!chart) fieldErrors[`tiles.${index}.chartId`] = ["Choose an existing chart."];
      written.push({ kind: "chart", id, position, layout, chartId: tile.chartId });
    } else if (tile.kind === "text") {
      written.push({ kind: "text", id, position, layout, markdown: tile.markdown });
    } else {
      const columns = await columnsOf(tile.datasetId);
      if (!columns) {
        fieldErrors[`tiles.${index}.datasetId`] = ["Choose an existing dataset."];
      } else {
        const problem = checkStatTileColumn(tile, columns);
        if (problem) fieldErrors[`tiles.${index}.column`] = [problem];
      }
      written.push({
        kind: "stat",
        id,
        position,
        layout,
        label: tile.label,
        datasetId: tile.datasetId,
        column: tile.column,
        aggregation: tile.aggregation,
        format: tile.format ?? null,
        icon: tile.icon ?? null,
        filters: tile.filters ?? [],
        compare: tile.compare ?? false,
        thresholds: tile.thresholds ?? [],
      });
    }
  }
  if (Object.keys(fieldErrors).length === 0)
    Object.assign(fieldErrors, gridProblems(written, "tiles"));
  if (Object.keys(fieldErrors).length > 0) throw new ValidationError({ fieldErrors });
  // Positions follow the grid's reading order, the order of the one-column phone view.
  const ordered = [...written]
    .sort((a, b) => compareReadingOrder(a.layout, b.layout))
    .map((tile, position) => ({ ...tile, position }));
  await trx.deleteFrom("dashboard_tiles").where("dashboard_id", "=", dashboardId).execute();
  if (ordered.length > 0) {
    await trx
      .insertInto("dashboard_tiles")
      .values(
        ordered.map((tile) => ({
          id: tile.id,
          dashboard_id: dashboardId,
          position: tile.position,
          x: tile.layout.x,
          y: tile.layout.y,
          w: tile.layout.w,
          h: tile.layout.h,
          kind: tile.kind,
          chart_id: tile.kind === "chart" ? tile.chartId : null,
          dataset_id: tile.kind === "stat" ? tile.datasetId : null,
          config_json: tileConfigJson(tile),
        })),
      )
      .execute();
  }
  return ordered;
}

function tileConfigJson(tile: DashboardTile): string {
  if (tile.kind === "chart") return "{}";
  if (tile.kind === "text")
    return JSON.stringify({ markdown: tile.markdown } satisfies TextTileConfig);
  return JSON.stringify({
    label: tile.label,
    column: tile.column,
    aggregation: tile.aggregation,
    format: tile.format,
    icon: tile.icon,
    ...(tile.filters.length > 0 ? { filters: tile.filters } : {}),
    ...(tile.compare ? { compare: true } : {}),
    ...(tile.thresholds.length > 0 ? { thresholds: tile.thresholds } : {}),
  } satisfies StatTileConfig);
}

/** The columns a dashboard's filters can use: those of its tiles' datasets, by fitting type. */
export interface DashboardFilterColumns {
  /** Date and timestamp columns, for the date range. */
  dateColumns: string[];
  /** Text and true/false columns, for category filters. */
  categoryColumns: string[];
}

async function filterColumnsIn(
  trx: Executor,
  dashboardId: string,
): Promise<DashboardFilterColumns> {
  const tiles = await trx
    .selectFrom("dashboard_tiles as t")
    .leftJoin("charts as c", "c.id", "t.chart_id")
    .select(["c.dataset_id as chart_dataset_id", "t.dataset_id as stat_dataset_id"])
    .where("t.dashboard_id", "=", dashboardId)
    .execute();
  const ids = [
    ...new Set(
      tiles.flatMap((row) => [row.chart_dataset_id, row.stat_dataset_id].filter((id) => !!id)),
    ),
  ] as string[];
  const rows =
    ids.length > 0
      ? await trx.selectFrom("datasets").select("columns_json").where("id", "in", ids).execute()
      : [];
  const dates = new Set<string>();
  const categories = new Set<string>();
  for (const row of rows) {
    for (const column of parseJson<Pick<DatasetTable["columns"][number], "name" | "type">[]>(
      row.columns_json,
    )) {
      if (column.type === "date" || column.type === "timestamp") dates.add(column.name);
      if (column.type === "string" || column.type === "boolean") categories.add(column.name);
    }
  }
  const sorted = (names: Set<string>) => [...names].sort((a, b) => a.localeCompare(b));
  return { dateColumns: sorted(dates), categoryColumns: sorted(categories) };
}

export async function getDashboardFilterColumns(
  ctx: StoreContext,
  id: string,
): Promise<DashboardFilterColumns> {
  return filterColumnsIn(ctx.db, id);
}

/** Each filter column must be one of the dashboard's datasets, of a fitting type. */
async function checkFilterColumns(
  trx: Executor,
  dashboardId: string,
  filters: DashboardFilterConfig,
): Promise<void> {
  const { dateColumns, categoryColumns } = await filterColumnsIn(trx, dashboardId);
  const fieldErrors: Record<string, string[]> = {};
  if (filters.dateColumn !== null && !dateColumns.includes(filters.dateColumn)) {
    fieldErrors["filters.dateColumn"] = [
      `No dataset on this dashboard has a date column "${filters.dateColumn}".`,
    ];
  }
  for (const [index, column] of filters.categories.entries()) {
    if (!categoryColumns.includes(column)) {
      fieldErrors[`filters.categories.${index}`] = [
        `No dataset on this dashboard has a text or true/false column "${column}".`,
      ];
    }
  }
  if (Object.keys(fieldErrors).length > 0) throw new ValidationError({ fieldErrors });
}

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

export async function createDashboardIn(
  trx: Executor,
  ctx: StoreContext,
  input: DashboardInput,
  actor: RecordedActor,
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
          version: 1,
          created_at: at,
          updated_at: at,
        })
        .execute();
      const tiles = await writeTiles(trx, dashboard.id, parsed.tiles);
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

interface DashboardChange {
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
    versionedWrite(trx, ctx, checkedActor, {
      entityType: "dashboard",
      id,
      expectedVersion,
      read: getDashboardIn,
      change: async (current, row) => {
        const change = buildChange(current);
        await row.update({ ...change.values, updated_at: ctx.now().toISOString() });
        if (change.tiles) await writeTiles(trx, id, change.tiles);
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
    }),
  );
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
function dashboardSnapshot(dashboard: DashboardWithTiles): VersionSnapshot {
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

function tileToInput(tile: DashboardTile): TileWrite & { id: string } {
  const base = { id: tile.id, layout: tile.layout };
  if (tile.kind === "chart") return { kind: "chart", ...base, chartId: tile.chartId };
  if (tile.kind === "text") return { kind: "text", ...base, markdown: tile.markdown };
  return {
    kind: "stat",
    ...base,
    label: tile.label,
    datasetId: tile.datasetId,
    column: tile.column,
    aggregation: tile.aggregation,
    ...(tile.format ? { format: tile.format } : {}),
    ...(tile.icon ? { icon: tile.icon } : {}),
    ...(tile.filters.length > 0 ? { filters: tile.filters } : {}),
    ...(tile.compare ? { compare: true } : {}),
    ...(tile.thresholds.length > 0 ? { thresholds: tile.thresholds } : {}),
  };
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

export async function publishDashboard(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  actor: Actor,
): Promise<DashboardWithTiles> {
  const checkedActor = authorize(actor, "content.write");
  return changeDashboard(ctx, id, expectedVersion, checkedActor, (current) => ({
    values: { status: "published", published_at: ctx.now().toISOString() },
    action: "dashboard.publish",
    detail: () => ({ title: current.title, slug: current.slug }),
  }));
}

export async function unpublishDashboard(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  actor: Actor,
): Promise<DashboardWithTiles> {
  const checkedActor = authorize(actor, "content.write");
  return changeDashboard(ctx, id, expectedVersion, checkedActor, (current) => ({
    values: { status: "draft", published_at: null },
    action: "dashboard.unpublish",
    detail: () => ({ title: current.title, slug: current.slug }),
  }));
}

export async function deleteDashboard(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  actor: Actor,
): Promise<void> {
  const checkedActor = authorize(actor, "content.write");
  return ctx.db.transaction().execute((trx) =>
    versionedWrite(trx, ctx, checkedActor, {
      entityType: "dashboard",
      id,
      expectedVersion,
      read: getDashboardIn,
      change: async (current, row) => {
        await row.remove();
        return {
          result: undefined,
          action: "dashboard.delete",
          detail: { title: current.title, slug: current.slug },
        };
      },
    }),
  );
}

export async function getDashboard(
  ctx: StoreContext,
  id: string,
): Promise<DashboardWithTiles | null> {
  return getDashboardIn(ctx.db, id);
}

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
