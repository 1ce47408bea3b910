import { z } from "zod";
import { type ChartOptions, chartAnnotationSourceSchema, chartOptionsSchema } from "../chart.js";
import { chartTypes } from "../chart-types.js";
import { requiredText } from "../fields.js";
import { dashboardLimits, textLimits } from "../limits.js";
import { type ChartQueryInput, chartQuerySchema } from "../query/spec.js";
import { slugWords } from "../slug.js";
import { dashboardInputSchema } from "./dashboard.js";
import {
  statTileInputSchema,
  textTileInputSchema,
  tileKeySchema,
  tileLayoutSchema,
} from "./tiles.js";

// A dashboard as a file: one YAML document per dashboard, its charts inline with their queries,
// datasets named by their slug (never a database id), its layout in a block of its own keyed by
// each tile's key. The one home of the format: its schema (and JSON Schema), printing and reading.
// The store turns a file into a dashboard and back (packages/store repo/dashboards/file.ts). Its
// text (YAML) is written and read in ./file-text.ts, a separate entry (@seed/model/file), so no
// page's browser bundle carries a YAML parser.

/** The first line of every dashboard file; a later format gets a new name. */
export const dashboardFileFormat = "seed.dashboard/v1";

export const dashboardFileLimits = {
  /** Bytes of one file's text. */
  maxBytes: 1_000_000,
  /** YAML aliases one file may use (a few expand to a huge document otherwise). */
  maxAliases: 100,
} as const;

/** A dataset as files name it: its SQL table name ("Store sales 2025" is store_sales_2025). */
export const datasetSlugSchema = z
  .string({ error: "Name the dataset by its slug, e.g. store_sales_2025." })
  .regex(/^[a-z][a-z0-9_]{0,62}$/, "Name the dataset by its slug, e.g. store_sales_2025.");

/** Events from a dataset as files and the REST API write them: the dataset by slug. */
const fileAnnotationSourceSchema = z
  .object({
    dataset: datasetSlugSchema,
    ...chartAnnotationSourceSchema.omit({ datasetId: true }).shape,
  })
  .strict();

/** A chart's options as files and the REST API write them: every dataset named by slug. */
export const fileChartOptionsSchema = chartOptionsSchema.extend({
  annotationSource: fileAnnotationSourceSchema.optional(),
});
export type FileChartOptions = z.output<typeof fileChartOptionsSchema>;

/** A chart's stored options as a file writes them (the events' dataset by its slug). */
export function fileChartOptions(
  options: ChartOptions,
  slugOf: (id: string) => string | undefined,
): FileChartOptions {
  const { annotationSource, ...rest } = options;
  if (!annotationSource) return rest;
  const { datasetId, ...columns } = annotationSource;
  return { ...rest, annotationSource: { dataset: slugOf(datasetId) ?? datasetId, ...columns } };
}

/**
 * A file's chart options as the store keeps them (the events' dataset by id), or the problem
 * at its path within the options when no dataset has the slug.
 */
export function storedChartOptions(
  options: FileChartOptions,
  idOf: (slug: string) => string | undefined,
): { options: ChartOptions } | { path: string; message: string } {
  const { annotationSource, ...rest } = options;
  if (!annotationSource) return { options: rest };
  const { dataset, ...columns } = annotationSource;
  const datasetId = idOf(dataset);
  if (datasetId === undefined) {
    return { path: "annotationSource.dataset", message: `No dataset has the slug "${dataset}".` };
  }
  return { options: { ...rest, annotationSource: { datasetId, ...columns } } };
}

/**
 * A stored chart's field path as files and the REST API name it, datasets by slug:
 * "datasetId" is "dataset", "options.annotationSource.datasetId" is "options.annotationSource.dataset".
 */
export function fileChartPath(path: string): string {
  return path.replace(/^(options\.annotationSource\.)?datasetId\b/, "$1dataset");
}

/** A chart as a file writes it inline (and the REST API takes it): its dataset by slug. */
export const dashboardFileChartSchema = z
  .object({
    title: requiredText("title", textLimits.title),
    type: z.enum(chartTypes, {
      error: `Chart type must be ${chartTypes.slice(0, -1).join(", ")} or ${chartTypes.at(-1)}.`,
    }),
    dataset: datasetSlugSchema,
    query: chartQuerySchema,
    options: fileChartOptionsSchema.optional(),
  })
  .strict();
export type DashboardFileChart = z.output<typeof dashboardFileChartSchema>;

const fileChartTileSchema = z
  .object({ key: tileKeySchema, kind: z.literal("chart"), chart: dashboardFileChartSchema })
  .strict();
const fileStatTileSchema = statTileInputSchema
  .omit({ id: true, layout: true, datasetId: true })
  .extend({ key: tileKeySchema, dataset: datasetSlugSchema })
  .strict();
const fileTextTileSchema = textTileInputSchema
  .omit({ id: true, layout: true })
  .extend({ key: tileKeySchema })
  .strict();

const fileTileSchema = z.discriminatedUnion(
  "kind",
  [fileChartTileSchema, fileStatTileSchema, fileTextTileSchema],
  { error: 'A tile\'s kind must be "chart", "stat" or "text".' },
);
export type DashboardFileTile = z.output<typeof fileTileSchema>;

const settings = dashboardInputSchema.shape;

export const dashboardFileSchema = z
  .object({
    format: z.literal(dashboardFileFormat, {
      error: `The first line must be "format: ${dashboardFileFormat}".`,
    }),
    slug: settings.slug,
    title: settings.title,
    description: settings.description,
    icon: settings.icon,
    timeZone: settings.timeZone,
    refreshSeconds: settings.refreshSeconds,
    published: settings.published,
    embedOrigins: settings.embedOrigins,
    filters: settings.filters,
    tiles: z
      .array(fileTileSchema, { error: "Tiles must be a list." })
      .max(dashboardLimits.maxTiles, `A dashboard has at most ${dashboardLimits.maxTiles} tiles.`)
      .default([]),
    /** Each tile's place on the 12-column grid, by key; a tile without one takes a free place. */
    layout: z
      .record(z.string(), tileLayoutSchema, { error: "The layout maps tile keys to places." })
      .default({}),
  })
  .strict()
  .superRefine((file, ctx) => {
    const keys = new Set<string>();
    for (const [index, tile] of file.tiles.entries()) {
      if (keys.has(tile.key)) {
        ctx.addIssue({
          code: "custom",
          path: ["tiles", index, "key"],
          message: `Another tile already has the key "${tile.key}".`,
        });
      }
      keys.add(tile.key);
    }
    for (const key of Object.keys(file.layout)) {
      if (!keys.has(key)) {
        ctx.addIssue({
          code: "custom",
          path: ["layout", key],
          message: `No tile has the key "${key.slice(0, 64)}".`,
        });
      }
    }
  });
export type DashboardFile = z.output<typeof dashboardFileSchema>;
export type DashboardFileInput = z.input<typeof dashboardFileSchema>;

/** The JSON Schema of a dashboard file, for editors' completion (yaml-language-server). */
export function dashboardFileJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(dashboardFileSchema, {
      io: "input",
      target: "draft-2020-12",
      unrepresentable: "any",
    }),
    title: "Seed dashboard file",
  };
}

/**
 * Keys for tiles that have none yet, from their title (a chart's, a stat's label, a text's first
 * words), made unique with -2, -3 in reading order; a tile's own key is kept.
 */
export function assignTileKeys(
  tiles: ReadonlyArray<{ key: string | null; name: string }>,
): string[] {
  const used = new Set(tiles.flatMap((tile) => (tile.key ? [tile.key] : [])));
  return tiles.map((tile) => {
    if (tile.key) return tile.key;
    const base = slugWords(tile.name, 48).replace(/-+$/, "") || "tile";
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}-${n}`;
    used.add(key);
    return key;
  });
}

/** A chart query as files write it: what the query says, without its empty filter list. */
export function fileQuery(query: ChartQueryInput): ChartQueryInput {
  const { filters, ...rest } = query;
  return filters && filters.length > 0 ? { ...rest, filters } : rest;
}
