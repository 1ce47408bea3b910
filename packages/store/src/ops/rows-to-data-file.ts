import { columnTypeSpecs, type DatasetColumnType } from "@seed/model";
import type BetterSqlite3 from "better-sqlite3";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DataFile } from "../db/data-file.js";
import {
  type DatasetTable,
  datasetTableName,
  rowKeyColumn,
  type TableColumn,
} from "../db/dataset-table.js";
import { dialectOf, dialects } from "../db/dialect.js";
import { dropRowsTable } from "../db/rows-table.js";
import type { StoreDatabase } from "../db/schema.js";

// A store that kept dataset rows in its SQLite file, opened with the DuckDB data file
// (datasetEngine "duckdb"): at open, every dataset's rows move into the data file with their keys,
// checked by row counts and checksums on both engines, all or nothing. Every dataset is staged in
// the data file first (committed there, invisible to readers: not yet the dataset's generation),
// then one state transaction makes the new generations the datasets' rows, then the SQLite
// tables are dropped. A failure before the state commit changes nothing (the staged tables are
// dropped by the data file's recovery); after it, tables left in SQLite are dropped at the next
// open.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

export class RowsMoveError extends Error {
  override name = "RowsMoveError";
}

export interface MovedDataset {
  id: string;
  rows: number;
  generation: number;
}

/** Sums that must agree between the SQLite table and the data file's copy. */
interface Checksum {
  rows: number;
  keys: number;
  columns: Array<{ filled: number; sum: number }>;
}

/** A checksum of a table's rows, in SQL that means the same on SQLite and DuckDB. */
async function checksumOf(executor: AnyExecutor, table: DatasetTable): Promise<Checksum> {
  const parts: RawBuilder<unknown>[] = [
    sql`count(*) as n`,
    sql`coalesce(sum(${dialectOf(executor).rowKeyRef}), 0) as k`,
  ];
  table.columns.forEach((column, index) => {
    const id = sql.id(column.id);
    parts.push(sql`count(${id}) as ${sql.id(`f${index}`)}`);
    const sum = sumOf(column.type, id);
    parts.push(sql`coalesce(${sum}, 0) as ${sql.id(`s${index}`)}`);
  });
  const where =
    table.visibleVersion === undefined
      ? sql``
      : sql`where "_v" <= ${sql.lit(table.visibleVersion)}`;
  const result = await sql<Record<string, unknown>>`select ${sql.join(parts)} from ${sql.table(
    table.table,
  )} ${where}`.execute(executor);
  const row = result.rows[0] ?? {};
  return {
    rows: Number(row.n ?? 0),
    keys: Number(row.k ?? 0),
    columns: table.columns.map((_, index) => ({
      filled: Number(row[`f${index}`] ?? 0),
      sum: Number(row[`s${index}`] ?? 0),
    })),
  };
}

/** A number per column whose sum both engines compute alike: values, text lengths, trues. */
function sumOf(type: DatasetColumnType, id: RawBuilder<unknown>): RawBuilder<unknown> {
  switch (type) {
    case "number":
      return sql`sum(${id})`;
    case "string":
      return sql`sum(length(${id}))`;
    case "boolean":
      return sql`sum(case when ${id} then 1 else 0 end)`;
    default:
      return sql`0`;
  }
}

function agrees(a: Checksum, b: Checksum): boolean {
  if (a.rows !== b.rows || a.keys !== b.keys) return false;
  return a.columns.every((column, index) => {
    const other = b.columns[index];
    if (!other || column.filled !== other.filled) return false;
    return Math.abs(column.sum - other.sum) <= 1e-9 * Math.max(1, Math.abs(column.sum));
  });
}

async function sqliteTableExists(database: BetterSqlite3.Database, table: string) {
  return (
    database.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table) !==
    undefined
  );
}

/**
 * Moves the rows of every dataset still kept in the SQLite file into the data file (see the
 * top). `db` is the state database's Kysely, `database` its better-sqlite3 handle.
 */
export async function moveRowsToDataFile(
  db: Kysely<StoreDatabase>,
  database: BetterSqlite3.Database,
  file: DataFile,
): Promise<MovedDataset[]> {
  const waiting = await db
    .selectFrom("datasets")
    .select(["id", "version", "columns_json"])
    // A live dataset's or a question's rows are not kept here (rowsKeptHere).
    .where("source_id", "is", null)
    .where("question_sql", "is", null)
    .where("rows_generation", "=", 0)
    .orderBy("id")
    .execute();
  const moved: MovedDataset[] = [];
  for (const dataset of waiting) {
    const columns = JSON.parse(dataset.columns_json) as TableColumn[];
    const table: DatasetTable = { table: datasetTableName(dataset.id), columns };
    if (!(await sqliteTableExists(database, table.table))) {
      throw new RowsMoveError(
        `The rows of dataset ${dataset.id} are missing from the SQLite file (table ${table.table}); nothing was moved.`,
      );
    }
    const version = Number(dataset.version);
    const write = await file.beginReplace(dataset.id, version, columns);
    try {
      const writer = await write.openKeyedWriter();
      const reads = columns.map(
        (column) => sql`${dialects.sqlite.read(sql.id(column.id), column.type)}`,
      );
      const query = sql`select ${sql.id(rowKeyColumn)}, ${sql.join(reads)} from ${sql.table(
        table.table,
      )} order by ${sql.id(rowKeyColumn)}`.compile(db);
      const statement = database.prepare(query.sql).raw(true);
      for (const row of statement.iterate(...(query.parameters as unknown[])) as Iterable<
        unknown[]
      >) {
        const values: unknown[] = [row[0]];
        columns.forEach((column, index) => {
          const stored = row[index + 1];
          const cell =
            stored === null || stored === undefined
              ? null
              : columnTypeSpecs[column.type].fromRead(stored);
          values.push(dialects.duckdb.stored(column.type, cell));
        });
        writer.write(values);
      }
      await writer.close();
      await write.commit();
    } catch (error) {
      await write.rollback();
      throw new RowsMoveError(
        `Moving the rows of dataset ${dataset.id} into the data file failed; nothing was moved: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    const copy = file.readTable(dataset.id, { version, generation: write.generation }, columns);
    const [before, after] = await Promise.all([
      checksumOf(db as unknown as AnyExecutor, table),
      checksumOf(file.db, copy),
    ]);
    if (!agrees(before, after)) {
      throw new RowsMoveError(
        `The rows of dataset ${dataset.id} did not check out in the data file (SQLite ${JSON.stringify(before)}, DuckDB ${JSON.stringify(after)}); nothing was moved.`,
      );
    }
    moved.push({ id: dataset.id, rows: before.rows, generation: write.generation });
  }
  if (moved.length > 0) {
    await db.transaction().execute(async (trx) => {
      for (const dataset of moved) {
        await trx
          .updateTable("datasets")
          .set({ rows_generation: dataset.generation })
          .where("id", "=", dataset.id)
          .where("rows_generation", "=", 0)
          .execute();
      }
    });
  }
  await dropMovedTables(db, database);
  return moved;
}

/** Drops SQLite tables of datasets whose rows are in the data file (moved, or left by a crash). */
async function dropMovedTables(db: Kysely<StoreDatabase>, database: BetterSqlite3.Database) {
  const inFile = await db
    .selectFrom("datasets")
    .select("id")
    .where("rows_generation", ">", 0)
    .execute();
  for (const { id } of inFile) {
    const table = datasetTableName(id);
    if (await sqliteTableExists(database, table)) {
      await db.transaction().execute((trx) => dropRowsTable(trx as unknown as AnyExecutor, table));
    }
  }
}

/** Whether any dataset's rows are in a data file (a store that must open with it). */
export async function rowsInDataFile(db: Kysely<StoreDatabase>): Promise<boolean> {
  const row = await db
    .selectFrom("datasets")
    .select("id")
    .where("rows_generation", ">", 0)
    .executeTakeFirst();
  return row !== undefined;
}
