import { chmodSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import type { DuckDBType, DuckDBValue } from "@duckdb/node-api";
import { type ControlledTransaction, type Kysely, sql } from "kysely";
import type { RowWriter } from "./bulk-load.js";
import {
  type DatasetTable,
  datasetTableName,
  rowKeyColumn,
  type TableColumn,
  versionColumn,
} from "./dataset-table.js";
import { dialects } from "./dialect.js";
import { type DuckDbOptions, duckDbApi, duckDbConnectionOf, openDuckDbKysely } from "./duckdb.js";
import { type CsvFilePlan, insertCsvFile } from "./duckdb-csv.js";
import { createRowsTable, dropRowsTable } from "./rows-table.js";

// Dataset rows in a DuckDB file beside the state database (SQLite), issue 24: the embedded store
// keeps them here when opened with `datasetEngine: "duckdb"` (src/db/rows-home.ts).
//
// Two files, one commit point. The state database holds each dataset's committed (version,
// generation); this file holds its rows. The state commit is the only commit that matters: the
// DuckDB side is staged first, so that whatever the state database says is always readable here.
//
// - Rows live in generation tables `ds_<id>_g<n>`; every row carries `_v` (BIGINT), the dataset
//   version whose write added it. Readers of committed (V, G) read `ds_<id>_g<G>` where `_v <= V`.
// - Replace (replace import, new dataset, row-edit copy): stageReplace makes and fills the next
//   generation table in one DuckDB transaction, rows tagged `_v = V + 1`, and commits it.
// - Append (push, append import): stageAppend deletes any rows `_v > V` of the current generation
//   (a crashed earlier write's), inserts the new rows tagged `_v = V + 1`, one DuckDB transaction.
// - Then the caller's state transaction moves the dataset to V + 1 (and, for a replace, to the new
//   generation) with its audit event, and commits. Then the old generation is dropped (best effort).
// - Row keys (`_row`) are given by the writer (no sequence: DuckDB cannot restart one, and a key
//   given beside a sequence default would let the two collide): the next key is one past the
//   generation's largest. One exception, the bulk load of a CSV file into a fresh generation
//   (a replace): its rows keep no key, and a row's key is its row id plus one
//   (`dialect.rowKeyRef`, what every read and edit by key uses). A table's row ids count its rows
//   in insertion order from 0 (read_csv keeps the file's order) and change only when deleted rows
//   are vacuumed away, so every delete from a generation gives its keyless rows their keys first
//   (`deleteUncommitted`). Numbering 10,000,000 keys in an UPDATE cost 0.3 s and its commit 0.8 s.
//   Implied keys are the final ones only once the load commits: nothing reads keys in between.
//   The appender writer tags each row with its version as it writes; the
//   stage still tags any untagged row before committing, so no loader can forget the tag, and an
//   untagged row (`_v` null) is never visible (`null <= V`).
// - Writes to one dataset must be serialised, from reading its committed state to the state commit
//   (`serialise` is an in-process mutex per dataset: enough for the embedded single process).
//   Reads never wait: DuckDB's MVCC plus `_v <= V` give exactly the committed version's rows.
//
// Crashes (kill -9, test/data-file-crash.test.ts), and what `recover` at open makes of them:
// (a) during the DuckDB load: the DuckDB transaction never committed; nothing to do.
// (b) after the DuckDB commit, before the state commit: a replace left an orphan generation
//     (dropped); an append left rows `_v > V` in the committed generation (deleted).
// (c) after the state commit, before the old generation is dropped: the old generation is an
//     orphan (dropped); the new state is whole.
// recover drops every `ds_*_g<n>` table that is not the committed generation of a live dataset
// (and its key sequence), and deletes rows `_v > V` (or untagged) from each committed table.

/** The data file's name in the store's data folder, beside seed.db. */
export const rowsDataFileName = "seed-rows.duckdb";

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/** A dataset's committed state as the state database holds it. */
export interface CommittedRows {
  version: number;
  generation: number;
}

/** Fills a staged table: rows (with `_row` from `firstKey` on, `_v` optional) into `target`. */
export type LoadRows = (target: DatasetTable, trx: AnyExecutor, firstKey: number) => Promise<void>;

export interface RecoveryReport {
  /** Tables dropped: orphan generations of crashed or unfinished writes, and deleted datasets'. */
  dropped: string[];
  /** Committed tables that held rows of an uncommitted version, and how many were deleted. */
  trimmed: Array<{ table: string; rows: number }>;
  /** Committed generations whose table is missing: rows lost, to be reported loudly. */
  missing: string[];
}

/** One staged write, open in its own DuckDB transaction until `commit` or `rollback`. */
export interface StagedWrite {
  /** The table written (a new generation for a replace or copy, the committed one for an append). */
  table: DatasetTable;
  generation: number;
  /** The version every row written here is tagged with. */
  version: number;
  /** The write's DuckDB transaction (reads and edits of the staged rows go through it). */
  trx: AnyExecutor;
  /** An appender writer into `table` on this transaction: keys and tags given as it writes. */
  openWriter(): Promise<RowWriter>;
  /** The same, each row's key given first in its values (rows moved with their keys). */
  openKeyedWriter(): Promise<RowWriter>;
  /** A CSV file read by DuckDB into `table` (duckdb-csv.ts); its row count, or CsvLoadDeclined. */
  insertCsv(plan: CsvFilePlan, onProgress?: (rowsRead: number) => void): Promise<number>;
  /** Tags untagged rows, commits this file's transaction; the state commit comes after. */
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export interface DataFile {
  /** The DuckDB executor; the query engine reads through it (with readTable's descriptor). */
  db: AnyExecutor;
  /** Runs `write` after every earlier write to the dataset has finished (an in-process mutex). */
  serialise<T>(datasetId: string, write: () => Promise<T>): Promise<T>;
  /** Opens a write of the next generation table, empty, rows to be tagged `nextVersion`. */
  beginReplace(
    datasetId: string,
    nextVersion: number,
    columns: readonly TableColumn[],
  ): Promise<StagedWrite>;
  /** Opens a write adding rows tagged `committed.version + 1` to the committed generation. */
  beginAppend(
    datasetId: string,
    committed: CommittedRows,
    columns: readonly TableColumn[],
  ): Promise<StagedWrite>;
  /**
   * Opens a write of the next generation holding the committed rows (keys kept), all tagged
   * `committed.version + 1`: rows are edited in place there, never in a table readers use.
   */
  beginCopy(
    datasetId: string,
    committed: CommittedRows,
    columns: readonly TableColumn[],
  ): Promise<StagedWrite>;
  /** beginReplace, `load`, commit: the generation made. */
  stageReplace(
    datasetId: string,
    nextVersion: number,
    columns: readonly TableColumn[],
    load: LoadRows,
  ): Promise<{ generation: number; table: string }>;
  /** beginAppend, `load`, commit. */
  stageAppend(
    datasetId: string,
    committed: CommittedRows,
    columns: readonly TableColumn[],
    load: LoadRows,
  ): Promise<void>;
  /** Drops a generation's table (after the state commit moved past it). */
  dropGeneration(datasetId: string, generation: number): Promise<void>;
  /** Drops every generation of the dataset but `keep` (0: all of them, after a delete). */
  dropOtherGenerations(datasetId: string, keep: number): Promise<string[]>;
  /** At open: makes the file agree with the state database's committed map (see the top). */
  recover(committed: ReadonlyMap<string, CommittedRows>): Promise<RecoveryReport>;
  /** The descriptor the engine reads a committed state through (`visibleVersion` filters `_v`). */
  readTable(
    datasetId: string,
    committed: CommittedRows,
    columns: readonly TableColumn[],
  ): DatasetTable;
  close(): Promise<void>;
}

// Room for `_g` and a generation number within the 63 bytes of a safe identifier.
const maxBaseLength = 48;

function baseOf(datasetId: string): string {
  return datasetTableName(datasetId).slice(0, maxBaseLength);
}

/** `ds_<id>_g<n>`: the table of one generation of a dataset's rows. */
export function generationTable(datasetId: string, generation: number): string {
  if (!Number.isInteger(generation) || generation < 1) {
    throw new Error(`Bad generation ${generation}`);
  }
  return `${baseOf(datasetId)}_g${generation}`;
}

const generationPattern = /^ds_[a-z0-9_]*_g[0-9]+$/;
const v = sql.id(versionColumn);
const key = sql.id(rowKeyColumn);
/** A row's key as reads see it: its own, or its row id plus one (see the top). */
const keyRef = dialects.duckdb.rowKeyRef;

async function tableNames(db: AnyExecutor): Promise<string[]> {
  const result = await sql<{
    name: string;
  }>`select table_name as name from duckdb_tables() where schema_name = 'main'`.execute(db);
  return result.rows.map((row) => row.name);
}

/** The generations this file holds for a dataset, in order. */
async function generationsOf(db: AnyExecutor, datasetId: string): Promise<number[]> {
  const prefix = `${baseOf(datasetId)}_g`;
  const found: number[] = [];
  for (const name of await tableNames(db)) {
    const tail = name.startsWith(prefix) ? name.slice(prefix.length) : "";
    if (/^[0-9]+$/.test(tail)) found.push(Number(tail));
  }
  return found.sort((a, b) => a - b);
}

/** A version as it goes into SQL text: a whole number, never user text. */
function checkedVersion(version: number): number {
  if (!Number.isSafeInteger(version) || version < 0) throw new Error(`Bad version ${version}`);
  return version;
}

/** Tags the rows a load added (untagged) with the version being written. */
async function tagRows(trx: AnyExecutor, table: string, version: number) {
  await sql`update ${sql.table(table)} set ${v} = ${sql.lit(checkedVersion(version))} where ${v} is null`.execute(
    trx,
  );
}

async function nextKeyOf(trx: AnyExecutor, table: string): Promise<number> {
  const result = await sql<{
    k: number | string | null;
  }>`select max(${keyRef}) as k from ${sql.table(table)}`.execute(trx);
  return Number(result.rows[0]?.k ?? 0) + 1;
}

/**
 * Deletes a generation's rows of versions past `version` (and untagged ones): a crashed or
 * unfinished write's. Keyless rows get their implied keys stored first (see the top), so that
 * no delete ever moves the row ids those keys come from. The number of rows deleted.
 */
async function deleteUncommitted(
  executor: AnyExecutor,
  table: string,
  version: number,
): Promise<number> {
  const doomed = sql`${v} > ${sql.lit(checkedVersion(version))} or ${v} is null`;
  const found = await sql<{
    n: number | string;
  }>`select count(*) as n from ${sql.table(table)} where ${doomed}`.execute(executor);
  if (Number(found.rows[0]?.n ?? 0) === 0) return 0;
  await sql`update ${sql.table(table)} set ${key} = ${keyRef} where ${key} is null`.execute(
    executor,
  );
  // DuckDB answers a delete with one row, {Count: n}.
  const result = await sql<{
    Count: number;
  }>`delete from ${sql.table(table)} where ${doomed}`.execute(executor);
  return Number(result.rows[0]?.Count ?? 0);
}

const dayMs = 86_400_000;
/** DuckDB's vector size: a data chunk holds at most this many rows. */
const chunkRows = 2048;

/**
 * Rows into a data-file table through DuckDB's appender, a data chunk of 2,048 rows at a time, on
 * the write's own connection (so inside its transaction). Values come in the DuckDB dialect's
 * stored form (dates yyyy-mm-dd, timestamps ISO instants); `_row` and `_v` are added here.
 */
async function appenderWriter(
  trx: AnyExecutor,
  target: DatasetTable,
  version: number,
  keys: { next: number },
  keyed = false,
): Promise<RowWriter> {
  const api = await duckDbApi();
  const connection = await duckDbConnectionOf(trx);
  const appender = await connection.createAppender(target.table);
  const kinds = target.columns.map((column) => column.type);
  const types: DuckDBType[] = [
    api.BIGINT,
    ...kinds.map((kind) => {
      switch (kind) {
        case "number":
          return api.DOUBLE;
        case "boolean":
          return api.BOOLEAN;
        case "date":
          return api.DATE;
        case "timestamp":
          return api.TIMESTAMPTZ;
        default:
          return api.VARCHAR;
      }
    }),
    api.BIGINT,
  ];
  const tag = BigInt(checkedVersion(version));
  const width = kinds.length;
  let columns: DuckDBValue[][] = types.map(() => []);
  let count = 0;
  const convert = (kind: string, value: unknown): DuckDBValue => {
    if (value === null || value === undefined) return null;
    if (kind === "date") {
      const ms = Date.parse(`${String(value)}T00:00:00Z`);
      if (Number.isNaN(ms)) throw new Error(`Not a date: ${String(value).slice(0, 40)}`);
      return new api.DuckDBDateValue(Math.round(ms / dayMs));
    }
    if (kind === "timestamp") {
      const ms = Date.parse(String(value));
      if (Number.isNaN(ms)) throw new Error(`Not a timestamp: ${String(value).slice(0, 40)}`);
      return new api.DuckDBTimestampTZValue(BigInt(ms) * 1000n);
    }
    return value as DuckDBValue;
  };
  const flush = () => {
    if (count === 0) return;
    const chunk = api.DuckDBDataChunk.create(types, count);
    chunk.setColumns(columns);
    appender.appendDataChunk(chunk);
    columns = types.map(() => []);
    count = 0;
  };
  let open = true;
  return {
    write(values) {
      // Keyed: the row's own key comes first (rows moved with their keys), else the next key.
      const key = keyed ? Number(values[0]) : keys.next++;
      if (keyed) keys.next = Math.max(keys.next, key + 1);
      (columns[0] as DuckDBValue[]).push(BigInt(key));
      const from = keyed ? 1 : 0;
      for (let index = 0; index < width; index++) {
        (columns[index + 1] as DuckDBValue[]).push(
          convert(kinds[index] as string, values[index + from]),
        );
      }
      (columns[width + 1] as DuckDBValue[]).push(tag);
      if (++count === chunkRows) flush();
    },
    async close() {
      if (!open) return;
      flush();
      appender.flushSync();
      appender.closeSync();
      open = false;
    },
    async abort() {
      if (!open) return;
      open = false;
      columns = types.map(() => []);
      count = 0;
      // Whatever reached the appender is undone with the transaction's rollback.
      try {
        appender.closeSync();
      } catch {
        // Closing flushes; a failed flush is what the rollback is for.
      }
    },
  };
}

/** The DuckDB error when another process holds the file's lock. */
function isLockConflict(error: unknown): boolean {
  return error instanceof Error && /Could not set lock on file/i.test(error.message);
}

/** Files open in this process, shared by every store opened on them (DuckDB: one instance per file). */
const openFiles = new Map<string, { file: Promise<DataFile>; users: number }>();

/** Whether a store of this process has the data file open (another process: DuckDB's lock says). */
export function isDataFileOpenHere(path: string): boolean {
  return openFiles.has(resolvePath(path));
}

/**
 * Opens (or creates) a data file; call `recover` before any write or read. Stores of one process
 * on the same file share one DuckDB instance (two would each cache the file and disagree); the
 * file closes when its last user closes it. Another process cannot open it: DuckDB locks the
 * file, and the error says so.
 */
export async function openDataFile(path: string, options: DuckDbOptions = {}): Promise<DataFile> {
  const key = resolvePath(path);
  if (path === ":memory:") return openUnshared(path, options, async () => {});
  let entry = openFiles.get(key);
  if (!entry) {
    const file = openUnshared(path, options, async () => {
      openFiles.delete(key);
    });
    entry = { file, users: 0 };
    openFiles.set(key, entry);
    file.catch(() => openFiles.delete(key));
  }
  entry.users++;
  const shared = await entry.file;
  const held = entry;
  let closed = false;
  return {
    ...shared,
    async close() {
      if (closed) return;
      closed = true;
      held.users--;
      if (held.users === 0) await shared.close();
    },
  };
}

/**
 * The data file and its write-ahead log are the owner's alone (0600), as every file of the data
 * folder is (open.ts): DuckDB creates them with the process umask, and makes a new log after each
 * checkpoint, so the modes are set again after every commit. The folder itself is 0700 already.
 */
function keepPrivate(file: string): void {
  if (file === ":memory:") return;
  for (const name of [file, `${file}.wal`]) {
    try {
      chmodSync(name, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

async function openUnshared(
  path: string,
  options: DuckDbOptions,
  onClose: () => Promise<void>,
): Promise<DataFile> {
  let opened: Awaited<ReturnType<typeof openDuckDbKysely>>;
  try {
    opened = await openDuckDbKysely(path, options);
  } catch (error) {
    if (!isLockConflict(error)) throw error;
    throw new Error(
      `The dataset data file ${path} is open in another process. The embedded DuckDB setup runs as one server process; for several instances set DATABASE_URL to a PostgreSQL database.`,
      { cause: error },
    );
  }
  const db = opened.db;
  keepPrivate(path);
  const close = async () => {
    await onClose();
    await opened.close();
  };
  const tails = new Map<string, Promise<unknown>>();

  const serialise = <T>(datasetId: string, write: () => Promise<T>): Promise<T> => {
    const previous = tails.get(datasetId) ?? Promise.resolve();
    const run = previous.then(write, write);
    const tail = run.catch(() => undefined);
    tails.set(datasetId, tail);
    // Forget the dataset once nothing is queued behind this write.
    void tail.then(() => {
      if (tails.get(datasetId) === tail) tails.delete(datasetId);
    });
    return run;
  };

  const descriptorOf = (table: string, columns: readonly TableColumn[]): DatasetTable => ({
    table,
    columns: [...columns],
  });

  /** The staged write over an open transaction; `nextKey` is one past the table's largest key. */
  const staged = (
    trx: ControlledTransaction<Record<string, never>>,
    target: DatasetTable,
    generation: number,
    version: number,
    nextKey: number,
    fresh = false,
  ): StagedWrite => {
    const keys = { next: nextKey };
    let done = false;
    return {
      table: target,
      generation,
      version,
      trx,
      openWriter: () => appenderWriter(trx, target, version, keys),
      openKeyedWriter: () => appenderWriter(trx, target, version, keys, true),
      async insertCsv(plan, onProgress) {
        // Into a fresh generation before any other row: keys implied by row ids (see the top).
        const implied = fresh && keys.next === 1;
        const count = await insertCsvFile(
          trx,
          target,
          plan,
          version,
          implied ? null : keys.next,
          onProgress,
        );
        keys.next += count;
        return count;
      },
      async commit() {
        if (done) throw new Error("The staged write already ended.");
        await tagRows(trx, target.table, version);
        done = true;
        await trx.commit().execute();
        keepPrivate(path);
      },
      async rollback() {
        if (done) return;
        done = true;
        await trx.rollback().execute();
      },
    };
  };

  /** Runs `open` in a new transaction; rolls it back if opening fails. */
  const begin = async (
    open: (trx: ControlledTransaction<Record<string, never>>) => Promise<StagedWrite>,
  ) => {
    const trx = await db.startTransaction().execute();
    try {
      return await open(trx);
    } catch (error) {
      await trx.rollback().execute();
      throw error;
    }
  };

  const nextGeneration = async (datasetId: string) => {
    // After every generation this file holds for the dataset: an orphan of a failed state
    // commit (not yet recovered) is never reused.
    const held = await generationsOf(db, datasetId);
    return (held.at(-1) ?? 0) + 1;
  };

  const createGeneration = async (trx: AnyExecutor, target: DatasetTable) => {
    // `_v` in the create statement itself: DuckDB 1.5 fails to replay an ALTER TABLE ADD
    // COLUMN from its WAL here (the crash tests found it: the file would not open).
    await createRowsTable(trx, target, {
      indexes: false,
      keysGiven: true,
      hidden: [sql`${v} bigint`],
    });
  };

  const file: DataFile = {
    db,
    serialise,

    async beginReplace(datasetId, nextVersion, columns) {
      const generation = await nextGeneration(datasetId);
      const target = descriptorOf(generationTable(datasetId, generation), columns);
      return begin(async (trx) => {
        await createGeneration(trx, target);
        return staged(trx, target, generation, nextVersion, 1, true);
      });
    },

    async beginAppend(datasetId, committed, columns) {
      const target = descriptorOf(generationTable(datasetId, committed.generation), columns);
      return begin(async (trx) => {
        await deleteUncommitted(trx, target.table, committed.version);
        const nextKey = await nextKeyOf(trx, target.table);
        return staged(trx, target, committed.generation, committed.version + 1, nextKey);
      });
    },

    async beginCopy(datasetId, committed, columns) {
      const generation = await nextGeneration(datasetId);
      const from = generationTable(datasetId, committed.generation);
      const target = descriptorOf(generationTable(datasetId, generation), columns);
      const version = committed.version + 1;
      return begin(async (trx) => {
        await createGeneration(trx, target);
        const ids = columns.map((column) => sql.id(column.id));
        await sql`insert into ${sql.table(target.table)} (${key}, ${sql.join(ids)}, ${v}) select ${keyRef}, ${sql.join(
          ids,
        )}, ${sql.lit(checkedVersion(version))} from ${sql.table(from)} where ${v} <= ${sql.lit(
          checkedVersion(committed.version),
        )} order by 1`.execute(trx);
        return staged(trx, target, generation, version, await nextKeyOf(trx, target.table));
      });
    },

    async stageReplace(datasetId, nextVersion, columns, load) {
      const write = await file.beginReplace(datasetId, nextVersion, columns);
      try {
        await load(write.table, write.trx, 1);
        await write.commit();
      } catch (error) {
        await write.rollback();
        throw error;
      }
      return { generation: write.generation, table: write.table.table };
    },

    async stageAppend(datasetId, committed, columns, load) {
      const write = await file.beginAppend(datasetId, committed, columns);
      try {
        await load(write.table, write.trx, await nextKeyOf(write.trx, write.table.table));
        await write.commit();
      } catch (error) {
        await write.rollback();
        throw error;
      }
    },

    async dropGeneration(datasetId, generation) {
      const table = generationTable(datasetId, generation);
      await db.transaction().execute((trx) => dropRowsTable(trx, table));
    },

    async dropOtherGenerations(datasetId, keep) {
      const dropped: string[] = [];
      for (const generation of await generationsOf(db, datasetId)) {
        if (generation === keep) continue;
        await file.dropGeneration(datasetId, generation);
        dropped.push(generationTable(datasetId, generation));
      }
      return dropped;
    },

    async recover(committed) {
      const keep = new Map<string, number>();
      for (const [datasetId, state] of committed) {
        keep.set(generationTable(datasetId, state.generation), state.version);
      }
      const report: RecoveryReport = { dropped: [], trimmed: [], missing: [] };
      const present = await tableNames(db);
      for (const name of present) {
        if (!generationPattern.test(name) || keep.has(name)) continue;
        await db.transaction().execute((trx) => dropRowsTable(trx, name));
        report.dropped.push(name);
      }
      for (const [table, version] of keep) {
        if (!present.includes(table)) {
          report.missing.push(table);
          continue;
        }
        const rows = await db
          .transaction()
          .execute((trx) => deleteUncommitted(trx, table, version));
        if (rows > 0) report.trimmed.push({ table, rows });
      }
      return report;
    },

    readTable(datasetId, committed, columns) {
      return {
        ...descriptorOf(generationTable(datasetId, committed.generation), columns),
        visibleVersion: checkedVersion(committed.version),
      };
    },

    close,
  };
  return file;
}
