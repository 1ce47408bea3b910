import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { type DatasetTable, rowKeyColumn, visibleRowsCondition } from "./dataset-table.js";
import { dialectOf } from "./dialect.js";
import { duckDbApi } from "./duckdb.js";
import { quoteIdentifier, quoteLiteral } from "./sql-sandbox.js";

// Parquet snapshots of datasets' committed rows, the only files a SQL question's DuckDB may read.
// One file per dataset state (version, generation, columns and fields), made on first use and
// kept in a private temporary folder of this process; a newer state replaces the older file.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/** A dataset's columns as SQL to select: each name with the expression that reads it. */
export interface SnapshotColumn {
  name: string;
  type: DatasetTable["columns"][number]["type"];
  ref: RawBuilder<unknown>;
}

const batchRows = 20_000;

export class SqlSnapshots {
  #folder: Promise<string> | null = null;
  readonly #making = new Map<string, Promise<string>>();

  /** This process's snapshot folder, made on first use (mode 0700, under the system's temp). */
  folder(): Promise<string> {
    this.#folder ??= mkdtemp(path.join(os.tmpdir(), "seed-sql-"));
    return this.#folder;
  }

  /** The folder's path once made, else "" (for cleaning engine messages). */
  async knownFolder(): Promise<string> {
    return this.#folder ? await this.#folder : "";
  }

  /**
   * The snapshot of one dataset state: `state` names it (any change makes a new file); the rows
   * are read with `columns` from `table` on `executor`, inside the rows home's read.
   */
  async of(
    datasetId: string,
    state: unknown,
    executor: AnyExecutor,
    table: DatasetTable,
    columns: readonly SnapshotColumn[],
  ): Promise<string> {
    const folder = await this.folder();
    const prefix = createHash("sha256").update(datasetId).digest("hex").slice(0, 16);
    const digest = createHash("sha256").update(JSON.stringify(state)).digest("hex").slice(0, 16);
    const file = path.join(folder, `${prefix}-${digest}.parquet`);
    const pending = this.#making.get(file);
    if (pending) return pending;
    const making = (async () => {
      const names = await readdir(folder);
      if (names.includes(path.basename(file))) return file;
      const partial = `${file}.${process.pid}.${Date.now()}.part`;
      try {
        if (dialectOf(executor).engine === "duckdb") {
          await copyFromDuckDb(executor, table, columns, partial);
        } else {
          await copyThroughJson(executor, table, columns, partial);
        }
        await rename(partial, file);
      } finally {
        await rm(partial, { force: true });
      }
      // Older states of this dataset are no longer read by any new question.
      for (const name of names) {
        if (name.startsWith(`${prefix}-`) && name.endsWith(".parquet")) {
          await rm(path.join(folder, name), { force: true });
        }
      }
      return file;
    })();
    this.#making.set(file, making);
    try {
      return await making;
    } finally {
      this.#making.delete(file);
    }
  }

  async close(): Promise<void> {
    if (!this.#folder) return;
    const folder = await this.#folder.catch(() => null);
    this.#folder = null;
    if (folder) await rm(folder, { recursive: true, force: true });
  }
}

/** The data file's rows: DuckDB writes the Parquet file itself, typed as stored. */
async function copyFromDuckDb(
  executor: AnyExecutor,
  table: DatasetTable,
  columns: readonly SnapshotColumn[],
  file: string,
): Promise<void> {
  const visible = visibleRowsCondition(table);
  const selected = columns.map((column) => sql`${column.ref} as ${sql.id(column.name)}`);
  await sql`copy (select ${sql.join(selected)} from ${sql.table(table.table)} ${
    visible ? sql`where ${visible}` : sql``
  }) to ${sql.lit(file)} (format parquet)`.execute(executor);
}

const duckTypes = {
  number: "DOUBLE",
  string: "VARCHAR",
  boolean: "BOOLEAN",
  date: "DATE",
  timestamp: "BIGINT",
} as const;

/**
 * Rows of SQLite (or any engine without Parquet): read in key order in batches into a
 * newline-delimited JSON file, which a private DuckDB turns into the typed Parquet file.
 * Timestamps are stored as epoch milliseconds there and become TIMESTAMPTZ.
 */
async function copyThroughJson(
  executor: AnyExecutor,
  table: DatasetTable,
  columns: readonly SnapshotColumn[],
  file: string,
): Promise<void> {
  const json = `${file}.ndjson`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    const out = createWriteStream(json);
    let after = 0;
    for (;;) {
      const selected = [
        sql`${sql.id(rowKeyColumn)} as ${sql.id("k")}`,
        ...columns.map((column, index) => sql`${column.ref} as ${sql.id(`c${index}`)}`),
      ];
      const { rows } = await sql<
        Record<string, unknown>
      >`select ${sql.join(selected)} from ${sql.table(
        table.table,
      )} where ${sql.id(rowKeyColumn)} > ${after} order by ${sql.id(rowKeyColumn)} limit ${batchRows}`.execute(
        executor,
      );
      for (const row of rows) {
        const values: Record<string, unknown> = {};
        columns.forEach((column, index) => {
          const value = row[`c${index}`];
          values[`c${index}`] =
            column.type === "boolean" && value !== null ? Boolean(value) : (value ?? null);
        });
        if (!out.write(`${JSON.stringify(values)}\n`)) {
          await new Promise<void>((resolve) => out.once("drain", () => resolve()));
        }
      }
      if (rows.length < batchRows) break;
      after = Number(rows[rows.length - 1]?.k);
    }
    out.end();
    await finished(out);
    const api = await duckDbApi();
    const instance = await api.DuckDBInstance.create(":memory:", { threads: "1" });
    const connection = await instance.connect();
    try {
      const declared = columns
        .map((column, index) => `${quoteLiteral(`c${index}`)}: '${duckTypes[column.type]}'`)
        .join(", ");
      const selected = columns
        .map((column, index) => {
          const ref = quoteIdentifier(`c${index}`);
          const value = column.type === "timestamp" ? `make_timestamptz(${ref} * 1000)` : ref;
          return `${value} AS ${quoteIdentifier(column.name)}`;
        })
        .join(", ");
      const source =
        columns.length > 0
          ? `read_json(${quoteLiteral(json)}, format = 'newline_delimited', columns = {${declared}})`
          : "(SELECT 1 WHERE false)";
      await connection.run(
        `COPY (SELECT ${selected || "NULL AS empty"} FROM ${source}) TO ${quoteLiteral(file)} (FORMAT parquet)`,
      );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    await rm(json, { force: true });
  }
}
