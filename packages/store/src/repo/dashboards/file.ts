// A dashboard as a file (@seed/model dashboard/file.ts) and back: export names datasets by slug
// and tiles by key; import writes the dashboard and its charts in one transaction, as one new
// version, and an unchanged file writes nothing.

import {
  assignTileKeys,
  ConflictError,
  checkStatTileColumn,
  type DashboardFile,
  type DashboardFileTile,
  fileChartOptions,
  fileChartPath,
  storedChartOptions,
  ValidationError,
} from "@seed/model";
import { printDashboardFile, readDashboardFile } from "@seed/model/file";
import { type Actor, authorize } from "../../access/policy.js";
import type { Executor, RecordedActor, StoreContext } from "../../context.js";
import { type Chart, chartAlreadyIs, createChartIn, getChartIn, saveChartIn } from "../charts.js";
import { readable } from "../collections.js";
import { datasetSlugsIn } from "../datasets/datasets.js";
import { queryColumnsIn } from "../datasets/fields.js";
import { changeDashboardIn, createDashboardIn, refuseManaged } from "./dashboards.js";
import { checkFilterColumns } from "./filters.js";
import { getDashboardIn } from "./records.js";
import { type TileWrite, tileToInput } from "./tiles.js";
import type { DashboardTile, DashboardWithTiles } from "./types.js";

function tileName(tile: DashboardTile, charts: ReadonlyMap<string, Chart>): string {
  if (tile.kind === "chart") return charts.get(tile.chartId)?.title ?? "chart";
  if (tile.kind === "stat") return tile.label;
  // A text tile is named by its first words ("## Store notes" -> store-notes).
  return tile.markdown.split(/\s+/).slice(0, 6).join(" ");
}

/** The dashboard as its file says it, tiles in reading order. */
async function dashboardFileIn(
  trx: Executor,
  dashboard: DashboardWithTiles,
): Promise<{ file: DashboardFile; charts: Map<string, Chart>; keys: string[] }> {
  const { byId: slugOf } = await datasetSlugsIn(trx);
  const charts = new Map<string, Chart>();
  for (const tile of dashboard.tiles) {
    if (tile.kind !== "chart" || charts.has(tile.chartId)) continue;
    const chart = await getChartIn(trx, tile.chartId);
    if (chart) charts.set(chart.id, chart);
  }
  const tiles = [...dashboard.tiles].sort((a, b) => a.position - b.position);
  const keys = assignTileKeys(
    tiles.map((tile) => ({ key: tile.key, name: tileName(tile, charts) })),
  );
  const fileTiles = tiles.map((tile, index): DashboardFileTile => {
    const key = keys[index] as string;
    if (tile.kind === "text") return { key, kind: "text", markdown: tile.markdown };
    if (tile.kind === "stat") {
      // The stat's fields as any write takes them, its dataset named by slug.
      const input = tileToInput(tile) as Extract<TileWrite, { kind: "stat" }>;
      const { id: _id, key: _key, layout: _layout, datasetId, ...stat } = input;
      return {
        key,
        ...(stat as Omit<Extract<DashboardFileTile, { kind: "stat" }>, "key" | "dataset">),
        dataset: slugOf.get(datasetId) ?? datasetId,
      };
    }
    const chart = charts.get(tile.chartId);
    return {
      key,
      kind: "chart",
      chart: {
        title: chart?.title ?? "",
        type: chart?.type ?? "line",
        dataset: chart ? (slugOf.get(chart.datasetId) ?? chart.datasetId) : "",
        query: chart?.query ?? { x: { column: "" }, measures: [], filters: [] },
        options: chart ? fileChartOptions(chart.options, (id) => slugOf.get(id)) : {},
      },
    };
  });
  const file: DashboardFile = {
    format: "seed.dashboard/v1",
    slug: dashboard.slug,
    title: dashboard.title,
    description: dashboard.description,
    icon: dashboard.icon,
    timeZone: dashboard.timeZone,
    refreshSeconds: dashboard.refreshSeconds,
    published: dashboard.status === "published",
    embedOrigins: dashboard.embedOrigins,
    filters: dashboard.filters,
    tiles: fileTiles,
    layout: Object.fromEntries(tiles.map((tile, index) => [keys[index], tile.layout])),
  };
  return { file, charts, keys };
}

async function dashboardBySlugIn(trx: Executor, slug: string) {
  const row = await trx
    .selectFrom("dashboards")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row ? getDashboardIn(trx, row.id) : null;
}

export interface ExportedDashboardFile {
  /** The file's text (YAML). */
  text: string;
  file: DashboardFile;
  /** The dashboard's version the file shows (an ETag for a later write). */
  version: number;
}

/** A dashboard's file by its slug, or null when there is none. */
export async function exportDashboardFile(
  ctx: StoreContext,
  slug: string,
  actor: Actor,
  options: { schemaUrl?: string } = {},
): Promise<ExportedDashboardFile | null> {
  const checked = authorize(actor, "content.read") as Actor;
  const dashboard = await dashboardBySlugIn(ctx.db, slug);
  if (!dashboard) return null;
  // A dashboard in a collection none of the account's groups is granted is not there for it.
  if (!(await readable(ctx.db, { seenBy: checked }, "dashboard", dashboard.id))) return null;
  const { file } = await dashboardFileIn(ctx.db, dashboard);
  return { text: printDashboardFile(file, options.schemaUrl), file, version: dashboard.version };
}

export interface ImportedDashboardFile {
  dashboard: DashboardWithTiles;
  /** "created", "updated", or "unchanged" when the file already was the dashboard. */
  outcome: "created" | "updated" | "unchanged";
}

/** A file's problems as one ValidationError, keyed by path in the file ("tiles.2.chart.type"). */
function fileProblems(problems: ReadonlyArray<{ path: string; message: string }>) {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const { path, message } of problems) {
    if (path === "") formErrors.push(message);
    else fieldErrors[path] = [...(fieldErrors[path] ?? []), message];
  }
  return new ValidationError({
    fieldErrors,
    ...(formErrors.length > 0 ? { formError: formErrors.join(" ") } : {}),
  });
}

/** Re-keys a chart's or tile's field errors to where the file says it ("datasetId" -> "dataset"). */
function prefixed(error: unknown, prefix: string, into: Record<string, string[]>): void {
  if (!(error instanceof ValidationError)) throw error;
  const entries = Object.entries(error.fieldErrors);
  if (entries.length === 0) entries.push(["", [error.message]]);
  for (const [field, messages] of entries) {
    const path = [prefix, fileChartPath(field)].filter(Boolean).join(".");
    into[path] = [...(into[path] ?? []), ...messages];
  }
}

/**
 * Creates or updates the dashboard a file describes (by its slug) with its charts, in one
 * transaction: all of it or none. A chart tile keeps its chart when the dashboard has a chart
 * tile of the same key (the chart is changed only if the file changes it); other charts are
 * made new. `expectedVersion` (from an ETag) makes a write over a newer version a conflict.
 */
export async function importDashboardFile(
  ctx: StoreContext,
  source: string | DashboardFile,
  actor: Actor,
  options: {
    expectedVersion?: number;
    /** Set by provisioning only: the folder's file this dashboard is kept from. */
    managedFile?: string;
  } = {},
): Promise<ImportedDashboardFile> {
  const checkedActor = authorize(actor, "content.write");
  let read: DashboardFile;
  if (typeof source === "string") {
    const reading = readDashboardFile(source);
    if (!reading.ok) throw fileProblems(reading.problems);
    read = reading.file;
  } else {
    read = source;
  }
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await dashboardBySlugIn(trx, read.slug);
    if (existing && options.expectedVersion !== undefined) {
      if (existing.version !== options.expectedVersion) {
        throw new ConflictError(
          "dashboard",
          existing.id,
          options.expectedVersion,
          existing.version,
        );
      }
    }
    if (existing) checkOwner(existing, options.managedFile);
    const current = existing ? await dashboardFileIn(trx, existing) : null;
    const file = withKeptPlaces(read, current);
    if (current && printDashboardFile(current.file) === printDashboardFile(file)) {
      return { dashboard: existing as DashboardWithTiles, outcome: "unchanged" };
    }
    const tiles = await writeFileTiles(trx, ctx, file, checkedActor, existing, current, {
      managedFile: options.managedFile,
    });
    return inFileTerms(file, () =>
      writeDashboard(trx, ctx, file, checkedActor, existing, tiles, options.managedFile),
    );
  });
}

/**
 * A tile the file gives no place keeps the place its key has on the dashboard now, so a file
 * without a layout block neither moves tiles nor reads as a change each time it is imported.
 */
function withKeptPlaces(
  file: DashboardFile,
  current: { file: DashboardFile } | null,
): DashboardFile {
  if (!current) return file;
  const layout = { ...file.layout };
  for (const tile of file.tiles) {
    const kept = current.file.layout[tile.key];
    if (layout[tile.key] === undefined && kept !== undefined) layout[tile.key] = kept;
  }
  return { ...file, layout };
}

/** Who may write a dashboard from a file: its own provisioning file, or anyone if it has none. */
function checkOwner(existing: DashboardWithTiles, managedFile: string | undefined): void {
  if (managedFile === undefined) {
    refuseManaged(existing);
    return;
  }
  if (existing.managedFile === managedFile) return;
  const formError =
    existing.managedFile === null
      ? `A dashboard made in the app already has the slug "${existing.slug}"; rename or delete it to provision this file.`
      : `The file "${existing.managedFile}" already provisions the slug "${existing.slug}".`;
  throw new ValidationError({ fieldErrors: { slug: [formError] }, formError });
}

/** The dashboard write's problems named as the file names them: a tile's place is its layout's. */
async function inFileTerms<T>(file: DashboardFile, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const fieldErrors: Record<string, string[]> = {};
    for (const [field, messages] of Object.entries(error.fieldErrors)) {
      const match = /^tiles\.(\d+)\.(x|y|w|h|layout)$/.exec(field);
      const key = match ? file.tiles[Number(match[1])]?.key : undefined;
      const path =
        key === undefined
          ? field
          : `layout.${key}${match?.[2] === "layout" ? "" : `.${match?.[2]}`}`;
      fieldErrors[path] = [...(fieldErrors[path] ?? []), ...messages];
    }
    throw new ValidationError({
      fieldErrors,
      ...(error.formError === undefined ? {} : { formError: error.formError }),
    });
  }
}

async function writeDashboard(
  trx: Executor,
  ctx: StoreContext,
  file: DashboardFile,
  checkedActor: RecordedActor,
  existing: DashboardWithTiles | null,
  tiles: TileWrite[],
  managedFile: string | undefined,
): Promise<ImportedDashboardFile> {
  const settings = {
    title: file.title,
    slug: file.slug,
    description: file.description,
    icon: file.icon,
    timeZone: file.timeZone,
    embedOrigins: file.embedOrigins,
    refreshSeconds: file.refreshSeconds,
    filters: file.filters,
  };
  if (!existing) {
    const dashboard = await createDashboardIn(
      trx,
      ctx,
      { ...settings, published: file.published, tiles },
      checkedActor,
      managedFile === undefined ? {} : { managedFile },
    );
    await checkFilterColumns(trx, dashboard.id, settings.filters);
    return { dashboard, outcome: "created" };
  }
  const publishing =
    file.published === (existing.status === "published")
      ? {}
      : file.published
        ? { status: "published", published_at: ctx.now().toISOString() }
        : { status: "draft", published_at: null };
  const dashboard = await changeDashboardIn(
    trx,
    ctx,
    existing.id,
    existing.version,
    checkedActor,
    () => ({
      values: {
        title: settings.title,
        description: settings.description,
        icon: settings.icon,
        time_zone: settings.timeZone,
        embed_origins_json: JSON.stringify(settings.embedOrigins),
        refresh_seconds: settings.refreshSeconds,
        filters_json: JSON.stringify(settings.filters),
        ...publishing,
      },
      tiles,
      filters: settings.filters,
      action: "dashboard.update",
      detail: () => ({
        title: file.title,
        changed: ["file"],
        ...("status" in publishing ? { status: publishing.status } : {}),
      }),
    }),
  );
  return { dashboard, outcome: "updated" };
}

/**
 * The file's tiles as tile writes: datasets by slug, each chart tile's chart created or (when
 * the file changes it) updated. Every problem is collected, keyed by the file's path.
 */
async function writeFileTiles(
  trx: Executor,
  ctx: StoreContext,
  file: DashboardFile,
  actor: RecordedActor,
  existing: DashboardWithTiles | null,
  current: Awaited<ReturnType<typeof dashboardFileIn>> | null,
  options: { managedFile?: string | undefined },
): Promise<TileWrite[]> {
  const { bySlug } = await datasetSlugsIn(trx);
  const fieldErrors: Record<string, string[]> = {};
  // The dashboard's tiles by the key its file gives them now.
  const existingByKey = new Map<string, DashboardTile>();
  if (existing && current) {
    const ordered = [...existing.tiles].sort((a, b) => a.position - b.position);
    for (const [index, tile] of ordered.entries()) {
      existingByKey.set(current.keys[index] as string, tile);
    }
  }
  const datasetOf = (slug: string, path: string): string => {
    const id = bySlug.get(slug);
    if (id === undefined) fieldErrors[path] = [`No dataset has the slug "${slug}".`];
    return id ?? "";
  };
  const writes: TileWrite[] = [];
  for (const [index, tile] of file.tiles.entries()) {
    const before = existingByKey.get(tile.key);
    const base = {
      ...(before?.kind === tile.kind ? { id: before.id } : {}),
      key: tile.key,
      ...(file.layout[tile.key] ? { layout: file.layout[tile.key] } : {}),
    };
    if (tile.kind === "text") {
      writes.push({ kind: "text", ...base, markdown: tile.markdown });
      continue;
    }
    if (tile.kind === "stat") {
      const { key: _key, dataset, ...stat } = tile;
      const datasetId = datasetOf(dataset, `tiles.${index}.dataset`);
      const columns = datasetId ? await queryColumnsIn(trx, datasetId) : null;
      const problem = columns ? checkStatTileColumn(stat, columns) : null;
      if (problem) fieldErrors[`tiles.${index}.column`] = [problem];
      writes.push({ ...stat, ...base, datasetId });
      continue;
    }
    const prefix = `tiles.${index}.chart`;
    const datasetId = datasetOf(tile.chart.dataset, `${prefix}.dataset`);
    const stored = storedChartOptions(tile.chart.options ?? {}, (slug) => bySlug.get(slug));
    if ("message" in stored) fieldErrors[`${prefix}.options.${stored.path}`] = [stored.message];
    if (!datasetId || !("options" in stored)) continue;
    const input = {
      title: tile.chart.title,
      type: tile.chart.type,
      datasetId,
      query: tile.chart.query,
      options: stored.options,
    };
    const kept = before?.kind === "chart" ? current?.charts.get(before.chartId) : undefined;
    try {
      const chart = kept
        ? chartAlreadyIs(kept, input)
          ? kept
          : await saveChartIn(trx, ctx, kept.id, kept.version, input, actor, options)
        : await createChartIn(trx, ctx, input, actor);
      // A file says exactly what it draws: an option this chart would not draw is refused.
      for (const name of Object.keys(input.options)) {
        if (!(name in chart.options)) {
          fieldErrors[`${prefix}.options.${name}`] = [
            `This ${input.type} chart does not draw ${name} with this query; remove it.`,
          ];
        }
      }
      writes.push({ kind: "chart", ...base, chartId: chart.id });
    } catch (error) {
      prefixed(error, prefix, fieldErrors);
    }
  }
  if (Object.keys(fieldErrors).length > 0) throw new ValidationError({ fieldErrors });
  return writes;
}

export const dashboardFileOperations = {
  /** A dashboard as its YAML file (datasets by slug, tiles by key), by the dashboard's slug. */
  exportDashboardFile,
  /** Creates or updates a dashboard and its charts from a file: one version, or none if unchanged. */
  importDashboardFile,
};
