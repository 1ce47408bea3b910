import type BetterSqlite3 from "better-sqlite3";
import { type DatasetTable, datasetTableName, type TableColumn } from "../db/dataset-table.js";
import { migrationLockTableName, migrations, migrationTableName } from "../db/migrations.js";
import { quoteIdentifier } from "./migrate-to-postgres-values.js";

// The SQLite side of migrate-to-postgres: the source file checked to be a Seed Charts database
// migrated by this version, and its tables, columns, primary keys and datasets read (never written).

/** Refused before anything was written (bad input, non-empty target, not a Seed database). */
export class MigrationRefusedError extends Error {
  override name = "MigrationRefusedError";
}

export interface SourceTable {
  name: string;
  columns: string[];
  primaryKey: string[];
}

export interface SourceInfo {
  tables: Map<string, SourceTable>;
  datasets: DatasetTable[];
}

const storeBookkeeping = new Set([migrationTableName, migrationLockTableName]);

/** Checks the source is a Seed Charts database at this version and lists what to copy. */
export function readSource(database: BetterSqlite3.Database, file: string): SourceInfo {
  const refuse = (reason: string): never => {
    throw new MigrationRefusedError(
      `${file} is not a Seed Charts SQLite database (${reason}); nothing was written.`,
    );
  };
  let names: string[];
  try {
    names = (
      database
        .prepare(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name",
        )
        .all() as { name: string }[]
    ).map((row) => row.name);
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
  if (!names.includes(migrationTableName) || !names.includes("datasets")) {
    return refuse("it has no Seed Charts tables");
  }
  const applied = (
    database.prepare(`select name from ${quoteIdentifier(migrationTableName)}`).all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  const known = Object.keys(migrations);
  const missing = known.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new MigrationRefusedError(
      `${file} was migrated by a newer version of Seed Charts (${unknown.join(", ")}); run this command from that version. Nothing was written.`,
    );
  }
  if (missing.length > 0) {
    throw new MigrationRefusedError(
      `${file} lacks the migrations ${missing.join(", ")}: start the app once on this version so it migrates the file, then try again. Nothing was written.`,
    );
  }
  const tables = new Map<string, SourceTable>();
  for (const name of names) {
    if (storeBookkeeping.has(name)) continue;
    const info = database.prepare(`pragma table_info(${quoteIdentifier(name)})`).all() as {
      name: string;
      pk: number;
    }[];
    tables.set(name, {
      name,
      columns: info.map((column) => column.name),
      primaryKey: info
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name),
    });
  }
  const datasets = (
    database
      .prepare(
        "select id, columns_json from datasets where source_id is null and question_sql is null order by id",
      )
      .all() as {
      id: string;
      columns_json: string;
    }[]
  ).map((row) => ({
    table: datasetTableName(row.id),
    columns: JSON.parse(row.columns_json) as TableColumn[],
  }));
  for (const dataset of datasets) {
    if (!tables.has(dataset.table)) refuse(`the rows table ${dataset.table} is missing`);
  }
  return { tables, datasets };
}
