import { type Kysely, sql } from "kysely";
import { type DatasetTable, datasetTableName, type TableColumn } from "./dataset-table.js";
import { type DuckDbOptions, openDuckDbKysely } from "./duckdb.js";
import { createRowsTable, dropRowsTable } from "./rows-table.js";

// Dataset rows in a DuckDB file beside the state database (SQLite), issue 24. DESIGN, NOT YET
// WIRED into openStore: the next step is for the datasets module to call it.
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
// - Loaders insert rows without `_v`; the stage tags every untagged row in the same transaction, so
//   no loader can forget the tag, and an untagged row (`_v` null) is never visible (`null <= V`).
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

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/** A dataset's committed state as the state database holds it. */
export interface CommittedRows {
  version: number;
  generation: number;
}

/** Fills a staged table: insert rows (without `_v`) into `target.table` through `trx`. */
export type LoadRows = (target: DatasetTable, trx: AnyExecutor) => Promise<void>;

export interface RecoveryReport {
  /** Tables dropped: orphan generations of crashed or unfinished writes, and deleted datasets'. */
  dropped: string[];
  /** Committed tables that held rows of an uncommitted version, and how many were deleted. */
  trimmed: Array<{ table: string; rows: number }>;
  /** Committed generations whose table is missing: rows lost, to be reported loudly. */
  missing: string[];
}

export interface DataFile {
  /** The DuckDB executor; the query engine reads through it (with readTable's descriptor). */
  db: AnyExecutor;
  /** Runs `write` after every earlier write to the dataset has finished (an in-process mutex). */
  serialise<T>(datasetId: string, write: () => Promise<T>): Promise<T>;
  /** Makes, fills and commits the next generation table, rows tagged `nextVersion`. */
  stageReplace(
    datasetId: string,
    nextVersion: number,
    columns: readonly TableColumn[],
    load: LoadRows,
  ): Promise<{ generation: number; table: string }>;
  /** Adds rows tagged `committed.version + 1` to the committed generation, one transaction. */
  stageAppend(
    datasetId: string,
    committed: CommittedRows,
    columns: readonly TableColumn[],
    load: LoadRows,
  ): Promise<void>;
  /** Drops a generation's table and key sequence (after the state commit moved past it). */
  dropGeneration(datasetId: string, generation: number): Promise<void>;
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

/** The hidden column: the version whose write added the row. */
export const versionColumn = "_v";

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

async function tableNames(db: AnyExecutor): Promise<string[]> {
  const result = await sql<{
    name: string;
  }>`select table_name as name from duckdb_tables() where schema_name = 'main'`.execute(db);
  return result.rows.map((row) => row.name);
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

/** Opens (or creates) a data file. Call `recover` before any write or read. */
export async function openDataFile(path: string, options: DuckDbOptions = {}): Promise<DataFile> {
  const { db, close } = await openDuckDbKysely(path, options);
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

  return {
    db,
    serialise,

    async stageReplace(datasetId, nextVersion, columns, load) {
      // After every generation this file holds for the dataset: an orphan of a failed state
      // commit (not yet recovered) is never reused.
      const prefix = `${baseOf(datasetId)}_g`;
      let latest = 0;
      for (const name of await tableNames(db)) {
        const tail = name.startsWith(prefix) ? name.slice(prefix.length) : "";
        if (/^[0-9]+$/.test(tail)) latest = Math.max(latest, Number(tail));
      }
      const generation = latest + 1;
      const table = generationTable(datasetId, generation);
      const target = descriptorOf(table, columns);
      await db.transaction().execute(async (trx) => {
        // `_v` in the create statement itself: DuckDB 1.5 fails to replay an ALTER TABLE ADD
        // COLUMN from its WAL here (the crash tests found it: the file would not open).
        await createRowsTable(trx, target, { indexes: false, hidden: [sql`${v} bigint`] });
        await load(target, trx);
        await tagRows(trx, table, nextVersion);
      });
      return { generation, table };
    },

    async stageAppend(datasetId, committed, columns, load) {
      const table = generationTable(datasetId, committed.generation);
      const target = descriptorOf(table, columns);
      await db.transaction().execute(async (trx) => {
        await sql`delete from ${sql.table(table)} where ${v} > ${sql.lit(checkedVersion(committed.version))} or ${v} is null`.execute(
          trx,
        );
        await load(target, trx);
        await tagRows(trx, table, committed.version + 1);
      });
    },

    async dropGeneration(datasetId, generation) {
      const table = generationTable(datasetId, generation);
      // Table and sequence together: a crash between them would leave a stray sequence.
      await db.transaction().execute((trx) => dropRowsTable(trx, table));
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
      // A sequence whose table is gone (none should be: tables and sequences drop together).
      const sequences = await sql<{
        name: string;
      }>`select sequence_name as name from duckdb_sequences() where schema_name = 'main'`.execute(
        db,
      );
      for (const { name } of sequences.rows) {
        const table = name.replace(/_row_seq$/, "");
        if (table === name || !generationPattern.test(table) || keep.has(table)) continue;
        await sql`drop sequence if exists ${sql.id(name)}`.execute(db);
      }
      for (const [table, version] of keep) {
        if (!present.includes(table)) {
          report.missing.push(table);
          continue;
        }
        // DuckDB answers a delete with one row, {Count: n}.
        const result = await sql<{
          Count: number;
        }>`delete from ${sql.table(table)} where ${v} > ${sql.lit(checkedVersion(version))} or ${v} is null`.execute(
          db,
        );
        const rows = Number(result.rows[0]?.Count ?? 0);
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
}
