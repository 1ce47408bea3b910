import type { Selectable } from "kysely";
import { type Chart, toChart } from "../charts/queries.js";
import { getDatasetSummaryIn, getDatasetTableIn } from "../datasets/queries.js";
import type { DatasetTable } from "../datasets/table.js";
import { NotFoundError, ValidationError } from "../errors.js";
import {
  type Actor,
  type AuditAction,
  assertVersion,
  checkActor,
  checkVersion,
  deleteVersioned,
  type Executor,
  isUniqueViolation,
  newId,
  parseInput,
  parseJson,
  type StoreContext,
  updateVersioned,
  writeAudit,
} from "../internal.js";
import { type QueryResult, runQuery } from "../query/run.js";
import type { QueryFilter } from "../query/schema.js";
import { runStat } from "../query/stat.js";
import type { DashboardsTable } from "../schema.js";
import {
  type Aggregation,
  checkStatTileColumn,
  type DashboardInput,
  type DashboardPatch,
  type DatasetColumn,
  dashboardInputSchema,
  dashboardLimits,
  dashboardPatchSchema,
  formatZodError,
  type IconName,
  type NumberFormat,
  type TileInput,
  tileInputSchema,
} from "../validation.js";

export type DashboardStatus = "draft" | "published";

export interface Dashboard {
  id: string;
  title: string;
  slug: string;
  description: string;
  icon: IconName | null;
  /** IANA zone for day and coarser buckets and relative dates; null is UTC. */
  timeZone: string | null;
  status: DashboardStatus;
  publishedAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface DashboardSummary extends Dashboard {
  tileCount: number;
}

export interface ChartTile {
  kind: "chart";
  id: string;
  position: number;
  chartId: string;
}

export interface StatTile {
  kind: "stat";
  id: string;
  position: number;
  label: string;
  datasetId: string;
  column: string;
  aggregation: Aggregation;
  format: NumberFormat | null;
  icon: IconName | null;
  filters: QueryFilter[];
  compare: boolean;
}

export type DashboardTile = ChartTile | StatTile;

export interface DashboardWithTiles extends Dashboard {
  tiles: DashboardTile[];
}

export interface RenderedChartTile {
  kind: "chart";
  id: string;
  position: number;
  chart: Chart;
  /** The chart's query result: all a page gets of the dataset. Null when `error` says why. */
  result: QueryResult | null;
  /** Why the chart cannot be drawn, e.g. a column it uses was deleted (names the column). */
  error: string | null;
}

export interface RenderedStatTile {
  kind: "stat";
  id: string;
  position: number;
  label: string;
  datasetId: string;
  datasetName: string;
  column: string;
  aggregation: Aggregation;
  format: NumberFormat | null;
  icon: IconName | null;
  filters: QueryFilter[];
  compare: boolean;
  value: number | null;
  /** Fraction (-0.12 = -12%) against the previous period, or the previous value for "last". */
  delta: number | null;
  deltaLabel: string | null;
  /** Why the value cannot be computed (a column it uses was deleted or retyped). */
  error: string | null;
}

export type RenderedTile = RenderedChartTile | RenderedStatTile;

/** Everything a page needs to draw a dashboard, read in one consistent transaction. */
export interface RenderedDashboard {
  dashboard: Dashboard;
  tiles: RenderedTile[];
}

type StatTileConfig = Pick<StatTile, "label" | "column" | "aggregation" | "format" | "icon"> &
  Partial<Pick<StatTile, "filters" | "compare">>;

function toDashboard(row: Selectable<DashboardsTable>): Dashboard {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    icon: row.icon as IconName | null,
    timeZone: row.time_zone ?? null,
    status: row.status as DashboardStatus,
    publishedAt: row.published_at,
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function listTilesIn(trx: Executor, dashboardId: string): Promise<DashboardTile[]> {
  const rows = await trx
    .selectFrom("dashboard_tiles")
    .selectAll()
    .where("dashboard_id", "=", dashboardId)
    .orderBy("position")
    .execute();
  return rows.map((row): DashboardTile => {
    if (row.kind === "chart") {
      return {
        kind: "chart",
        id: row.id,
        position: Number(row.position),
        chartId: row.chart_id ?? "",
      };
    }
    const config = parseJson<StatTileConfig>(row.config_json);
    return {
      kind: "stat",
      id: row.id,
      position: Number(row.position),
      datasetId: row.dataset_id ?? "",
      label: config.label,
      column: config.column,
      aggregation: config.aggregation,
      format: config.format ?? null,
      icon: config.icon ?? null,
      filters: config.filters ?? [],
      compare: config.compare ?? false,
    };
  });
}

async function summarize(trx: Executor, status?: DashboardStatus): Promise<DashboardSummary[]> {
  let query = trx.selectFrom("dashboards").selectAll().orderBy("title").orderBy("id");
  if (status) query = query.where("status", "=", status);
  const dashboards = await query.execute();
  const counts = await trx
    .selectFrom("dashboard_tiles")
    .select(["dashboard_id", (eb) => eb.fn.countAll<string | number>().as("tile_count")])
    .groupBy("dashboard_id")
    .execute();
  const countById = new Map(counts.map((row) => [row.dashboard_id, Number(row.tile_count)]));
  return dashboards.map((row) => ({ ...toDashboard(row), tileCount: countById.get(row.id) ?? 0 }));
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

/** Checks tile references inside the write's transaction, then rewrites the dashboard's tiles. */
async function writeTiles(
  trx: Executor,
  dashboardId: string,
  tiles: ReadonlyArray<TileInput & { id?: string }>,
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
  const written: DashboardTile[] = [];
  const usedIds = new Set<string>();
  for (const [position, input] of tiles.entries()) {
    const parsed = tileInputSchema.safeParse(input);
    if (!parsed.success) {
      for (const [field, messages] of Object.entries(formatZodError(parsed.error).fieldErrors)) {
        fieldErrors[`tiles.${position}.${field}`] = messages;
      }
      continue;
    }
    const tile = parsed.data;
    // Keep a tile's id across edits, but never adopt an id of another dashboard or reuse one twice.
    const id =
      tile.id !== undefined && existingIds.has(tile.id) && !usedIds.has(tile.id)
        ? tile.id
        : newId();
    usedIds.add(id);
    if (tile.kind === "chart") {
      const chart = await trx
        .selectFrom("charts")
        .select("id")
        .where("id", "=", tile.chartId)
        .executeTakeFirst();
      if (!chart) fieldErrors[`tiles.${position}.chartId`] = ["Choose an existing chart."];
      written.push({ kind: "chart", id, position, chartId: tile.chartId });
    } else {
      const columns = await columnsOf(tile.datasetId);
      if (!columns) {
        fieldErrors[`tiles.${position}.datasetId`] = ["Choose an existing dataset."];
      } else {
        const problem = checkStatTileColumn(tile, columns);
        if (problem) fieldErrors[`tiles.${position}.column`] = [problem];
      }
      written.push({
        kind: "stat",
        id,
        position,
        label: tile.label,
        datasetId: tile.datasetId,
        column: tile.column,
        aggregation: tile.aggregation,
        format: tile.format ?? null,
        icon: tile.icon ?? null,
        filters: tile.filters ?? [],
        compare: tile.compare ?? false,
      });
    }
  }
  if (Object.keys(fieldErrors).length > 0) throw new ValidationError({ fieldErrors });
  await trx.deleteFrom("dashboard_tiles").where("dashboard_id", "=", dashboardId).execute();
  if (written.length > 0) {
    await trx
      .insertInto("dashboard_tiles")
      .values(
        written.map((tile) => ({
          id: tile.id,
          dashboard_id: dashboardId,
          position: tile.position,
          kind: tile.kind,
          chart_id: tile.kind === "chart" ? tile.chartId : null,
          dataset_id: tile.kind === "stat" ? tile.datasetId : null,
          config_json:
            tile.kind === "stat"
              ? JSON.stringify({
                  label: tile.label,
                  column: tile.column,
                  aggregation: tile.aggregation,
                  format: tile.format,
                  icon: tile.icon,
                  ...(tile.filters.length > 0 ? { filters: tile.filters } : {}),
                  ...(tile.compare ? { compare: true } : {}),
                } satisfies StatTileConfig)
              : "{}",
        })),
      )
      .execute();
  }
  return written;
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
  actor: Actor,
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
    version: 1,
    createdAt: at,
    updatedAt: at,
  };
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
      version: 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const tiles = await writeTiles(trx, dashboard.id, parsed.tiles);
  await writeAudit(trx, ctx, actor, "dashboard.create", "dashboard", dashboard.id, {
    title: dashboard.title,
    slug: dashboard.slug,
    status: dashboard.status,
    tileCount: tiles.length,
  });
  return { ...dashboard, tiles };
}

export async function createDashboard(
  ctx: StoreContext,
  input: DashboardInput,
  actor: Actor,
): Promise<DashboardWithTiles> {
  const checkedActor = checkActor(actor);
  const slug = typeof input?.slug === "string" ? input.slug.trim() : undefined;
  return withSlugGuard(slug, () =>
    ctx.db.transaction().execute((trx) => createDashboardIn(trx, ctx, input, checkedActor)),
  );
}

interface DashboardChange {
  values?: Partial<Record<keyof DashboardsTable, string | null>>;
  tiles?: ReadonlyArray<TileInput & { id?: string }>;
  action: AuditAction;
  detail: (current: DashboardWithTiles) => Record<string, unknown>;
}

/** The one path for every dashboard edit: version check, write, tiles, audit, in one transaction. */
function changeDashboard(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  actor: Actor,
  buildChange: (current: DashboardWithTiles) => DashboardChange,
): Promise<DashboardWithTiles> {
  const checkedActor = checkActor(actor);
  checkVersion(expectedVersion);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await getDashboardIn(trx, id);
    assertVersion("dashboard", id, current ?? undefined, expectedVersion);
    if (!current) throw new NotFoundError("dashboard", id);
    const change = buildChange(current);
    const at = ctx.now().toISOString();
    await updateVersioned(trx, "dashboards", "dashboard", id, expectedVersion, {
      ...change.values,
      updated_at: at,
    });
    if (change.tiles) await writeTiles(trx, id, change.tiles);
    await writeAudit(
      trx,
      ctx,
      checkedActor,
      change.action,
      "dashboard",
      id,
      change.detail(current),
    );
    const next = await getDashboardIn(trx, id);
    if (!next) throw new NotFoundError("dashboard", id);
    return next;
  });
}

export async function updateDashboard(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  patch: DashboardPatch,
  actor: Actor,
): Promise<DashboardWithTiles> {
  const parsed = parseInput(dashboardPatchSchema, patch);
  return withSlugGuard(parsed.slug, async () => {
    if (parsed.slug !== undefined) await assertSlugFree(ctx.db, parsed.slug, id);
    return changeDashboard(ctx, id, expectedVersion, actor, (current) => {
      const values: DashboardChange["values"] = {};
      if (parsed.title !== undefined) values.title = parsed.title;
      if (parsed.slug !== undefined) values.slug = parsed.slug;
      if (parsed.description !== undefined) values.description = parsed.description;
      if (parsed.icon !== undefined) values.icon = parsed.icon;
      if (parsed.timeZone !== undefined) values.time_zone = parsed.timeZone;
      return {
        values,
        ...(parsed.tiles ? { tiles: parsed.tiles } : {}),
        action: "dashboard.update",
        detail: () => ({
          title: parsed.title ?? current.title,
          changed: Object.keys(parsed),
          ...(parsed.slug !== undefined && parsed.slug !== current.slug
            ? { slugFrom: current.slug, slugTo: parsed.slug }
            : {}),
        }),
      };
    });
  });
}

function tileToInput(tile: DashboardTile): TileInput & { id: string } {
  if (tile.kind === "chart") return { kind: "chart", id: tile.id, chartId: tile.chartId };
  return {
    kind: "stat",
    id: tile.id,
    label: tile.label,
    datasetId: tile.datasetId,
    column: tile.column,
    aggregation: tile.aggregation,
    ...(tile.format ? { format: tile.format } : {}),
    ...(tile.icon ? { icon: tile.icon } : {}),
    ...(tile.filters.length > 0 ? { filters: tile.filters } : {}),
    ...(tile.compare ? { compare: true } : {}),
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
  return changeDashboard(ctx, id, expectedVersion, actor, (current) => {
    if (current.tiles.length >= dashboardLimits.maxTiles) {
      throw new ValidationError({
        fieldErrors: {},
        formError: `A dashboard has at most ${dashboardLimits.maxTiles} tiles.`,
      });
    }
    const tiles: TileInput[] = current.tiles.map(tileToInput);
    const position = Math.max(0, Math.min(options.position ?? tiles.length, tiles.length));
    // A new tile never reuses an id, so writeTiles mints one.
    const { id: _ignoredId, ...freshTile } = tile as TileInput & { id?: string };
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
  return changeDashboard(ctx, id, expectedVersion, actor, (current) => {
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

export async function reorderDashboardTiles(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  tileIds: readonly string[],
  actor: Actor,
): Promise<DashboardWithTiles> {
  return changeDashboard(ctx, id, expectedVersion, actor, (current) => {
    const byId = new Map(current.tiles.map((tile) => [tile.id, tile]));
    const isPermutation =
      tileIds.length === current.tiles.length &&
      new Set(tileIds).size === tileIds.length &&
      tileIds.every((tileId) => byId.has(tileId));
    if (!isPermutation) {
      throw new ValidationError({
        fieldErrors: { tileIds: ["List every tile of the dashboard exactly once."] },
      });
    }
    return {
      tiles: tileIds.map((tileId) => tileToInput(byId.get(tileId) as DashboardTile)),
      action: "dashboard.update",
      detail: () => ({ title: current.title, changed: ["tileOrder"] }),
    };
  });
}

export async function publishDashboard(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  actor: Actor,
): Promise<DashboardWithTiles> {
  return changeDashboard(ctx, id, expectedVersion, actor, (current) => ({
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
  return changeDashboard(ctx, id, expectedVersion, actor, (current) => ({
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
  const checkedActor = checkActor(actor);
  checkVersion(expectedVersion);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await getDashboardIn(trx, id);
    assertVersion("dashboard", id, current ?? undefined, expectedVersion);
    await deleteVersioned(trx, "dashboards", "dashboard", id, expectedVersion);
    await writeAudit(trx, ctx, checkedActor, "dashboard.delete", "dashboard", id, {
      title: current?.title,
      slug: current?.slug,
    });
  });
}

export async function getDashboard(
  ctx: StoreContext,
  id: string,
): Promise<DashboardWithTiles | null> {
  return getDashboardIn(ctx.db, id);
}

export async function getDashboardBySlug(
  ctx: StoreContext,
  slug: string,
  options: { includeDrafts?: boolean } = {},
): Promise<RenderedDashboard | null> {
  return ctx.db
    .transaction()
    .setAccessMode("read only")
    .execute(async (trx) => {
      let query = trx.selectFrom("dashboards").selectAll().where("slug", "=", slug);
      if (!options.includeDrafts) query = query.where("status", "=", "published");
      const row = await query.executeTakeFirst();
      if (!row) return null;
      const tiles = await listTilesIn(trx, row.id);
      const chartIds = tiles.flatMap((tile) => (tile.kind === "chart" ? [tile.chartId] : []));
      const charts =
        chartIds.length > 0
          ? (await trx.selectFrom("charts").selectAll().where("id", "in", chartIds).execute()).map(
              toChart,
            )
          : [];
      const chartById = new Map(charts.map((chart) => [chart.id, chart]));
      const dashboard = toDashboard(row);
      const queryOptions = {
        timeZone: dashboard.timeZone ?? "UTC",
        now: ctx.now(),
        observe: ctx.observeQuery,
      };
      const tables = new Map<string, DatasetTable | null>();
      const tableOf = async (datasetId: string) => {
        if (!tables.has(datasetId)) tables.set(datasetId, await getDatasetTableIn(trx, datasetId));
        return tables.get(datasetId) ?? null;
      };
      const rendered: RenderedTile[] = [];
      for (const tile of tiles) {
        if (tile.kind === "chart") {
          const chart = chartById.get(tile.chartId);
          // Foreign keys keep charts present; the guard only satisfies the type checker.
          if (!chart) continue;
          const table = await tableOf(chart.datasetId);
          const base = { kind: "chart" as const, id: tile.id, position: tile.position, chart };
          try {
            if (!table) throw new NotFoundError("dataset", chart.datasetId);
            const result = await runQuery(trx, table, chart.query, queryOptions);
            rendered.push({ ...base, result, error: null });
          } catch (error) {
            rendered.push({ ...base, result: null, error: tileError(error) });
          }
          continue;
        }
        const table = await tableOf(tile.datasetId);
        const datasetName = (await getDatasetSummaryIn(trx, tile.datasetId))?.name ?? "";
        try {
          if (!table) throw new NotFoundError("dataset", tile.datasetId);
          const stat = await runStat(trx, table, tile, queryOptions);
          rendered.push({ ...tile, datasetName, ...stat, error: null });
        } catch (error) {
          rendered.push({
            ...tile,
            datasetName,
            value: null,
            delta: null,
            deltaLabel: null,
            error: tileError(error),
          });
        }
      }
      return { dashboard, tiles: rendered };
    });
}

/** A tile's problem as one sentence for the page (query errors name the column). */
function tileError(error: unknown): string {
  if (error instanceof ValidationError) {
    const first = Object.values(error.fieldErrors).flat()[0];
    if (first) return first;
  }
  if (error instanceof NotFoundError) return "The dataset of this tile no longer exists.";
  throw error;
}
