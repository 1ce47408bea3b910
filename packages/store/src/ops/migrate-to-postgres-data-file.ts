import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { columnTypeSpecs } from "@seed/model";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { generationTable, rowsDataFileName } from "../db/data-file.js";
import { datasetTableName, rowKeyColumn, type TableColumn } from "../db/dataset-table.js";
import { dialects } from "../db/dialect.js";
import { openDuckDbKysely } from "../db/duckdb.js";
import { createRowsTable } from "../db/rows-table.js";
import { MigrationRefusedError } from "./migrate-to-postgres-source.js";

// migrate-to-postgres from a store whose dataset rows are in the DuckDB data file: the SQLite file
// is copied (SQLite's backup API; the source is never written) and each dataset's committed rows
// are put back into that copy's own ds_<id> table, keys and all, as the SQLite engine keeps them.
// The migration then copies and verifies the copy like any SQLite store. The copy is removed after.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/** Rows per insert into the copy. */
const batchRows = 500;

/**
 * The SQLite file to migrate from: `sqliteFile` itself, or (when its rows are in the data file
 * beside it) a temporary copy holding the rows, with the function that removes it.
 */
export async function sqliteSourceWithRows(
  sqliteFile: string,
): Promise<{ file: string; cleanup: () => void }> {
  const dataFile = path.join(path.dirname(sqliteFile), rowsDataFileName);
  const none = { file: sqliteFile, cleanup: () => {} };
  if (!existsSync(dataFile)) return none;
  const source = new BetterSqlite3(sqliteFile, { readonly: true, fileMustExist: true });
  let inFile: { id: string; version: number; rows_generation: number; columns_json: string }[];
  try {
    const hasGeneration = (
      source.prepare("select name from pragma_table_info('datasets')").all() as { name: string }[]
    ).some((column) => column.name === "rows_generation");
    inFile = hasGeneration
      ? (source
          .prepare(
            "select id, version, rows_generation, columns_json from datasets where source_id is null and rows_generation > 0 order by id",
          )
          .all() as typeof inFile)
      : [];
  } catch {
    source.close();
    return none;
  }
  if (inFile.length === 0) {
    source.close();
    return none;
  }
  const dir = mkdtempSync(path.join(tmpdir(), "seed-migrate-"));
  const copy = path.join(dir, "seed.db");
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    await source.backup(copy);
  } finally {
    source.close();
  }
  let duck: Awaited<ReturnType<typeof openDuckDbKysely>>;
  try {
    duck = await openDuckDbKysely(dataFile, {
      threads: 2,
      memoryLimit: "512MB",
      readOnly: true,
    });
  } catch (error) {
    cleanup();
    throw new MigrationRefusedError(
      `The DuckDB data file ${dataFile} does not open (${error instanceof Error ? error.message : error}); stop the app first. Nothing was written.`,
    );
  }
  const database = new BetterSqlite3(copy);
  const db: AnyExecutor = new Kysely({ dialect: new SqliteDialect({ database }) });
  try {
    for (const dataset of inFile) {
      const columns = JSON.parse(dataset.columns_json) as TableColumn[];
      const table = { table: datasetTableName(dataset.id), columns };
      await createRowsTable(db, table);
      const from = generationTable(dataset.id, Number(dataset.rows_generation));
      const reads = columns.map((column) => dialects.duckdb.read(sql.id(column.id), column.type));
      const names = [rowKeyColumn, ...columns.map((column) => column.id)]
        .map((name) => `"${name}"`)
        .join(", ");
      const insert = database.prepare(
        `insert into "${table.table}" (${names}) values (${[rowKeyColumn, ...columns].map(() => "?").join(", ")})`,
      );
      const write = database.transaction((rows: unknown[][]) => {
        for (const row of rows) insert.run(row);
      });
      let batch: unknown[][] = [];
      const stream = sql<
        Record<string, unknown>
      >`select ${dialects.duckdb.rowKeyRef} as k, ${sql.join(
        reads.map((read, index) => sql`${read} as ${sql.id(`c${index}`)}`),
      )} from ${sql.table(from)} where "_v" <= ${sql.lit(Number(dataset.version))} order by k`;
      for await (const chunk of duck.db.getExecutor().stream(stream.compile(duck.db), 2048)) {
        for (const row of chunk.rows as Record<string, unknown>[]) {
          const values: unknown[] = [Number(row.k)];
          columns.forEach((column, index) => {
            const read = row[`c${index}`];
            const cell =
              read === null || read === undefined
                ? null
                : columnTypeSpecs[column.type].fromRead(read);
            values.push(dialects.sqlite.stored(column.type, cell));
          });
          batch.push(values);
          if (batch.length === batchRows) {
            write(batch);
            batch = [];
          }
        }
      }
      write(batch);
    }
    // In PostgreSQL the rows are in the store's own tables: no data file generation.
    database.prepare("update datasets set rows_generation = 0").run();
  } catch (error) {
    cleanup();
    throw error;
  } finally {
    await db.destroy();
    await duck.close();
  }
  return { file: copy, cleanup };
}
