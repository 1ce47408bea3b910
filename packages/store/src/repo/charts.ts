import {
  acceptedOptions,
  annotationSourceProblems,
  type ChartInput,
  type ChartOptions,
  type ChartPatch,
  type ChartQuery,
  type ChartType,
  chartInputSchema,
  chartQueryOf,
  chartQuerySchema,
  checkQuery,
  queryShape,
  ValidationError,
} from "@seed/model";
import type { Selectable } from "kysely";
import { type Actor, authorize } from "../access/policy.js";
import {
  type Executor,
  newId,
  parseInput,
  parseJson,
  type RecordedActor,
  type StoreContext,
} from "../context.js";
import type { ChartsTable } from "../db/schema.js";
import {
  readable,
  recordVisible,
  type SeenBy,
  seenCollections,
  seenWhere,
  visibilityOf,
} from "./collections.js";
import { queryColumnsIn } from "./datasets/fields.js";
import { getVersionIn } from "./history.js";
import {
  createdWrite,
  dashboardsWithTilesOn,
  versionedDelete,
  versionedWriteIn,
} from "./versioned-write.js";

export interface Chart {
  id: string;
  title: string;
  type: ChartType;
  datasetId: string;
  /** What the chart draws, run in the database (src/engine). */
  query: ChartQuery;
  /** The query's x column, for simple editors. */
  indexColumn: string;
  /** The query's measured columns, for simple editors. */
  seriesColumns: string[];
  options: ChartOptions;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * Whether a chart already is what an input says (title, type, dataset, query and options, key
 * order aside), so a file import or an API write of it makes no new version.
 */
export function chartAlreadyIs(
  chart: Chart,
  input: { title: string; type: string; datasetId: string; query: unknown; options: object },
): boolean {
  return (
    chart.title === input.title &&
    chart.type === input.type &&
    chart.datasetId === input.datasetId &&
    sortedJson(chart.query) === sortedJson(input.query) &&
    sortedJson(chart.options) === sortedJson(input.options)
  );
}

function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)))
      : inner,
  );
}

/** The simple editor's view of a query: its x column and measured columns. */
function columnsOfQuery(query: ChartQuery) {
  return {
    indexColumn: query.x.column,
    seriesColumns: query.measures.flatMap((measure) => (measure.column ? [measure.column] : [])),
  };
}

/** A stored query; one that no longer parses is kept as is and fails when it runs, by name. */
function storedQuery(json: string): ChartQuery {
  const raw = parseJson<unknown>(json);
  const parsed = chartQuerySchema.safeParse(raw);
  return parsed.success ? parsed.data : (raw as ChartQuery);
}

export function toChart(row: Selectable<ChartsTable>): Chart {
  const query = storedQuery(row.query_json);
  return {
    id: row.id,
    title: row.title,
    type: row.type as ChartType,
    datasetId: row.dataset_id,
    query,
    ...columnsOfQuery(query),
    options: parseJson<ChartOptions>(row.options_json),
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function listCharts(
  ctx: StoreContext,
  filter: { datasetId?: string } & SeenBy = {},
): Promise<Chart[]> {
  const seen = await seenCollections(ctx.db, filter);
  let query = ctx.db
    .selectFrom("charts")
    .selectAll()
    .where(seenWhere("collection_id", seen))
    .orderBy("title")
    .orderBy("id");
  if (filter.datasetId !== undefined) query = query.where("dataset_id", "=", filter.datasetId);
  return (await query.execute()).map(toChart);
}

export async function getChartIn(trx: Executor, id: string): Promise<Chart | null> {
  const row = await trx.selectFrom("charts").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toChart(row) : null;
}

/** Where a query problem shows in the simple form (index and series fields). */
function simpleFormField(path: string): string {
  if (path.startsWith("x")) return "indexColumn";
  if (path.startsWith("measures")) return "seriesColumns";
  return "query";
}

/**
 * Parses a chart and checks its query against its dataset's columns, in the write's transaction;
 * a dataset the writer does not see (another collection's) is "not there", unless the chart
 * being changed (`kept`) already uses it; the same for the dataset its events come from.
 */
async function checkChart(
  trx: Executor,
  input: ChartInput,
  actor: RecordedActor,
  kept: Chart | null = null,
) {
  const chart = parseInput(chartInputSchema, input);
  const visibility = await visibilityOf(trx, actor);
  const seen = (datasetId: string, keptId: string | undefined) =>
    datasetId === keptId || recordVisible(trx, visibility, "dataset", datasetId);
  const visible = await seen(chart.datasetId, kept?.datasetId);
  const columns = visible ? await queryColumnsIn(trx, chart.datasetId) : null;
  if (!columns) {
    throw new ValidationError({ fieldErrors: { datasetId: ["Choose an existing dataset."] } });
  }
  const query = chartQuerySchema.parse(chartQueryOf(chart));
  const problems = checkQuery(query, columns, chart.type);
  const fieldErrors: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(problems)) {
    const field = chart.query ? `query.${path}` : simpleFormField(path);
    fieldErrors[field] = [...(fieldErrors[field] ?? []), ...messages];
  }
  if (Object.keys(fieldErrors).length > 0) throw new ValidationError({ fieldErrors });
  // What the query does not draw (stacking one series, date formats of a non-date x) is dropped.
  const options = acceptedOptions(
    chart.type,
    chart.options,
    queryShape(chart.type, query, columns),
  );
  // The events' dataset is read like the chart's own: one the writer does not see is "not there".
  const source = options.annotationSource;
  if (source) {
    const keptSource = kept?.options.annotationSource?.datasetId;
    const sourceColumns = (await seen(source.datasetId, keptSource))
      ? await queryColumnsIn(trx, source.datasetId)
      : null;
    const sourceProblems = sourceColumns
      ? annotationSourceProblems(source, sourceColumns)
      : { datasetId: ["Choose an existing dataset of events."] };
    if (Object.keys(sourceProblems).length > 0) {
      throw new ValidationError({
        fieldErrors: Object.fromEntries(
          Object.entries(sourceProblems).map(([field, messages]) => [
            `options.annotationSource.${field}`,
            messages,
          ]),
        ),
      });
    }
  }
  return {
    title: chart.title,
    type: chart.type,
    datasetId: chart.datasetId,
    query,
    ...columnsOfQuery(query),
    options,
  };
}

/** What a chart's history keeps of it: the fields its update takes, so a restore replays them. */
function chartSnapshot(chart: Pick<Chart, "title" | "type" | "datasetId" | "query" | "options">) {
  return {
    title: chart.title,
    type: chart.type,
    datasetId: chart.datasetId,
    query: chart.query,
    options: chart.options,
  };
}

export async function createChartIn(
  trx: Executor,
  ctx: StoreContext,
  input: ChartInput,
  actor: RecordedActor,
): Promise<Chart> {
  const chart = await checkChart(trx, input, actor);
  const at = ctx.now().toISOString();
  const id = newId();
  return createdWrite(trx, ctx, actor, {
    entityType: "chart",
    id,
    create: async () => {
      await trx
        .insertInto("charts")
        .values({
          id,
          title: chart.title,
          type: chart.type,
          dataset_id: chart.datasetId,
          query_json: JSON.stringify(chart.query),
          options_json: JSON.stringify(chart.options),
          version: 1,
          created_at: at,
          updated_at: at,
        })
        .execute();
      return {
        result: { id, ...chart, version: 1, createdAt: at, updatedAt: at },
        action: "chart.create",
        detail: { title: chart.title, type: chart.type },
        snapshot: chartSnapshot(chart),
      };
    },
  });
}

/** Saves an older version's fields as the chart's next version (checked like any update). */
export async function restoreChartVersion(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  fromVersion: number,
  actor: Actor,
): Promise<Chart> {
  authorize(actor, "content.write");
  const kept = await getVersionIn(ctx.db, "chart", id, fromVersion);
  if (!kept) {
    const message = `Version ${fromVersion} of this chart is not kept.`;
    throw new ValidationError({ fieldErrors: { fromVersion: [message] }, formError: message });
  }
  return saveChart(ctx, id, expectedVersion, kept.snapshot as ChartPatch, actor, {
    restoredFrom: fromVersion,
  });
}

export async function createChart(
  ctx: StoreContext,
  input: ChartInput,
  actor: Actor,
): Promise<Chart> {
  const checkedActor = authorize(actor, "content.write");
  return ctx.db.transaction().execute((trx) => createChartIn(trx, ctx, input, checkedActor));
}

export function updateChart(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  patch: ChartPatch,
  actor: Actor,
): Promise<Chart> {
  return saveChart(ctx, id, expectedVersion, patch, actor, {});
}

/** An update, or with `restoredFrom` a restore (audited and kept as chart.restore). */
async function saveChart(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  patch: ChartPatch,
  actor: Actor,
  options: { restoredFrom?: number },
): Promise<Chart> {
  const checkedActor = authorize(actor, "content.write");
  return ctx.db
    .transaction()
    .execute((trx) => saveChartIn(trx, ctx, id, expectedVersion, patch, checkedActor, options));
}

/**
 * The dashboard kept from a file (of the dashboards folder) that shows this chart, other than
 * `exceptFile`'s; null when none does.
 */
async function managedDashboardOfChart(
  trx: Executor,
  id: string,
  exceptFile?: string,
): Promise<{ title: string; managedFile: string } | null> {
  const rows = await trx
    .selectFrom("dashboard_tiles")
    .innerJoin("dashboards", "dashboards.id", "dashboard_tiles.dashboard_id")
    .select(["dashboards.title", "dashboards.managed_file"])
    .where("dashboard_tiles.chart_id", "=", id)
    .where("dashboards.managed_file", "is not", null)
    .orderBy("dashboards.managed_file")
    .execute();
  const found = rows.find((row) => row.managed_file !== exceptFile);
  return found?.managed_file ? { title: found.title, managedFile: found.managed_file } : null;
}

/** Whether a chart is kept from a dashboard file (and so read-only in the app), and which. */
export function getChartKeeper(ctx: StoreContext, id: string) {
  return managedDashboardOfChart(ctx.db, id);
}

/**
 * A chart on a dashboard kept from a file changes only through that file, like the dashboard
 * itself (refuseManaged): refused in the app and to any other file's import. `managedFile` is
 * the file a provisioning run is applying.
 */
async function refuseManagedChart(trx: Executor, id: string, managedFile: string | undefined) {
  const keeper = await managedDashboardOfChart(trx, id, managedFile);
  if (!keeper) return;
  throw new ValidationError({
    fieldErrors: {},
    formError: `This chart is on the dashboard "${keeper.title}", kept from the file "${keeper.managedFile}" in the dashboards folder; change the file instead.`,
  });
}

/** A chart's update in the caller's transaction (a dashboard file writes its charts with it). */
export async function saveChartIn(
  trx: Executor,
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  patch: ChartPatch,
  checkedActor: RecordedActor,
  options: { restoredFrom?: number; managedFile?: string } = {},
): Promise<Chart> {
  await refuseManagedChart(trx, id, options.managedFile);
  return versionedWriteIn(trx, ctx, checkedActor, {
    entityType: "chart",
    id,
    expectedVersion,
    read: getChartIn,
    change: async (current, row, trx) => {
      // A patch gives a query, or the simple form's columns, or neither (the query stays).
      const simple = patch.indexColumn !== undefined || patch.seriesColumns !== undefined;
      const chart = await checkChart(
        trx,
        {
          title: patch.title ?? current.title,
          type: patch.type ?? current.type,
          datasetId: patch.datasetId ?? current.datasetId,
          ...(patch.query || !simple
            ? { query: patch.query ?? current.query }
            : {
                indexColumn: patch.indexColumn ?? current.indexColumn,
                seriesColumns: patch.seriesColumns ?? current.seriesColumns,
              }),
          options: patch.options ?? current.options,
        },
        checkedActor,
        current,
      );
      const at = ctx.now().toISOString();
      await row.update({
        title: chart.title,
        type: chart.type,
        dataset_id: chart.datasetId,
        query_json: JSON.stringify(chart.query),
        options_json: JSON.stringify(chart.options),
        updated_at: at,
      });
      const restoredFrom = options.restoredFrom;
      return {
        result: { ...current, ...chart, version: expectedVersion + 1, updatedAt: at },
        action: restoredFrom === undefined ? "chart.update" : "chart.restore",
        detail: {
          title: chart.title,
          changed: Object.keys(patch),
          ...(restoredFrom === undefined ? {} : { restoredFrom }),
        },
        snapshot: chartSnapshot(chart),
        restoredFrom,
      };
    },
  });
}

/** Refused while on a dashboard (InUseError names them). */
export const deleteChart = versionedDelete({
  entityType: "chart",
  permission: "content.write",
  action: "chart.delete",
  read: getChartIn,
  usedBy: (trx, id) => dashboardsWithTilesOn(trx, "chart_id", id),
  detail: (current) => ({ title: current.title }),
});

export async function getChart(
  ctx: StoreContext,
  id: string,
  reader: SeenBy = {},
): Promise<Chart | null> {
  if (!(await readable(ctx.db, reader, "chart", id))) return null;
  return getChartIn(ctx.db, id);
}

export const chartOperations = {
  listCharts,
  getChart,
  getChartKeeper,
  createChart,
  updateChart,
  deleteChart,
  restoreChartVersion,
};
