import {
  calculatedFieldsOver,
  type DatasetColumn,
  type DatasetColumnType,
  datasetLimits,
  optionalText,
  queryColumnsOf,
  requiredText,
  type SqlParameterValues,
  type SqlQuestionInput,
  sqlParameterDays,
  sqlParameterProblem,
  sqlQuestionInputSchema,
  sqlQuestionLimits,
  sqlTableNames,
  textLimits,
  ValidationError,
} from "@seed/model";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { z } from "zod";
import { type Actor, authorize } from "../access/policy.js";
import {
  type Executor,
  newId,
  parseInput,
  parseJson,
  type StoreContext,
  writeAudit,
} from "../context.js";
import { type DatasetTable, isRemoteIdentifier, type TableColumn } from "../db/dataset-table.js";
import { dialectOf } from "../db/dialect.js";
import {
  defaultSqlLimits,
  runInDuckDbSandbox,
  type SnapshotView,
  type SqlAnswer,
  type SqlLimits,
  type SqlRelation,
  sqlProblem,
  withDuckDbQuestion,
} from "../db/sql-sandbox.js";
import type { PostgresRelation, PostgresSqlReader } from "../db/sql-sandbox-postgres.js";
import { Compiler } from "../engine/compile.js";
import { seenCollections } from "./collections.js";
import {
  checkColumnsStillServeUsers,
  type Dataset,
  getDatasetSummaryIn,
  hierarchyProblems,
  rowsStateOf,
} from "./datasets/datasets.js";
import { fieldColumns, withFieldColumns } from "./datasets/fields.js";
import { limitedSqlReason, refuseSqlWhenLimited, rowLimited } from "./row-limits.js";
import { readSetting, writeSetting } from "./settings.js";
import { createdWrite, versionedWrite } from "./versioned-write.js";

// SQL questions: one read-only SELECT over the datasets, each a table named by sqlTableNames
// (@seed/model), its columns by their names, calculated fields included. The store decides who
// may run one and whether they are on; the engine decides what a question can reach (db/sql-*).

/** The instance setting that turns SQL questions off (store_meta); absent means on. */
const settingKey = "sql_questions_enabled";

/** Where SQL questions run in this store, and whether they can. */
export interface SqlQuestionsStatus {
  /** An admin's setting: false when SQL questions are turned off. */
  enabled: boolean;
  /** Whether a question can run now (enabled, and the engine is set up); else `reason` says why. */
  available: boolean;
  reason: string | null;
  /** Whose SQL questions are written in. */
  engine: "duckdb" | "postgres";
  /** The datasets as tables, for the editor's completion. */
  tables: SqlRelation[];
}

/** An answer with how long the engine took. */
export interface SqlQuestionAnswer extends SqlAnswer {
  ms: number;
}

interface DatasetForSql {
  id: string;
  relation: SqlRelation;
  row: {
    version: number;
    rows_generation: number;
    columns_json: string;
    fields_json: string;
  };
}

/**
 * Every dataset kept here (live sources' tables are theirs, not ours), named for SQL; with
 * `seen`, only those in Shared and the collections named (names stay as over all datasets).
 */
async function datasetsForSql(
  db: Executor,
  seen: readonly string[] | "all" = "all",
): Promise<DatasetForSql[]> {
  const all = await db
    .selectFrom("datasets")
    .select([
      "id",
      "name",
      "columns_json",
      "fields_json",
      "version",
      "rows_generation",
      "collection_id",
    ])
    .where("source_id", "is", null)
    .where("question_sql", "is", null)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const names = sqlTableNames(all);
  const rows =
    seen === "all"
      ? all
      : all.filter((row) => row.collection_id === null || seen.includes(row.collection_id));
  return rows.map((row) => {
    const stored = parseJson<TableColumn[]>(row.columns_json);
    const fields = fieldColumns(stored, row.fields_json);
    return {
      id: row.id,
      relation: {
        name: names.get(row.id) ?? row.id,
        columns: [...stored, ...fields].map(({ name, type }) => ({ name, type })),
      },
      row: {
        version: Number(row.version),
        rows_generation: Number(row.rows_generation),
        columns_json: row.columns_json,
        fields_json: row.fields_json,
      },
    };
  });
}

async function enabledIn(db: Executor): Promise<boolean> {
  return (await readSetting(db, settingKey)) !== "false";
}

function engineOf(ctx: StoreContext): "duckdb" | "postgres" {
  return dialectOf(ctx.db).engine === "postgres" ? "postgres" : "duckdb";
}

/** Why a question cannot run now, or null. */
async function unavailableReason(ctx: StoreContext, db: Executor): Promise<string | null> {
  if (!(await enabledIn(db))) return "An admin has turned SQL questions off.";
  if (engineOf(ctx) === "postgres" && !ctx.sql.reader) {
    return "SQL questions on PostgreSQL need SEED_SQL_DATABASE_URL: a login role that may only read (see the README).";
  }
  return null;
}

/**
 * The collections whose datasets an account's question may read; refused (ForbiddenError) to an
 * account a row limit applies to, since a statement could read around the limit.
 */
async function questionScope(db: Executor, actor: Actor): Promise<readonly string[] | "all"> {
  await refuseSqlWhenLimited(db, actor);
  return seenCollections(db, { seenBy: actor });
}

/** Whether SQL questions are on and can run, and the tables they see. */
async function sqlQuestionsStatus(ctx: StoreContext, actor: Actor): Promise<SqlQuestionsStatus> {
  const checked = authorize(actor, "sql.run") as Actor;
  const reason = (await rowLimited(ctx.db, checked))
    ? limitedSqlReason
    : await unavailableReason(ctx, ctx.db);
  const datasets = await datasetsForSql(ctx.db, await seenCollections(ctx.db, { seenBy: checked }));
  return {
    enabled: await enabledIn(ctx.db),
    available: reason === null,
    reason,
    engine: engineOf(ctx),
    tables: datasets.map((dataset) => dataset.relation),
  };
}

const settingSchema = z.object({ enabled: z.boolean({ error: "Say on or off." }) });

/** Turns SQL questions on or off for everyone (an admin's setting), audited. */
async function setSqlQuestionsEnabled(
  ctx: StoreContext,
  actor: Actor,
  input: { enabled: boolean },
): Promise<void> {
  const checked = authorize(actor, "settings.manage");
  const { enabled } = parseInput(settingSchema, input);
  await ctx.db
    .transaction()
    .execute((trx) => writeSetting(trx, ctx, checked, settingKey, String(enabled), { enabled }));
}

/** The datasets a question's text names: only their snapshots are made (not a safety rule). */
function named(text: string, datasets: readonly DatasetForSql[]): DatasetForSql[] {
  const lower = text.toLowerCase();
  return datasets.filter((dataset) => lower.includes(dataset.relation.name));
}

/** Each dataset's columns as SQL over its table: stored columns, then calculated fields. */
function selectList(
  compiler: Compiler,
  relation: SqlRelation,
): { name: string; type: DatasetColumnType; ref: ReturnType<Compiler["ref"]> }[] {
  return relation.columns.map((column) => ({
    name: column.name,
    type: column.type,
    ref: compiler.ref(compiler.column(column.name)),
  }));
}

/**
 * Each dataset a question names, read where its rows are: `use` gets the executor, the table as
 * the rows home gives it, and each of the relation's columns as SQL over it (fields included).
 */
async function eachNamed<T>(
  ctx: StoreContext,
  db: Executor,
  datasets: readonly DatasetForSql[],
  use: (
    dataset: DatasetForSql,
    // biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime.
    executor: Kysely<any>,
    read: DatasetTable,
    columns: ReturnType<typeof selectList>,
  ) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (const dataset of datasets) {
    const state = rowsStateOf(dataset.id, dataset.row);
    const fields = fieldColumns(state.columns, dataset.row.fields_json);
    results.push(
      await ctx.rows.read(db, state, (executor, read) => {
        const table = withFieldColumns(read, fields);
        const compiler = new Compiler(executor, table, "UTC", ctx.now().getTime());
        return use(dataset, executor, read, selectList(compiler, dataset.relation));
      }),
    );
  }
  return results;
}

/** The Parquet snapshots of the datasets a question names, as the sandbox's views. */
function snapshotViews(
  ctx: StoreContext,
  db: Executor,
  datasets: readonly DatasetForSql[],
): Promise<SnapshotView[]> {
  return eachNamed(ctx, db, datasets, async (dataset, executor, read, columns) => ({
    relation: dataset.relation,
    path: await ctx.sql.snapshots.of(dataset.id, dataset.row, executor, read, columns),
  }));
}

/** The datasets a question names as PostgreSQL CTEs over their own tables. */
function postgresRelations(
  ctx: StoreContext,
  db: Executor,
  datasets: readonly DatasetForSql[],
): Promise<PostgresRelation[]> {
  return eachNamed(ctx, db, datasets, async (dataset, _executor, read, columns) => ({
    relation: dataset.relation,
    table: read.table,
    columns: columns.map((column) => sql`${column.ref} as ${sql.id(column.name)}`),
  }));
}

/**
 * Runs one SQL question for an editor: a read-only SELECT over the datasets, at most
 * sqlQuestionLimits.maxRows rows, stopped after its time limit. Every run is audited, refused
 * ones too. Problems with the question are ValidationErrors on the `sql` field.
 */
async function runSqlQuestion(
  ctx: StoreContext,
  actor: Actor,
  input: SqlQuestionInput,
  limits: Partial<SqlLimits> = {},
): Promise<SqlQuestionAnswer> {
  const checked = authorize(actor, "sql.run");
  const { sql: text, parameters } = parseInput(sqlQuestionInputSchema, input);
  const started = performance.now();
  const audit = (detail: Record<string, unknown>) =>
    writeAudit(ctx.db, ctx, checked, "question.run", "question", "sql", {
      sql: text.length > 1_000 ? `${text.slice(0, 1_000)}…` : text,
      ms: Math.round(performance.now() - started),
      ...detail,
    });
  try {
    const seen = await questionScope(ctx.db, checked as Actor);
    const { answer, tables } = await answerQuestion(ctx, text, parameters, limits, seen);
    await audit({ ok: true, tables, rows: answer.rows.length, truncated: answer.truncated });
    return { ...answer, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await audit({ ok: false, error: message.slice(0, 500) });
    throw error;
  }
}

/** Where a question runs: PostgreSQL's reader over CTEs, or a DuckDB sandbox over snapshots. */
type QuestionEngine =
  | { kind: "postgres"; reader: PostgresSqlReader; relations: PostgresRelation[] }
  | { kind: "duckdb"; views: SnapshotView[]; folder: string };

/**
 * A question made ready to run on this store's engine: refused when SQL questions cannot run or
 * its parameters do not bind; its days, and the datasets it names as the engine's tables.
 */
async function questionOn(
  ctx: StoreContext,
  db: Executor,
  text: string,
  parameters: SqlParameterValues | undefined,
  seen: readonly string[] | "all" = "all",
) {
  const reason = await unavailableReason(ctx, db);
  if (reason) throw new ValidationError({ fieldErrors: {}, formError: reason });
  const problem = sqlParameterProblem(text, parameters);
  if (problem) throw sqlProblem(problem, "parameter");
  const datasets = named(text, await datasetsForSql(db, seen));
  const reader = engineOf(ctx) === "postgres" ? ctx.sql.reader : null;
  const engine: QuestionEngine = reader
    ? { kind: "postgres", reader, relations: await postgresRelations(ctx, db, datasets) }
    : {
        kind: "duckdb",
        views: await snapshotViews(ctx, db, datasets),
        folder: await ctx.sql.snapshots.knownFolder(),
      };
  return {
    days: sqlParameterDays(parameters),
    tables: datasets.map((dataset) => dataset.relation.name),
    engine,
  };
}

/** A question's answer on this store's engine, and the tables it named. */
async function answerQuestion(
  ctx: StoreContext,
  text: string,
  parameters: SqlParameterValues | undefined,
  limits: Partial<SqlLimits>,
  /** The collections whose datasets the asking account sees; a saved question's runs see all. */
  seen: readonly string[] | "all",
): Promise<{ answer: SqlAnswer; tables: string[] }> {
  const { days, tables, engine } = await questionOn(ctx, ctx.db, text, parameters, seen);
  const bounded = boundedLimits(limits);
  const answer =
    engine.kind === "postgres"
      ? await engine.reader.run(text, engine.relations, bounded, days)
      : await runInDuckDbSandbox(text, engine.views, bounded, engine.folder, days);
  return { answer, tables };
}

/** What a run may take; callers may ask for less, never more. */
function boundedLimits(limits: Partial<SqlLimits>): SqlLimits {
  return {
    ...defaultSqlLimits,
    rowCap: Math.min(limits.rowCap ?? sqlQuestionLimits.maxRows, sqlQuestionLimits.maxRows),
    timeoutMs: Math.min(
      limits.timeoutMs ?? sqlQuestionLimits.timeoutMs,
      sqlQuestionLimits.timeoutMs,
    ),
  };
}

/** The most rows a raw series over a question reads (its answer has no row order to bin by). */
export const questionRowCap = sqlQuestionLimits.maxRows;

/**
 * Runs the engine's work over a saved question (a chart's or a stat's statements): in the
 * sandbox of this store's engine, the question as a subquery with its parameters bound. A
 * question that can no longer run (turned off, a dataset renamed) fails with the reason.
 */
export async function runQuestionWork<T>(
  ctx: StoreContext,
  db: Executor,
  text: string,
  table: DatasetTable,
  parameters: SqlParameterValues | undefined,
  // biome-ignore lint/suspicious/noExplicitAny: the question's columns are known at runtime only.
  work: (executor: Kysely<any>, table: DatasetTable) => Promise<T>,
): Promise<T> {
  const { days, engine } = await questionOn(ctx, db, text, parameters);
  const limits = boundedLimits({});
  // biome-ignore lint/suspicious/noExplicitAny: the question's columns are known at runtime only.
  const over = (executor: Kysely<any>, question: RawBuilder<unknown>) =>
    work(executor, { ...table, subquery: question });
  return engine.kind === "postgres"
    ? engine.reader.withQuestion(text, engine.relations, limits, days, over)
    : withDuckDbQuestion(text, days, engine.views, limits, engine.folder, over);
}

const questionDatasetSchema = z.object({
  name: requiredText("name", textLimits.name),
  description: optionalText("description", textLimits.description).default(""),
  sql: sqlQuestionInputSchema.shape.sql,
});

/**
 * Saves a SQL question as a dataset: charts and stat tiles read it like any dataset, its rows
 * being its answer at the time they ask (with the dashboard's date range as {{from}} and
 * {{to}}). The question runs once first: its columns (named once each, at most the dataset
 * limit) become the dataset's. Audited as a dataset.create.
 */
async function createQuestionDataset(
  ctx: StoreContext,
  actor: Actor,
  input: { name: string; description?: string; sql: string },
): Promise<{ id: string }> {
  const checked = authorize(actor, "content.write");
  authorize(actor, "sql.run");
  const fields = parseInput(questionDatasetSchema, input);
  const seen = await questionScope(ctx.db, checked as Actor);
  const { answer } = await answerQuestion(ctx, fields.sql, undefined, { rowCap: 1 }, seen);
  const columns = questionColumns(answer.columns);
  const id = newId();
  const now = ctx.now().toISOString();
  await ctx.db.transaction().execute((trx) =>
    createdWrite(trx, ctx, checked, {
      entityType: "dataset",
      id,
      create: async () => {
        await trx
          .insertInto("datasets")
          .values({
            id,
            name: fields.name,
            description: fields.description,
            columns_json: JSON.stringify(columns),
            row_count: 0,
            version: 1,
            created_at: now,
            updated_at: now,
            source_id: null,
            question_sql: fields.sql,
          })
          .execute();
        return {
          result: undefined,
          action: "dataset.create",
          detail: { name: fields.name, question: fields.sql.slice(0, 500) },
        };
      },
    }),
  );
  return { id };
}

/** An answer's columns as a question dataset's: each named once, a name the engines can quote. */
function questionColumns(
  columns: readonly { name: string; type: DatasetColumnType }[],
): TableColumn[] {
  const problems: string[] = [];
  if (columns.length > datasetLimits.maxColumns) {
    problems.push(
      `The answer has ${columns.length} columns; a dataset has at most ${datasetLimits.maxColumns}.`,
    );
  }
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column.name))
      problems.push(`The column "${column.name}" comes twice: name each column once with AS.`);
    else if (
      !isRemoteIdentifier(column.name) ||
      column.name.length > datasetLimits.maxColumnNameLength
    ) {
      problems.push(
        `The column name "${column.name.slice(0, 40)}" is too long: shorten it with AS.`,
      );
    }
    seen.add(column.name);
  }
  if (problems.length > 0) throw sqlProblem(problems[0] as string, "columns");
  return columns.map((column) => ({ id: column.name, name: column.name, type: column.type }));
}

/**
 * Changes a saved question's text: it runs once first, and its new columns must still serve the
 * charts and stat tiles that use the dataset (else field errors on `sql` name them). Versioned
 * and audited as a dataset.update.
 */
async function updateQuestionDataset(
  ctx: StoreContext,
  actor: Actor,
  id: string,
  expectedVersion: number,
  input: { sql: string },
): Promise<Dataset> {
  const checked = authorize(actor, "content.write");
  authorize(actor, "sql.run");
  const { sql: text } = parseInput(questionDatasetSchema.pick({ sql: true }), input);
  // The question runs before the write's transaction: the sandbox reads the state database too.
  const seen = await questionScope(ctx.db, checked as Actor);
  const { answer } = await answerQuestion(ctx, text, undefined, { rowCap: 1 }, seen);
  const columns = questionColumns(answer.columns);
  return versionedWrite(ctx, checked, {
    entityType: "dataset",
    id,
    expectedVersion,
    read: getDatasetSummaryIn,
    change: async (current, row, trx) => {
      if (!current.question) {
        throw new ValidationError({
          fieldErrors: {},
          formError: "This dataset is not a SQL question.",
        });
      }
      // A question may answer true/false columns, as a live source's table may.
      const datasetColumns = columns.map(({ name, type }) => ({
        name,
        type: type as DatasetColumn["type"],
      }));
      const calculatedFields = calculatedFieldsOver(
        datasetColumns,
        current.calculatedFields.map(({ name, expression }) => ({ name, expression })),
      );
      const queryColumns = queryColumnsOf({ columns: datasetColumns, calculatedFields });
      await checkColumnsStillServeUsers(
        trx,
        id,
        queryColumns,
        "sql",
        hierarchyProblems(queryColumns, current.hierarchies),
      );
      const at = ctx.now().toISOString();
      await row.update({
        question_sql: text,
        columns_json: JSON.stringify(columns),
        updated_at: at,
      });
      return {
        result: {
          ...current,
          columns: datasetColumns,
          calculatedFields,
          question: { sql: text },
          version: expectedVersion + 1,
          updatedAt: at,
        },
        action: "dataset.update",
        detail: { changed: ["question"], question: text.slice(0, 500) },
      };
    },
  });
}

export const sqlQuestionOperations = {
  updateQuestionDataset,
  runSqlQuestion,
  sqlQuestionsStatus,
  setSqlQuestionsEnabled,
  createQuestionDataset,
};
