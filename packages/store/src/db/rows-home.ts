import { AsyncLocalStorage } from "node:async_hooks";
import {
  type CellValue,
  type DatasetRow,
  type RowsLimits,
  rowsLimits,
  ValidationError,
} from "@seed/model";
import type { Kysely } from "kysely";
import type { Executor, StoreContext } from "../context.js";
import type { BulkLoader, RowWriter } from "./bulk-load.js";
import type { DataFile, RecoveryReport } from "./data-file.js";
import { type DatasetTable, datasetTableName, type TableColumn } from "./dataset-table.js";
import { type Dialect, dialects } from "./dialect.js";
import type { CsvFilePlan } from "./duckdb-csv.js";
import { clearRowsTable, createRowsIndexes, createRowsTable, dropRowsTable } from "./rows-table.js";

// Where a dataset's rows live, the one answer for every module that reads or writes them:
// - "state": in the state database itself (SQLite or PostgreSQL), table ds_<id>, written inside
//   the state transaction, so rows, version and audit event commit together;
// - "data-file": in the DuckDB data file beside the SQLite state file (src/db/data-file.ts), in
//   generation tables staged and committed before the state transaction commits.
// Writes here always run inside the caller's state transaction: on SQLite that transaction holds
// the write lock, so no other write of any dataset is between its stage and its state commit.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/** A dataset's committed rows as the state database records them. */
export interface RowsState {
  id: string;
  version: number;
  /** The data file's generation (0 for rows kept in the state database). */
  generation: number;
  columns: readonly TableColumn[];
}

/** One write of a dataset's rows, open until `finish` or `abort`. */
export interface RowsWrite {
  /** Where the rows go. */
  table: DatasetTable;
  /** The write's executor: reads and edits of the rows being written go through it. */
  executor: AnyExecutor;
  /** The engine the rows are written in: values go to writers in its `stored` form. */
  dialect: Dialect;
  /** A bulk writer into `table`. */
  openWriter(): Promise<RowWriter>;
  /**
   * Where the engine reads CSV files itself (the data file): the whole spooled file into `table`,
   * its row count; CsvLoadDeclined when not certain (the write must then be given up).
   */
  loadCsvFile?(plan: CsvFilePlan, onProgress?: (rowsRead: number) => void): Promise<number>;
  /** Ends the rows' side of the write; the generation the state commit must record. */
  finish(): Promise<number>;
  /** Gives the write up (the state transaction is rolled back by its caller). */
  abort(): Promise<void>;
}

export interface RowsHome {
  readonly kind: "state" | "data-file";
  /** What one dataset may hold here (rowsLimits in @seed/model). */
  readonly limits: RowsLimits;
  /** Where uploads are spooled for the engine to read (repo/datasets/spool.ts); null: not spooled. */
  readonly spoolDir: string | null;
  /**
   * Large writes stage their rows outside the state transaction (the data file): `exclusive`
   * then runs such a write alone on its dataset, and other writes of that dataset meanwhile are
   * refused. False: every write runs inside the state transaction (the state database).
   */
  readonly stagesOutside: boolean;
  /** Runs `work` as the only write of the dataset (after any earlier one); see stagesOutside. */
  exclusive<T>(datasetId: string, work: () => Promise<T>): Promise<T>;
  /** Runs `work` on the committed rows: the executor and the table descriptor to read through. */
  read<T>(
    trx: Executor,
    state: RowsState,
    work: (executor: AnyExecutor, table: DatasetTable) => Promise<T>,
  ): Promise<T>;
  /** A write of all new rows (a new dataset: `state` null), to be tagged `nextVersion`. */
  replace(
    trx: Executor,
    datasetId: string,
    state: RowsState | null,
    columns: readonly TableColumn[],
  ): Promise<RowsWrite>;
  /** A write adding rows to the committed ones. */
  append(trx: Executor, state: RowsState): Promise<RowsWrite>;
  /** A write that edits the committed rows in place (update, delete, insert by key). */
  edit(trx: Executor, state: RowsState): Promise<RowsWrite>;
  /** The rows go with the dataset, inside the delete's state transaction. */
  removeIn(trx: Executor, datasetId: string): Promise<void>;
  /** After the delete's state commit. */
  removed(datasetId: string): Promise<void>;
  /** At open (state database migrated): what recovery did, or null where there is none. */
  recover(db: Executor): Promise<RecoveryReport | null>;
  close(): Promise<void>;
}

/** The state database keeps the rows (SQLite alone, or PostgreSQL). */
export function stateRowsHome(dialect: Dialect, bulk: BulkLoader): RowsHome {
  const tableOf = (datasetId: string, columns: readonly TableColumn[]): DatasetTable => ({
    table: datasetTableName(datasetId),
    columns: [...columns],
  });
  const inPlace = (trx: Executor, table: DatasetTable, after?: () => Promise<void>): RowsWrite => ({
    table,
    executor: trx as AnyExecutor,
    dialect,
    openWriter: () => bulk.openWriter(trx, table),
    async finish() {
      await after?.();
      return 0;
    },
    // The caller's state transaction rolls back whatever was written.
    abort: async () => {},
  });
  return {
    kind: "state",
    limits: rowsLimits.state,
    spoolDir: null,
    stagesOutside: false,
    exclusive: (_datasetId, work) => work(),
    read: (trx, state, work) => work(trx as AnyExecutor, tableOf(state.id, state.columns)),
    async replace(trx, datasetId, state, columns) {
      const table = tableOf(datasetId, columns);
      const executor = trx as AnyExecutor;
      if (state && JSON.stringify(state.columns) === JSON.stringify(columns)) {
        // Same columns: empty the table (on PostgreSQL readers keep reading the old rows until
        // the commit, where a drop would lock them out).
        await clearRowsTable(executor, table.table);
        return inPlace(trx, table);
      }
      await dropRowsTable(executor, table.table);
      await createRowsTable(executor, table, { indexes: false });
      return inPlace(trx, table, () => createRowsIndexes(executor, table));
    },
    append: async (trx, state) => inPlace(trx, tableOf(state.id, state.columns)),
    edit: async (trx, state) => inPlace(trx, tableOf(state.id, state.columns)),
    removeIn: (trx, datasetId) => dropRowsTable(trx as AnyExecutor, datasetTableName(datasetId)),
    removed: async () => {},
    recover: async () => null,
    close: async () => {},
  };
}

/**
 * The rows are kept in a data file this process leaves closed (a store opened `stateOnly`, such
 * as a command-line tool beside the running server, which holds DuckDB's lock on the file): every
 * rows operation is refused by name, and nothing else is touched.
 */
export function closedRowsHome(file: string): RowsHome {
  const refuse = (): never => {
    throw new Error(
      `Dataset rows are not open in this process: the store was opened for the app's state only, and the rows live in ${file}.`,
    );
  };
  return {
    kind: "data-file",
    limits: rowsLimits["data-file"],
    spoolDir: null,
    stagesOutside: true,
    exclusive: async () => refuse(),
    read: async () => refuse(),
    replace: async () => refuse(),
    append: async () => refuse(),
    edit: async () => refuse(),
    removeIn: async () => refuse(),
    removed: async () => {},
    recover: async () => null,
    close: async () => {},
  };
}

/** Is this the DuckDB error of a table that is not there (a generation dropped under a reader)? */
function isMissingTable(error: unknown): boolean {
  return error instanceof Error && /Table with name \S+ does not exist/.test(error.message);
}

/**
 * The DuckDB data file keeps the rows; `committedOf` reads a dataset's committed state from the
 * state database (for the retry of a read whose generation a write dropped meanwhile).
 */
export function dataFileRowsHome(
  file: DataFile,
  committedOf: (datasetId: string) => Promise<RowsState | null>,
  spoolDir: string,
): RowsHome {
  const dialect = dialects.duckdb;
  const staged = (
    write: Awaited<ReturnType<DataFile["beginReplace"]>>,
    after?: () => Promise<void>,
  ): RowsWrite => ({
    table: write.table,
    executor: write.trx,
    dialect,
    openWriter: () => write.openWriter(),
    loadCsvFile: (plan, onProgress) => write.insertCsv(plan, onProgress),
    async finish() {
      await write.commit();
      await after?.();
      return write.generation;
    },
    abort: () => write.rollback(),
  });
  const checkedState = (state: RowsState) => {
    if (state.generation < 1) {
      throw new Error(
        `The rows of dataset ${state.id} are not in the data file (generation 0): the store must move them there at open.`,
      );
    }
    return state;
  };
  // Datasets with a write staging outside the state transaction, and the writes that hold them.
  const held = new Set<string>();
  const holder = new AsyncLocalStorage<string>();
  /** Refuses a write of a dataset that another (exclusive) write is staging. */
  const checkFree = (datasetId: string) => {
    if (held.has(datasetId) && holder.getStore() !== datasetId) {
      throw new ValidationError({
        fieldErrors: {},
        formError:
          "An import into this dataset is running; try again when it has finished. Nothing was changed.",
      });
    }
  };
  // Superseded generations (and orphans of failed writes) go at the start of the dataset's next
  // write: inside its state transaction, or in an exclusive write, so that no other write of
  // the dataset is between its stage and its state commit.
  const sweep = (state: RowsState) => {
    checkFree(state.id);
    return file.dropOtherGenerations(state.id, state.generation);
  };
  return {
    kind: "data-file",
    limits: rowsLimits["data-file"],
    spoolDir,
    stagesOutside: true,
    exclusive(datasetId, work) {
      return file.serialise(datasetId, () => {
        held.add(datasetId);
        return holder.run(datasetId, work).finally(() => held.delete(datasetId));
      });
    },
    async read(_trx, state, work) {
      const run = (current: RowsState) =>
        work(file.db, file.readTable(current.id, checkedState(current), current.columns));
      try {
        return await run(state);
      } catch (error) {
        // A write committed and dropped the generation read between the state read and here:
        // read again at the state now committed.
        if (!isMissingTable(error)) throw error;
        const now = await committedOf(state.id);
        if (!now || now.generation === state.generation) throw error;
        return run(now);
      }
    },
    async replace(_trx, datasetId, state, columns) {
      checkFree(datasetId);
      if (state) await sweep(state);
      const version = (state?.version ?? 0) + 1;
      return staged(await file.beginReplace(datasetId, version, columns));
    },
    async append(_trx, state) {
      await sweep(checkedState(state));
      return staged(await file.beginAppend(state.id, state, state.columns));
    },
    async edit(_trx, state) {
      await sweep(checkedState(state));
      return staged(await file.beginCopy(state.id, state, state.columns));
    },
    // A dataset an import is staging into is not deleted under it.
    removeIn: async (_trx, datasetId) => checkFree(datasetId),
    async removed(datasetId) {
      await file.dropOtherGenerations(datasetId, 0);
    },
    async recover(db) {
      const rows = await db
        .selectFrom("datasets")
        .select(["id", "version", "rows_generation"])
        .where("source_id", "is", null)
        .where("rows_generation", ">", 0)
        .execute();
      return file.recover(
        new Map(
          rows.map((row) => [
            row.id,
            { version: Number(row.version), generation: Number(row.rows_generation) },
          ]),
        ),
      );
    },
    close: () => file.close(),
  };
}

/**
 * Runs `work` on an open rows write, then finishes it; any failure gives the write up, so the
 * caller's state transaction can roll back with nothing of the write left visible.
 */
export async function completeWrite<T>(
  write: RowsWrite,
  work: () => Promise<T>,
): Promise<{ value: T; generation: number }> {
  try {
    const value = await work();
    const generation = await write.finish();
    return { value, generation };
  } catch (error) {
    await write.abort().catch(() => undefined);
    throw error;
  }
}

/** Writes rows (values in column order, as checked cells) through a bulk writer, then closes it. */
export async function writeAllRows(
  write: RowsWrite,
  rows: Iterable<ReadonlyArray<CellValue | boolean>>,
): Promise<void> {
  const writer = await write.openWriter();
  const types = write.table.columns.map((column) => column.type);
  try {
    for (const row of rows) {
      const pending = writer.write(
        types.map((type, index) => write.dialect.stored(type, row[index] ?? null)),
      );
      if (pending) await pending;
    }
    await writer.close();
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/**
 * Writes a dataset's rows anew (a new dataset when `state` is null) from checked rows keyed by
 * column name; `check` runs on the written rows before the write finishes (the size limit).
 * Returns the generation the state commit must record.
 */
export async function writeRows(
  ctx: StoreContext,
  trx: Executor,
  datasetId: string,
  state: RowsState | null,
  columns: readonly TableColumn[],
  rows: readonly DatasetRow[],
  check: (executor: AnyExecutor, table: DatasetTable) => Promise<void>,
): Promise<number> {
  const write = await ctx.rows.replace(trx, datasetId, state, columns);
  const { generation } = await completeWrite(write, async () => {
    await writeAllRows(
      write,
      rows.map((row) => columns.map((column) => row[column.name] ?? null)),
    );
    await check(write.executor, write.table);
  });
  return generation;
}
