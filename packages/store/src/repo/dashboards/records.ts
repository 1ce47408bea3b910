// Reading dashboard rows into records: the listings, and what the writes (./dashboards.ts) and the
// renders (../../render/) read.

import {
  type DashboardFilterConfig,
  dashboardFilterConfigSchema,
  embedOriginProblem,
  type IconName,
  noDashboardFilters,
  type RefreshSeconds,
  refreshIntervals,
} from "@seed/model";
import type { Selectable } from "kysely";
import { type Executor, parseJson, type StoreContext } from "../../context.js";
import type { DashboardsTable } from "../../db/schema.js";
import { readable, type SeenBy, seenCollections, seenWhere } from "../collections.js";

import type {
  Dashboard,
  DashboardStatus,
  DashboardSummary,
  DashboardTile,
  DashboardWithTiles,
  StatTileConfig,
  TextTileConfig,
  TileKeyConfig,
} from "./types.js";

export function toDashboard(row: Selectable<DashboardsTable>): Dashboard {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    icon: row.icon as IconName | null,
    timeZone: row.time_zone ?? null,
    status: row.status as DashboardStatus,
    publishedAt: row.published_at,
    embedOrigins: storedEmbedOrigins(row.embed_origins_json),
    refreshSeconds: storedRefreshSeconds(row.refresh_seconds),
    filters: storedFilters(row.filters_json),
    managedFile: row.managed_file ?? null,
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The stored allowlist, re-checked: an entry that fails today's rule never reaches a header. */
export function storedEmbedOrigins(json: string | null | undefined): string[] {
  const origins = parseJson<unknown>(json ?? "[]");
  if (!Array.isArray(origins)) return [];
  return origins.filter(
    (origin): origin is string => typeof origin === "string" && embedOriginProblem(origin) === null,
  );
}

/** The stored filter configuration, re-checked: one that fails today's rule filters nothing. */
export function storedFilters(json: string | null | undefined): DashboardFilterConfig {
  const parsed = dashboardFilterConfigSchema.safeParse(parseJson<unknown>(json ?? "{}"));
  return parsed.success ? parsed.data : noDashboardFilters;
}

export function storedRefreshSeconds(
  value: number | string | null | undefined,
): RefreshSeconds | null {
  const seconds = Number(value);
  return (refreshIntervals as readonly number[]).includes(seconds)
    ? (seconds as RefreshSeconds)
    : null;
}

export async function listTilesIn(trx: Executor, dashboardId: string): Promise<DashboardTile[]> {
  const rows = await trx
    .selectFrom("dashboard_tiles")
    .selectAll()
    .where("dashboard_id", "=", dashboardId)
    .orderBy("position")
    .execute();
  return rows.map((row): DashboardTile => {
    const layout = { x: Number(row.x), y: Number(row.y), w: Number(row.w), h: Number(row.h) };
    const position = Number(row.position);
    const key = parseJson<TileKeyConfig>(row.config_json || "{}").key ?? null;
    if (row.kind === "chart") {
      return { kind: "chart", id: row.id, key, position, layout, chartId: row.chart_id ?? "" };
    }
    if (row.kind === "text") {
      const { markdown } = parseJson<TextTileConfig>(row.config_json);
      return { kind: "text", id: row.id, key, position, layout, markdown };
    }
    const config = parseJson<StatTileConfig>(row.config_json);
    return {
      kind: "stat",
      id: row.id,
      key,
      position,
      layout,
      datasetId: row.dataset_id ?? "",
      label: config.label,
      column: config.column,
      aggregation: config.aggregation,
      format: config.format ?? null,
      icon: config.icon ?? null,
      filters: config.filters ?? [],
      compare: config.compare ?? false,
      compareWith: config.compareWith ?? "previous_period",
      thresholds: config.thresholds ?? [],
    };
  });
}

export async function summarize(
  trx: Executor,
  status?: DashboardStatus,
  seen: readonly string[] | "all" = "all",
): Promise<DashboardSummary[]> {
  let query = trx
    .selectFrom("dashboards")
    .selectAll()
    .where(seenWhere("collection_id", seen))
    .orderBy("title")
    .orderBy("id");
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

/** Every dashboard, by title (with `seenBy`: those the account sees). */
export async function listDashboards(
  ctx: StoreContext,
  filter: { status?: DashboardStatus } & SeenBy = {},
): Promise<DashboardSummary[]> {
  return summarize(ctx.db, filter.status, await seenCollections(ctx.db, filter));
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

export async function getDashboard(
  ctx: StoreContext,
  id: string,
  reader: SeenBy = {},
): Promise<DashboardWithTiles | null> {
  if (!(await readable(ctx.db, reader, "dashboard", id))) return null;
  return getDashboardIn(ctx.db, id);
}
