import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { type DatasetColumnType, sqlTemplateParts, ValidationError } from "@seed/model";
import { Kysely, type RawBuilder, sql } from "kysely";
import { converterOf, DuckDbDialect, duckDbApi, valueKindOf } from "./duckdb.js";

// SQL questions run where the engine itself keeps them to the datasets: never through a regular
// expression over the text. On the embedded install each run gets a fresh in-memory DuckDB whose
// only tables are views over Parquet snapshots of the datasets (sql-snapshots.ts); before the
// question is prepared, file access is limited to those snapshots, extensions cannot load, and the
// configuration is locked. PostgreSQL installs use a read-only login role (sql-sandbox-postgres.ts).

/** A dataset as a SQL question sees it: a table named by its slug, columns by their names. */
export interface SqlRelation {
  /** The table name in SQL (the dataset's slug). */
  name: string;
  columns: readonly { name: string; type: DatasetColumnType }[];
}

/** What one run may take. */
export interface SqlLimits {
  /** Rows returned at most; one more is read to tell that the answer was cut. */
  rowCap: number;
  /** The statement is cancelled after this long. */
  timeoutMs: number;
  /** DuckDB's memory_limit for the run (the embedded engine). */
  memoryLimit: string;
}

export const defaultSqlLimits: SqlLimits = {
  rowCap: 10_000,
  timeoutMs: 30_000,
  memoryLimit: "512MB",
};

/** A column of an answer: its name as the statement gave it, and the kind of its values. */
export interface SqlAnswerColumn {
  name: string;
  type: DatasetColumnType;
}

/**
 * An answer: numbers, text, yyyy-mm-dd dates, ISO timestamps, booleans; anything else (lists,
 * structs, intervals, blobs) as text. `truncated`: more rows than the cap matched.
 */
export interface SqlAnswer {
  columns: SqlAnswerColumn[];
  rows: unknown[][];
  truncated: boolean;
}

export type DuckApi = typeof import("@duckdb/node-api");

/** A problem with the question itself (syntax, a missing table, a refused read), for the `sql` field. */
export function sqlProblem(message: string, code = "sql"): ValidationError {
  return new ValidationError({
    fieldErrors: { sql: [message] },
    problems: [{ field: "sql", code, message }],
  });
}

/** An identifier quoted for DuckDB and PostgreSQL alike. */
export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** A text literal for DuckDB and PostgreSQL alike (standard strings: only quotes double). */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A question's parameters as bound: each name's day (yyyy-mm-dd), checked by the caller. */
export type SqlParameterDays = Readonly<Record<string, string>>;

/** A question's text with its {{parameters}} as positional dates ($1, $2, …) and their values. */
export function positionalQuestion(
  text: string,
  days: SqlParameterDays,
): { text: string; values: string[] } {
  const values: string[] = [];
  const bound = sqlTemplateParts(text)
    .map((part) => {
      if (typeof part === "string") return part;
      values.push(days[part.parameter] ?? "");
      return `CAST($${values.length} AS DATE)`;
    })
    .join("");
  return { text: bound, values };
}

/** A question's text with its {{parameters}} as bound dates, for a statement Kysely compiles. */
export function composedQuestion(text: string, days: SqlParameterDays): RawBuilder<unknown> {
  return sql.join(
    sqlTemplateParts(text).map((part) =>
      typeof part === "string" ? sql.raw(part) : sql`cast(${days[part.parameter] ?? ""} as date)`,
    ),
    sql``,
  );
}

/** A view of a dataset in the sandbox: its relation and the Parquet snapshot it reads. */
export interface SnapshotView {
  relation: SqlRelation;
  /** The snapshot's path; its columns are the relation's, in order and by name. */
  path: string;
}

/** Strips the snapshot folder from an engine message: a person sees table names, not our paths. */
function cleanMessage(message: string, folder: string): string {
  const firstLine = message.split("\n").slice(0, 3).join("\n");
  return folder ? firstLine.replaceAll(folder, "…") : firstLine;
}

/** A converted value in its answer kind: instants as ISO text, anything unusual as text. */
function answerValue(value: unknown, type: DatasetColumnType): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (type === "number") {
    if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
    return typeof value === "string" ? value : Number(value);
  }
  if (type === "boolean") return Boolean(value);
  if (typeof value === "string") return value;
  if (typeof value === "bigint") return value.toString();
  return JSON.stringify(value, (_key, inner) =>
    typeof inner === "bigint" ? inner.toString() : inner,
  );
}

/**
 * A fresh in-memory DuckDB that may read `files` and nothing else: one thread, a memory limit,
 * no temp folder, no extensions, instants in UTC; `prepare` runs before the configuration is
 * locked. For SQL questions and for reading untrusted uploads (binary-records.ts).
 */
export async function openLockedDuckDb(
  api: DuckApi,
  files: readonly string[],
  memoryLimit: string,
  prepare: (connection: DuckDBConnection) => Promise<void> = async () => {},
): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  const instance = await api.DuckDBInstance.create(":memory:", {
    threads: "1",
    memory_limit: memoryLimit,
    // Spilling would need a writable folder; work that needs more memory fails instead.
    temp_directory: "",
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
    allow_community_extensions: "false",
  });
  const connection = await instance.connect();
  try {
    // Every connection of this instance reads instants in UTC; zones are named in the SQL.
    await connection.run("SET GLOBAL TimeZone = 'UTC'");
    await connection.run("SET TimeZone = 'UTC'");
    if (files.length > 0) {
      await connection.run(`SET allowed_paths = [${files.map(quoteLiteral).join(", ")}]`);
    }
    await prepare(connection);
    await connection.run("SET enable_external_access = false");
    await connection.run("SET lock_configuration = true");
    return { instance, connection };
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
}

/** A locked DuckDB whose only tables are `views` over their snapshots. */
function openSandbox(api: DuckApi, views: readonly SnapshotView[], limits: SqlLimits) {
  return openLockedDuckDb(
    api,
    views.map((view) => view.path),
    limits.memoryLimit,
    async (connection) => {
      for (const view of views) {
        await connection.run(
          `CREATE VIEW ${quoteIdentifier(view.relation.name)} AS SELECT * FROM read_parquet(${quoteLiteral(view.path)})`,
        );
      }
    },
  );
}

/**
 * Runs one SELECT in a fresh, locked, in-memory DuckDB whose tables are `views`. Refuses more
 * than one statement and any statement but SELECT before running; everything else (files,
 * network, extensions, settings) the engine refuses by its locked configuration.
 */
export async function runInDuckDbSandbox(
  text: string,
  views: readonly SnapshotView[],
  limits: SqlLimits,
  folder: string,
  days: SqlParameterDays = {},
): Promise<SqlAnswer> {
  const api = await duckDbApi();
  const { instance, connection } = await openSandbox(api, views, limits);
  try {
    return await runLocked(api, connection, positionalQuestion(text, days), limits, folder);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * Runs the engine's work (a chart's or stat's statements) over a saved question in the same
 * sandbox: the question is checked as one SELECT first, then `work` gets an executor on the
 * locked instance and the question as a subquery of bound parameters. Stopped at the time limit.
 */
export async function withDuckDbQuestion<T>(
  text: string,
  days: SqlParameterDays,
  views: readonly SnapshotView[],
  limits: SqlLimits,
  folder: string,
  // biome-ignore lint/suspicious/noExplicitAny: the sandbox's views are made at runtime.
  work: (executor: Kysely<any>, question: RawBuilder<unknown>) => Promise<T>,
): Promise<T> {
  const api = await duckDbApi();
  const { instance, connection } = await openSandbox(api, views, limits);
  const connections: DuckDBConnection[] = [connection];
  const db = new Kysely({
    dialect: new DuckDbDialect(instance, converterOf(api), false, (opened) =>
      connections.push(opened),
    ),
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    for (const opened of connections) opened.interrupt();
  }, limits.timeoutMs);
  try {
    await checkedSelect(api, connection, positionalQuestion(text, days).text, folder);
    return await work(db, composedQuestion(text, days));
  } catch (error) {
    if (timedOut) {
      throw sqlProblem(
        `The question ran past its time limit of ${limits.timeoutMs / 1000} s and was stopped.`,
        "timeout",
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
    connection.closeSync();
    // Ends the driver's connections and the instance.
    await db.destroy().catch(() => undefined);
  }
}

/** The question's one statement, prepared, after the parser says it is one SELECT. */
async function checkedSelect(
  api: DuckApi,
  connection: DuckDBConnection,
  text: string,
  folder: string,
) {
  const fail = (error: unknown): never => {
    throw sqlProblem(cleanMessage(error instanceof Error ? error.message : String(error), folder));
  };
  const extracted = await connection.extractStatements(text).catch(fail);
  if (extracted.count === 0) throw sqlProblem("Write one SELECT statement.", "empty");
  if (extracted.count > 1) {
    throw sqlProblem(
      `A question is one SELECT statement; this text has ${extracted.count}.`,
      "statements",
    );
  }
  // DuckDB's parser says whether the statement is a SELECT before binding it, so a write is
  // told as such (binding a DELETE on a view fails first with a message about base tables).
  const parsed = await connection.runAndReadAll("select json_serialize_sql($1::varchar) as tree", [
    text,
  ]);
  const tree = JSON.parse(String(parsed.getRowObjects()[0]?.tree ?? "{}")) as {
    error?: boolean;
    error_type?: string;
  };
  if (tree.error && tree.error_type === "not implemented") {
    throw sqlProblem("Only a SELECT statement can run here.", "read_only");
  }
  const prepared = await extracted.prepare(0).catch(fail);
  if (prepared.statementType !== api.StatementType.SELECT) {
    const name = (api.StatementType[prepared.statementType] ?? "another").replaceAll("_", " ");
    throw sqlProblem(`Only a SELECT statement can run here; this is ${name}.`, "read_only");
  }
  return prepared;
}

async function runLocked(
  api: DuckApi,
  connection: DuckDBConnection,
  question: { text: string; values: string[] },
  limits: SqlLimits,
  folder: string,
): Promise<SqlAnswer> {
  const fail = (error: unknown): never => {
    throw sqlProblem(cleanMessage(error instanceof Error ? error.message : String(error), folder));
  };
  const prepared = await checkedSelect(api, connection, question.text, folder);
  if (question.values.length > 0) prepared.bind(question.values);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    connection.interrupt();
  }, limits.timeoutMs);
  try {
    const result = await prepared.stream();
    const names = result.columnNames();
    const types = result.columnTypes().map((type) => valueKindOf(api, type).kind);
    const convert = converterOf(api);
    const rows: unknown[][] = [];
    let truncated = false;
    for await (const chunk of result.yieldConvertedRows(convert)) {
      for (const row of chunk) {
        if (rows.length === limits.rowCap) {
          truncated = true;
          break;
        }
        rows.push(row.map((value, index) => answerValue(value, types[index] ?? "string")));
      }
      if (truncated) break;
    }
    return {
      columns: names.map((name, index) => ({ name, type: types[index] ?? "string" })),
      rows,
      truncated,
    };
  } catch (error) {
    if (timedOut) {
      throw sqlProblem(
        `The question ran past its time limit of ${limits.timeoutMs / 1000} s and was stopped.`,
        "timeout",
      );
    }
    return fail(error);
  } finally {
    clearTimeout(timer);
  }
}
