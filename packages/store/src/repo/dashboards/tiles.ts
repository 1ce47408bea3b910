// A dashboard's tiles: the grid's rules, checking and rewriting the tiles inside a write.
// Dashboards: listing and the versioned writes (details, tiles, layout, filters, publishing,
// restore, delete). What pages render from them is read in ../render/.
import {
  checkStatTileColumn,
  checkTileLayout,
  compareReadingOrder,
  firstFreePlace,
  flowLayout,
  formatZodError,
  type QueryColumn,
  type TileInput,
  type TileKind,
  type TileLayout,
  tileInputSchema,
  tilesOverlap,
  ValidationError,
} from "@seed/model";
import { type Executor, newId, type RecordedActor } from "../../context.js";
import { recordVisible, visibilityOf } from "../collections.js";
import { queryColumnsIn } from "../datasets/fields.js";
import type { DashboardTile, StatTileConfig, TextTileConfig, TileKeyConfig } from "./types.js";

/**
 * The grid's rules over a whole dashboard: each tile inside the grid at an allowed size, no two
 * overlapping. Problems are keyed "<prefix>.<index>.<field>"; overlaps name the other tile.
 */
export function gridProblems(
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

export type TileWrite = TileInput & { id?: string };

/** Checks tile references and the grid inside the write's transaction, then rewrites the tiles. */
export async function writeTiles(
  trx: Executor,
  dashboardId: string,
  tiles: ReadonlyArray<TileWrite>,
  actor: RecordedActor,
): Promise<DashboardTile[]> {
  const fieldErrors: Record<string, string[]> = {};
  // A tile shows only what its writer sees: another collection's chart or dataset is "not there".
  const sees = await visibilityOf(trx, actor);
  const existing = await trx
    .selectFrom("dashboard_tiles")
    .select(["id", "chart_id", "dataset_id"])
    .where("dashboard_id", "=", dashboardId)
    .execute();
  const existingIds = new Set(existing.map((row) => row.id));
  // What the dashboard showed already stays (a colleague with more access put it there).
  const shown = new Set(existing.flatMap((row) => [row.chart_id, row.dataset_id]));
  const showable = (entityType: "chart" | "dataset", id: string) =>
    shown.has(id) ? Promise.resolve(true) : recordVisible(trx, sees, entityType, id);
  const columnsByDataset = new Map<string, QueryColumn[] | null>();
  const columnsOf = async (datasetId: string) => {
    if (!columnsByDataset.has(datasetId)) {
      columnsByDataset.set(datasetId, await queryColumnsIn(trx, datasetId));
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
  const usedKeys = new Set<string>();
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
    const key = tile.key ?? null;
    if (key !== null && usedKeys.has(key)) {
      fieldErrors[`tiles.${index}.key`] = [`Another tile already has the key "${key}".`];
    }
    if (key !== null) usedKeys.add(key);
    if (tile.kind === "chart") {
      if (!(await showable("chart", tile.chartId))) {
        fieldErrors[`tiles.${index}.chartId`] = ["Choose an existing chart."];
      }
      written.push({ kind: "chart", id, key, position, layout, chartId: tile.chartId });
    } else if (tile.kind === "text") {
      written.push({ kind: "text", id, key, position, layout, markdown: tile.markdown });
    } else {
      const columns = (await showable("dataset", tile.datasetId))
        ? await columnsOf(tile.datasetId)
        : null;
      if (!columns) {
        fieldErrors[`tiles.${index}.datasetId`] = ["Choose an existing dataset."];
      } else {
        const problem = checkStatTileColumn(tile, columns);
        if (problem) fieldErrors[`tiles.${index}.column`] = [problem];
      }
      written.push({
        kind: "stat",
        id,
        key,
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
        compareWith: tile.compareWith ?? "previous_period",
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

export function tileConfigJson(tile: DashboardTile): string {
  const keyed: TileKeyConfig = tile.key === null ? {} : { key: tile.key };
  if (tile.kind === "chart") return JSON.stringify(keyed);
  if (tile.kind === "text")
    return JSON.stringify({ ...keyed, markdown: tile.markdown } satisfies TextTileConfig);
  return JSON.stringify({
    ...keyed,
    label: tile.label,
    column: tile.column,
    aggregation: tile.aggregation,
    format: tile.format,
    icon: tile.icon,
    ...(tile.filters.length > 0 ? { filters: tile.filters } : {}),
    ...(tile.compare ? { compare: true } : {}),
    ...(tile.compare && tile.compareWith !== "previous_period"
      ? { compareWith: tile.compareWith }
      : {}),
    ...(tile.thresholds.length > 0 ? { thresholds: tile.thresholds } : {}),
  } satisfies StatTileConfig);
}

export function tileToInput(tile: DashboardTile): TileWrite & { id: string } {
  const base = {
    id: tile.id,
    ...(tile.key === null ? {} : { key: tile.key }),
    layout: tile.layout,
  };
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
    ...(tile.compare && tile.compareWith !== "previous_period"
      ? { compareWith: tile.compareWith }
      : {}),
    ...(tile.thresholds.length > 0 ? { thresholds: tile.thresholds } : {}),
  };
}
