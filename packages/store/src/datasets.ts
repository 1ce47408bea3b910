import type { Selectable } from "kysely";
import { InUseError, NotFoundError, ValidationError } from "./errors.js";
import {
  type Actor,
  assertVersion,
  checkActor,
  checkVersion,
  deleteVersioned,
  type Executor,
  newId,
  parseInput,
  parseJson,
  type StoreContext,
  updateVersioned,
  writeAudit,
} from "./internal.js";
import type { DatasetsTable } from "./schema.js";
import {
  type Aggregation,
  checkChartColumns,
  checkRows,
  checkStatTileColumn,
  type DatasetColumn,
  type DatasetInput,
  type DatasetPatch,
  type DatasetRow,
  datasetInputSchema,
  datasetPatchSchema,
  datasetRowsSchema,
} from "./validation.js";

export interface Dataset {
  id: string;
  name: string;
  description: string;
  columns: DatasetColumn[];
  rowCount: number;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface DatasetWithRows extends Dataset {
  rows: DatasetRow[];
}

const summaryColumns = [
  "id",
  "name",
  "description",
  "columns_json",
  "row_count",
  "version",
  "created_at",
  "updated_at",
] as const;

type DatasetSummaryRow = Omit<Selectable<DatasetsTable>, "rows_json">;

function toDataset(row: DatasetSummaryRow): Dataset {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    columns: parseJson<DatasetColumn[]>(row.columns_json),
    rowCount: Number(row.row_count),
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toDatasetWithRows(row: Selectable<DatasetsTable>): DatasetWithRows {
  return { ...toDataset(row), rows: parseJson<DatasetRow[]>(row.rows_json) };
}

export async function listDatasets(ctx: StoreContext): Promise<Dataset[]> {
  const rows = await ctx.db
    .selectFrom("datasets")
    .select(summaryColumns)
    .orderBy("name")
    .orderBy("id")
    .execute();
  return rows.map(toDataset);
}

export async function getDatasetIn(trx: Executor, id: string): Promise<DatasetWithRows | null> {
  const row = await trx.selectFrom("datasets").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toDatasetWithRows(row) : null;
}

export async function getDatasetSummaryIn(trx: Executor, id: string): Promise<Dataset | null> {
  const row = await trx
    .selectFrom("datasets")
    .select(summaryColumns)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toDataset(row) : null;
}

function rowsOrThrow(columns: DatasetColumn[], rows: Record<string, unknown>[]): DatasetRow[] {
  const checked = checkRows(columns, rows);
  if (checked.problems.length > 0) {
    throw new ValidationError({ fieldErrors: { rows: checked.problems } });
  }
  return checked.rows;
}

export async function createDatasetIn(
  trx: Executor,
  ctx: StoreContext,
  input: DatasetInput,
  actor: Actor,
): Promise<DatasetWithRows> {
  const parsed = parseInput(datasetInputSchema, input);
  const rows = rowsOrThrow(parsed.columns, parsed.rows);
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
  };
  await trx
    .insertInto("datasets")
    .values({
      id: dataset.id,
      name: dataset.name,
      description: dataset.description,
      columns_json: JSON.stringify(dataset.columns),
      rows_json: JSON.stringify(rows),
      row_count: rows.length,
      version: 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await writeAudit(trx, ctx, actor, "dataset.create", "dataset", dataset.id, {
    name: dataset.name,
    rowCount: rows.length,
  });
  return dataset;
}

export async function createDataset(
  ctx: StoreContext,
  input: DatasetInput,
  actor: Actor,
): Promise<DatasetWithRows> {
  const checkedActor = checkActor(actor);
  return ctx.db.transaction().execute((trx) => createDatasetIn(trx, ctx, input, checkedActor));
}

/** Lists charts and stat tiles that a new column list would break, as field errors on columns. */
async function checkColumnsStillServeUsers(
  trx: Executor,
  datasetId: string,
  columns: DatasetColumn[],
): Promise<void> {
  const problems: string[] = [];
  const charts = await trx
    .selectFrom("charts")
    .select(["title", "index_column", "series_json"])
    .where("dataset_id", "=", datasetId)
    .execute();
  for (const chart of charts) {
    const errors = checkChartColumns(
      { indexColumn: chart.index_column, seriesColumns: parseJson<string[]>(chart.series_json) },
      columns,
    );
    for (const message of Object.values(errors).flat()) {
      problems.push(`Chart "${chart.title}" would break: ${message}`);
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
  if (problems.length > 0) throw new ValidationError({ fieldErrors: { columns: problems } });
}

export async function updateDataset(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  patch: DatasetPatch,
  actor: Actor,
): Promise<DatasetWithRows> {
  const checkedActor = checkActor(actor);
  checkVersion(expectedVersion);
  const parsed = parseInput(datasetPatchSchema, patch);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await getDatasetIn(trx, id);
    assertVersion("dataset", id, current ?? undefined, expectedVersion);
    if (!current) throw new NotFoundError("dataset", id);
    const columns = parsed.columns ?? current.columns;
    const rows = parsed.rows ? rowsOrThrow(columns, parsed.rows) : current.rows;
    if (parsed.columns) await checkColumnsStillServeUsers(trx, id, columns);
    const at = ctx.now().toISOString();
    const next: DatasetWithRows = {
      ...current,
      name: parsed.name ?? current.name,
      description: parsed.description ?? current.description,
      columns,
      rows,
      rowCount: rows.length,
      version: expectedVersion + 1,
      updatedAt: at,
    };
    await updateVersioned(trx, "datasets", "dataset", id, expectedVersion, {
      name: next.name,
      description: next.description,
      columns_json: JSON.stringify(columns),
      rows_json: JSON.stringify(rows),
      row_count: rows.length,
      updated_at: at,
    });
    await writeAudit(trx, ctx, checkedActor, "dataset.update", "dataset", id, {
      changed: Object.keys(parsed).filter(
        (key) => parsed[key as keyof typeof parsed] !== undefined,
      ),
      rowCount: rows.length,
    });
    return next;
  });
}

export async function replaceDatasetRows(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  rows: ReadonlyArray<Record<string, unknown>>,
  actor: Actor,
): Promise<DatasetWithRows> {
  const parsedRows = parseInput(datasetRowsSchema, rows);
  return updateDataset(ctx, id, expectedVersion, { rows: parsedRows }, actor);
}

/** Row-level edits applied in order: set replaces a row, remove drops rows, append adds at the end. */
export interface DatasetRowEdits {
  set?: ReadonlyArray<{ index: number; row: Record<string, unknown> }>;
  remove?: readonly number[];
  append?: ReadonlyArray<Record<string, unknown>>;
}

export async function editDatasetRows(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  edits: DatasetRowEdits,
  actor: Actor,
): Promise<DatasetWithRows> {
  const checkedActor = checkActor(actor);
  checkVersion(expectedVersion);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await getDatasetIn(trx, id);
    assertVersion("dataset", id, current ?? undefined, expectedVersion);
    if (!current) throw new NotFoundError("dataset", id);
    const rows: Record<string, unknown>[] = [...current.rows];
    const badIndexes: string[] = [];
    for (const { index, row } of edits.set ?? []) {
      if (!Number.isInteger(index) || index < 0 || index >= rows.length) {
        badIndexes.push(`Row ${index + 1} does not exist.`);
      } else rows[index] = row;
    }
    const removals = new Set(edits.remove ?? []);
    for (const index of removals) {
      if (!Number.isInteger(index) || index < 0 || index >= rows.length) {
        badIndexes.push(`Row ${index + 1} does not exist.`);
      }
    }
    if (badIndexes.length > 0) throw new ValidationError({ fieldErrors: { rows: badIndexes } });
    const kept = rows.filter((_, index) => !removals.has(index));
    const next = parseInput(datasetRowsSchema, [...kept, ...(edits.append ?? [])]);
    const checked = rowsOrThrow(current.columns, next);
    const at = ctx.now().toISOString();
    await updateVersioned(trx, "datasets", "dataset", id, expectedVersion, {
      rows_json: JSON.stringify(checked),
      row_count: checked.length,
      updated_at: at,
    });
    await writeAudit(trx, ctx, checkedActor, "dataset.update", "dataset", id, {
      changed: ["rows"],
      set: edits.set?.length ?? 0,
      removed: removals.size,
      appended: edits.append?.length ?? 0,
    });
    return {
      ...current,
      rows: checked,
      rowCount: checked.length,
      version: expectedVersion + 1,
      updatedAt: at,
    };
  });
}

export async function deleteDataset(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  actor: Actor,
): Promise<void> {
  const checkedActor = checkActor(actor);
  checkVersion(expectedVersion);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await getDatasetSummaryIn(trx, id);
    assertVersion("dataset", id, current ?? undefined, expectedVersion);
    const charts = await trx
      .selectFrom("charts")
      .select(["id", "title"])
      .where("dataset_id", "=", id)
      .execute();
    const dashboards = await trx
      .selectFrom("dashboard_tiles")
      .innerJoin("dashboards", "dashboards.id", "dashboard_tiles.dashboard_id")
      .select(["dashboards.id", "dashboards.title"])
      .where("dashboard_tiles.dataset_id", "=", id)
      .distinct()
      .execute();
    if (charts.length > 0 || dashboards.length > 0) {
      throw new InUseError("dataset", id, [
        ...charts.map((chart) => ({ entityType: "chart" as const, ...chart })),
        ...dashboards.map((dashboard) => ({ entityType: "dashboard" as const, ...dashboard })),
      ]);
    }
    await deleteVersioned(trx, "datasets", "dataset", id, expectedVersion);
    await writeAudit(trx, ctx, checkedActor, "dataset.delete", "dataset", id, {
      name: current?.name,
    });
  });
}
