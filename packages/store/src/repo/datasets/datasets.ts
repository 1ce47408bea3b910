import type { ChartType, QueryFilter } from "@seed/model";
import {
  type Aggregation,
  annotationSourceProblems,
  type CalculatedField,
  type ChartOptions,
  type ChartQuery,
  calculatedFieldErrors,
  calculatedFieldsOver,
  checkQuery,
  checkRows,
  checkStatTileColumn,
  type DatasetColumn,
  type DatasetInput,
  type DatasetPatch,
  type DatasetRow,
  datasetInputSchema,
  datasetLimits,
  datasetPatchSchema,
  datasetRowsSchema,
  describeHierarchy,
  hierarchyErrors,
  queryColumnsOf,
  rowProblemsError,
  sqlTableNames,
  ValidationError,
} from "@seed/model";
import type { Selectable } from "kysely";
import { type Actor, authorize } from "../../access/policy.js";
import {
  type Executor,
  newId,
  parseInput,
  parseJson,
  type RecordedActor,
  type StoreContext,
} from "../../context.js";
import {
  columnIdsFor,
  type DatasetTable,
  liveDatasetReadOnly,
  rowsKeptHere,
  type TableColumn,
} from "../../db/dataset-table.js";
import { type RowsState, writeRows } from "../../db/rows-home.js";
import {
  countRows,
  type KeyedRow,
  type RowsPageOptions,
  readKeyedRows,
  readRows,
} from "../../db/rows-table.js";
import type { DatasetsTable } from "../../db/schema.js";
import { limitedTable } from "../../engine/row-limit.js";
import { readable, type SeenBy, seenCollections, seenWhere } from "../collections.js";
import { forgetRowLimits, limitedDatasetIds, rowsSeenIn } from "../row-limits.js";
import {
  createdWrite,
  dashboardsWithTilesOn,
  versionedDelete,
  versionedWrite,
} from "../versioned-write.js";
import { calculatedFieldsOf } from "./fields.js";
import { assertDatasetSize } from "./size.js";

export interface Dataset {
  id: string;
  name: string;
  description: string;
  columns: DatasetColumn[];
  /** Calculated fields, each with its type or why it no longer fits the columns. */
  calculatedFields: CalculatedField[];
  /** Category hierarchies: the columns a chart drills through, coarsest first. */
  hierarchies: string[][];
  rowCount: number;
  version: number;
  createdAt: string;
  updatedAt: string;
  /** Where a live dataset's rows are (src/repo/sources); null when they are kept here. */
  live: LiveDatasetOrigin | null;
  /** A saved SQL question's text (src/repo/sql-questions.ts): its rows are its answer. */
  question: { sql: string } | null;
}

/** A live dataset's table or view in its source, and which remote columns were left out. */
export interface LiveDatasetOrigin {
  sourceId: string;
  schema: string;
  table: string;
  note: string | null;
}

export interface DatasetWithRows extends Dataset {
  rows: DatasetRow[];
}

const summaryColumns = [
  "id",
  "name",
  "description",
  "columns_json",
  "fields_json",
  "hierarchies_json",
  "row_count",
  "version",
  "created_at",
  "updated_at",
  "source_id",
  "source_schema",
  "source_table",
  "source_note",
  "question_sql",
] as const;

type DatasetSummaryRow = Omit<
  Selectable<DatasetsTable>,
  "rows_generation" | "rows_added_at" | "collection_id"
>;

function toDataset(row: DatasetSummaryRow): Dataset {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    columns: parseJson<TableColumn[]>(row.columns_json).map(({ name, type }) => ({
      name,
      type: type as DatasetColumn["type"],
    })),
    calculatedFields: calculatedFieldsOf(row),
    hierarchies: parseJson<string[][]>(row.hierarchies_json),
    rowCount: Number(row.row_count),
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    live:
      row.source_id === null
        ? null
        : {
            sourceId: row.source_id,
            schema: row.source_schema ?? "",
            table: row.source_table ?? "",
            note: row.source_note,
          },
    question: row.question_sql === null ? null : { sql: row.question_sql },
  };
}

/** The size limit of the dataset's rows home, checked on written rows before the write ends. */
function sizeCheck(ctx: StoreContext) {
  return (executor: Executor, table: DatasetTable) =>
    assertDatasetSize(executor, table, ctx.rows.limits.maxDatasetBytes);
}

/** Columns with their SQL ids: ids are made from the names, in order. */
export function storedColumnsFor(columns: readonly DatasetColumn[]): TableColumn[] {
  const ids = columnIdsFor(columns.map((column) => column.name));
  return columns.map((column, index) => ({
    id: ids[index] ?? `c_${index}`,
    name: column.name,
    type: column.type,
  }));
}

/** A dataset's committed rows as its state row records them. */
export function rowsStateOf(
  id: string,
  row: { version: number; rows_generation: number; columns_json: string },
): RowsState {
  return {
    id,
    version: Number(row.version),
    generation: Number(row.rows_generation),
    columns: parseJson<TableColumn[]>(row.columns_json),
  };
}

/**
 * The one read of where a dataset's rows are: its committed state when kept here (source_id
 * null), its source's table when live. Undefined when there is no such dataset.
 */
export function datasetPlaceIn(trx: Executor, id: string) {
  return trx
    .selectFrom("datasets")
    .select([
      "columns_json",
      "fields_json",
      "source_id",
      "source_schema",
      "source_table",
      "version",
      "rows_generation",
      "question_sql",
    ])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** The committed rows of a dataset kept here; null when it is missing or live. */
export async function rowsStateIn(trx: Executor, id: string): Promise<RowsState | null> {
  const row = await datasetPlaceIn(trx, id);
  return row && rowsKeptHere(row) ? rowsStateOf(id, row) : null;
}

/** The physical table of a dataset, for the query engine; null when the dataset is missing. */
export async function getDatasetTableIn(
  ctx: StoreContext,
  trx: Executor,
  id: string,
): Promise<DatasetTable | null> {
  const row = await datasetPlaceIn(trx, id);
  if (!row) return null;
  if (rowsKeptHere(row)) {
    return ctx.rows.read(trx, rowsStateOf(id, row), async (_executor, table) => table);
  }
  // A live dataset's table is remote: its row cap comes with the source (src/repo/sources/target.ts).
  return {
    table: row.source_table ?? "",
    columns: parseJson<TableColumn[]>(row.columns_json),
    remote: { schema: row.source_schema ?? "", rowCap: 0 },
  };
}

export interface DatasetRowsPage {
  rows: KeyedRow[];
  /** Rows matching the search, for paging. */
  total: number;
}

/** One page of a dataset's rows, sorted and filtered in the database. */
export async function listDatasetRowsIn(
  ctx: StoreContext,
  trx: Executor,
  id: string,
  options: RowsPageOptions,
  seen: readonly (readonly QueryFilter[])[] | null = null,
): Promise<DatasetRowsPage | null> {
  const exists = await trx
    .selectFrom("datasets")
    .select("id")
    .where("id", "=", id)
    .executeTakeFirst();
  if (!exists) return null;
  const state = await rowsStateIn(trx, id);
  if (!state) return { rows: [], total: 0 };
  const limit = Math.min(options.limit, 1_000);
  const sortBy = state.columns.find((column) => column.name === options.sortBy)?.id;
  return ctx.rows.read(trx, state, async (executor, whole) => {
    const table = limitedTable(executor, whole, seen);
    const [rows, total] = await Promise.all([
      readKeyedRows(executor, table, { ...options, limit, sortBy }),
      countRows(executor, table, options.search),
    ]);
    return { rows, total };
  });
}

/**
 * Every dataset, by name (with `seenBy`: those the account sees, each counting the rows the
 * account reads: a row limit's reader is never told how many rows it does not see).
 */
export async function listDatasets(ctx: StoreContext, reader: SeenBy = {}): Promise<Dataset[]> {
  const seen = await seenCollections(ctx.db, reader);
  const rows = await ctx.db
    .selectFrom("datasets")
    .select(summaryColumns)
    .where(seenWhere("collection_id", seen))
    .orderBy("name")
    .orderBy("id")
    .execute();
  const datasets = rows.map(toDataset);
  const limited = await limitedDatasetIds(ctx.db, reader);
  if (limited.size === 0) return datasets;
  return Promise.all(
    datasets.map(async (dataset) =>
      limited.has(dataset.id) && dataset.question === null
        ? withRowsSeen(ctx, ctx.db, dataset, await rowsSeenIn(ctx.db, reader, dataset.id))
        : dataset,
    ),
  );
}

/** The dataset with `rowCount` the rows the reader reads (`seen` null: every row, as stored). */
async function withRowsSeen(
  ctx: StoreContext,
  trx: Executor,
  dataset: Dataset,
  seen: readonly (readonly QueryFilter[])[] | null,
): Promise<Dataset> {
  if (seen === null) return dataset;
  const state = await rowsStateIn(trx, dataset.id);
  if (!state) return dataset;
  const rowCount = await ctx.rows.read(trx, state, (executor, table) =>
    countRows(executor, limitedTable(executor, table, seen)),
  );
  return { ...dataset, rowCount };
}

/**
 * Every dataset's slug both ways: its SQL table name (sqlTableNames) over all datasets, oldest
 * first, so a slug stays as long as no older dataset takes its name. Files and the REST API name
 * datasets by it, never by id.
 */
export async function datasetSlugsIn(trx: Executor) {
  const rows = await trx
    .selectFrom("datasets")
    .select(["id", "name"])
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const byId = sqlTableNames(rows);
  const bySlug = new Map([...byId].map(([id, slug]) => [slug, id]));
  return { byId, bySlug };
}

/** Each dataset's id and slug, oldest first. */
export async function listDatasetSlugs(ctx: StoreContext): Promise<{ id: string; slug: string }[]> {
  const { byId } = await datasetSlugsIn(ctx.db);
  return [...byId].map(([id, slug]) => ({ id, slug }));
}

/** A dataset with its rows in insertion order, at most `rowLimit` of them (default: the row cap). */
export async function getDatasetIn(
  ctx: StoreContext,
  trx: Executor,
  id: string,
  rowLimit: number = datasetLimits.maxRows,
  seen: readonly (readonly QueryFilter[])[] | null = null,
): Promise<DatasetWithRows | null> {
  const row = await trx.selectFrom("datasets").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  if (!rowsKeptHere(row)) return { ...toDataset(row), rows: [] };
  const rows = await ctx.rows.read(trx, rowsStateOf(id, row), (executor, table) =>
    readRows(executor, limitedTable(executor, table, seen), { limit: rowLimit }),
  );
  return { ...(await withRowsSeen(ctx, trx, toDataset(row), seen)), rows };
}

export async function getDatasetSummaryIn(trx: Executor, id: string): Promise<Dataset | null> {
  const row = await trx
    .selectFrom("datasets")
    .select(summaryColumns)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toDataset(row) : null;
}

/** Rows checked against the columns, or a ValidationError naming each problem's row (and, `numbered`, its row number). */
export function rowsOrThrow(
  columns: readonly DatasetColumn[],
  rows: ReadonlyArray<Record<string, unknown>>,
  options: { numbered?: boolean } = {},
): DatasetRow[] {
  const checked = checkRows(columns as DatasetColumn[], rows as Record<string, unknown>[]);
  if (checked.problems.length > 0) {
    throw rowProblemsError(
      checked.problems.map((problem) => ({
        problem,
        ref: String(problem.row),
        label: `Row ${problem.row}`,
        ...(options.numbered ? { row: problem.row } : {}),
      })),
    );
  }
  return checked.rows;
}

export async function createDatasetIn(
  trx: Executor,
  ctx: StoreContext,
  input: DatasetInput,
  actor: RecordedActor,
): Promise<DatasetWithRows> {
  const parsed = parseInput(datasetInputSchema, input);
  const rows = rowsOrThrow(parsed.columns, parsed.rows);
  const stored = storedColumnsFor(parsed.columns);
  const at = ctx.now().toISOString();
  const dataset: DatasetWithRows = {
    id: newId(),
    name: parsed.name,
    description: parsed.description,
    columns: parsed.columns,
    rows,
    rowCount: rows.length,
    version: 1,
    createdAt: at,
    updatedAt: at,
    live: null,
    question: null,
    calculatedFields: [],
    hierarchies: [],
  };
  return createdWrite(trx, ctx, actor, {
    entityType: "dataset",
    id: dataset.id,
    create: async () => {
      await trx
        .insertInto("datasets")
        .values({
          id: dataset.id,
          name: dataset.name,
          description: dataset.description,
          columns_json: JSON.stringify(stored),
          row_count: rows.length,
          version: 1,
          created_at: at,
          updated_at: at,
          rows_added_at: rows.length > 0 ? at : null,
        })
        .execute();
      const generation = await writeRows(ctx, trx, dataset.id, null, stored, rows, sizeCheck(ctx));
      await trx
        .updateTable("datasets")
        .set({ rows_generation: generation })
        .where("id", "=", dataset.id)
        .execute();
      return {
        result: dataset,
        action: "dataset.create",
        detail: { name: dataset.name, rowCount: rows.length },
      };
    },
  });
}

export async function createDataset(
  ctx: StoreContext,
  input: DatasetInput,
  actor: Actor,
): Promise<DatasetWithRows> {
  const checkedActor = authorize(actor, "content.write");
  return ctx.db.transaction().execute((trx) => createDatasetIn(trx, ctx, input, checkedActor));
}

/** The charts that draw this dataset's rows as events (options.annotationSource). */
async function chartsWithEventsFrom(trx: Executor, datasetId: string) {
  // the id within the options' text narrows the read; the parsed options decide
  const rows = await trx
    .selectFrom("charts")
    .select(["id", "title", "options_json"])
    .where("options_json", "like", `%${datasetId}%`)
    .execute();
  return rows.flatMap((row) => {
    const source = parseJson<ChartOptions>(row.options_json).annotationSource;
    return source?.datasetId === datasetId ? [{ id: row.id, title: row.title, source }] : [];
  });
}

/**
 * Lists the charts and stat tiles that new query columns (stored columns and calculated fields)
 * would break, as field errors on the field that changed: their queries, and the events charts
 * read from this dataset.
 */
export async function checkColumnsStillServeUsers(
  trx: Executor,
  datasetId: string,
  columns: ReturnType<typeof queryColumnsOf>,
  field: "columns" | "calculatedFields" | "sql",
  /** What else the change breaks, reported with them (the dataset's hierarchies). */
  also: readonly string[] = [],
): Promise<void> {
  const problems: string[] = [...also];
  const charts = await trx
    .selectFrom("charts")
    .select(["title", "type", "query_json"])
    .where("dataset_id", "=", datasetId)
    .execute();
  for (const chart of charts) {
    const errors = checkQuery(
      parseJson<ChartQuery>(chart.query_json),
      columns,
      chart.type as ChartType,
    );
    for (const message of Object.values(errors).flat()) {
      problems.push(`Chart "${chart.title}" would break: ${message}`);
    }
  }
  for (const chart of await chartsWithEventsFrom(trx, datasetId)) {
    for (const message of Object.values(annotationSourceProblems(chart.source, columns)).flat()) {
      problems.push(`Chart "${chart.title}" would break (its events): ${message}`);
    }
  }
  const tiles = await trx
    .selectFrom("dashboard_tiles")
    .innerJoin("dashboards", "dashboards.id", "dashboard_tiles.dashboard_id")
    .select(["dashboards.title", "dashboard_tiles.config_json"])
    .where("dashboard_tiles.dataset_id", "=", datasetId)
    .execute();
  for (const tile of tiles) {
    const config = parseJson<{ label: string; column: string; aggregation: Aggregation }>(
      tile.config_json,
    );
    const message = checkStatTileColumn(config, columns);
    if (message) {
      problems.push(`Stat tile "${config.label}" on "${tile.title}" would break: ${message}`);
    }
  }
  if (problems.length > 0) throw new ValidationError({ fieldErrors: { [field]: problems } });
}

/**
 * What new query columns would break of a dataset's hierarchies (a column one names was deleted
 * or retyped), each naming the hierarchy to change first.
 */
export function hierarchyProblems(
  columns: ReturnType<typeof queryColumnsOf>,
  hierarchies: readonly string[][],
): string[] {
  return Object.entries(hierarchyErrors(columns, hierarchies)).map(([path, messages]) => {
    const levels = hierarchies[Number(path.split(".")[1])] ?? [];
    return `Hierarchy ${describeHierarchy(levels)} would break: ${messages.join(" ")} Change the hierarchy first.`;
  });
}

export async function updateDataset(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  patch: DatasetPatch,
  actor: Actor,
): Promise<DatasetWithRows> {
  const checkedActor = authorize(actor, "content.write");
  return updateDatasetAs(ctx, id, expectedVersion, patch, checkedActor);
}

async function updateDatasetAs(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  patch: DatasetPatch,
  checkedActor: RecordedActor,
): Promise<DatasetWithRows> {
  const parsed = parseInput(datasetPatchSchema, patch);
  return versionedWrite(ctx, checkedActor, {
    entityType: "dataset",
    id,
    expectedVersion,
    read: getDatasetSummaryIn,
    change: async (summary, row, trx) => {
      const columns = parsed.columns ?? summary.columns;
      const rowsChange = parsed.rows !== undefined || parsed.columns !== undefined;
      const elsewhere = summary.live !== null || summary.question !== null;
      if (elsewhere && rowsChange)
        throw liveDatasetReadOnly({ question_sql: summary.question?.sql });
      // Rewriting columns reads every row into memory: only within the in-memory row limit.
      if (parsed.columns && !parsed.rows && summary.rowCount > datasetLimits.maxRows) {
        throw new ValidationError({
          fieldErrors: {
            columns: [
              `Columns of a dataset over ${datasetLimits.maxRows.toLocaleString("en-US")} rows cannot be changed here; import the file again instead.`,
            ],
          },
        });
      }
      const current = (await getDatasetIn(ctx, trx, id)) as DatasetWithRows;
      const state = elsewhere ? null : await rowsStateIn(trx, id);
      // Kept rows are rechecked against new columns: a retyped column must still fit its values.
      const known = new Set(columns.map((column) => column.name));
      const keptRows = current.rows.map((row) =>
        Object.fromEntries(Object.entries(row).filter(([name]) => known.has(name))),
      );
      const rows = rowsChange ? rowsOrThrow(columns, parsed.rows ?? keptRows) : current.rows;
      const rowCount = rowsChange ? rows.length : summary.rowCount;
      const fields = parsed.calculatedFields ?? current.calculatedFields;
      if (parsed.calculatedFields) {
        const fieldErrors = calculatedFieldErrors(columns, parsed.calculatedFields);
        if (Object.keys(fieldErrors).length > 0) throw new ValidationError({ fieldErrors });
      }
      const calculatedFields = calculatedFieldsOver(
        columns,
        fields.map(({ name, expression }) => ({ name, expression })),
      );
      const queryColumns = queryColumnsOf({ columns, calculatedFields });
      const hierarchies = parsed.hierarchies ?? current.hierarchies;
      if (parsed.hierarchies) {
        const fieldErrors = hierarchyErrors(queryColumns, hierarchies);
        if (Object.keys(fieldErrors).length > 0) throw new ValidationError({ fieldErrors });
      }
      if (parsed.columns || parsed.calculatedFields) {
        await checkColumnsStillServeUsers(
          trx,
          id,
          queryColumns,
          parsed.columns ? "columns" : "calculatedFields",
          hierarchyProblems(queryColumns, hierarchies),
        );
      }
      // A column kept under its name and type keeps the format its file was read in.
      const before = new Map((state?.columns ?? []).map((column) => [column.name, column]));
      const stored = storedColumnsFor(columns).map((column) => {
        const kept = before.get(column.name);
        return kept?.format && kept.type === column.type
          ? { ...column, format: kept.format }
          : column;
      });
      const at = ctx.now().toISOString();
      const next: DatasetWithRows = {
        ...current,
        name: parsed.name ?? current.name,
        description: parsed.description ?? current.description,
        columns,
        calculatedFields,
        hierarchies,
        rows,
        rowCount,
        version: expectedVersion + 1,
        updatedAt: at,
      };
      const generation = rowsChange
        ? await writeRows(ctx, trx, id, state, stored, rows, sizeCheck(ctx))
        : null;
      await row.update({
        name: next.name,
        description: next.description,
        // A live dataset's column ids are the remote names from its catalog: kept as they are.
        ...(elsewhere ? {} : { columns_json: JSON.stringify(stored) }),
        ...(generation === null ? {} : { rows_generation: generation }),
        ...(parsed.calculatedFields
          ? {
              fields_json: JSON.stringify(
                parsed.calculatedFields.map(({ name, expression }) => ({ name, expression })),
              ),
            }
          : {}),
        ...(parsed.hierarchies ? { hierarchies_json: JSON.stringify(parsed.hierarchies) } : {}),
        row_count: rowCount,
        updated_at: at,
        ...(rowsChange && rowCount > 0 ? { rows_added_at: at } : {}),
      });
      return {
        result: next,
        action: "dataset.update",
        detail: {
          changed: Object.keys(parsed).filter(
            (key) => parsed[key as keyof typeof parsed] !== undefined,
          ),
          rowCount,
        },
      };
    },
  });
}

export async function replaceDatasetRows(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  rows: ReadonlyArray<Record<string, unknown>>,
  actor: Actor,
): Promise<DatasetWithRows> {
  const checkedActor = authorize(actor, "rows.replace", { datasetId: id });
  const parsedRows = parseInput(datasetRowsSchema, rows);
  return updateDatasetAs(ctx, id, expectedVersion, { rows: parsedRows }, checkedActor);
}

/** Refused while charts or dashboard tiles use it (InUseError names them); its table goes too. */
export const deleteDataset = versionedDelete({
  entityType: "dataset",
  permission: "content.write",
  action: "dataset.delete",
  read: getDatasetSummaryIn,
  usedBy: async (trx, id) => {
    const charts = await trx
      .selectFrom("charts")
      .select(["id", "title"])
      .where("dataset_id", "=", id)
      .execute();
    const drawingEvents = (await chartsWithEventsFrom(trx, id)).filter(
      (chart) => !charts.some((other) => other.id === chart.id),
    );
    return [
      ...[...charts, ...drawingEvents].map(({ id, title }) => ({
        entityType: "chart" as const,
        id,
        title,
      })),
      ...(await dashboardsWithTilesOn(trx, "dataset_id", id)),
    ];
  },
  alsoRemove: async (trx, id, ctx) => {
    await forgetRowLimits(trx, { datasetId: id });
    await ctx.rows.removeIn(trx, id);
  },
  afterwards: (ctx, id) => ctx.rows.removed(id),
  detail: (current) => ({ name: current.name }),
});

/** A dataset with at most `rowLimit` rows in insertion order (default: datasetLimits.maxRows). */
export async function getDataset(
  ctx: StoreContext,
  id: string,
  rowLimit?: number,
  reader: SeenBy = {},
) {
  if (!(await readable(ctx.db, reader, "dataset", id))) return null;
  return getDatasetIn(ctx, ctx.db, id, rowLimit, await rowsSeenIn(ctx.db, reader, id));
}

/** One page of rows, sorted and filtered in the database (null: no such dataset, or not seen). */
export async function listDatasetRows(
  ctx: StoreContext,
  id: string,
  options: RowsPageOptions,
  reader: SeenBy = {},
) {
  if (!(await readable(ctx.db, reader, "dataset", id))) return null;
  return listDatasetRowsIn(ctx, ctx.db, id, options, await rowsSeenIn(ctx.db, reader, id));
}

/** The dataset's own table and columns, for the query engine. */
export function getDatasetTable(ctx: StoreContext, id: string) {
  return getDatasetTableIn(ctx, ctx.db, id);
}

/** What the store offers on datasets (openStore binds each to its context). */
export const datasetOperations = {
  listDatasets,
  listDatasetSlugs,
  getDataset,
  listDatasetRows,
  getDatasetTable,
  createDataset,
  updateDataset,
  replaceDatasetRows,
  deleteDataset,
};
