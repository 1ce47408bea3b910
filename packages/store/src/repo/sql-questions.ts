import {
  type DatasetColumnType,
  type SqlQuestionInput,
  sqlParameterDays,
  sqlParameterProblem,
  sqlQuestionInputSchema,
  sqlQuestionLimits,
  sqlTableNames,
  ValidationError,
} from "@seed/model";
import { sql } from "kysely";
import { z } from "zod";
import { type Actor, authorize } from "../access/policy.js";
import { parseInput, parseJson, type StoreContext, writeAudit } from "../context.js";
import type { TableColumn } from "../db/dataset-table.js";
import { dialectOf } from "../db/dialect.js";
import {
  defaultSqlLimits,
  runInDuckDbSandbox,
  type SnapshotView,
  type SqlAnswer,
  type SqlLimits,
  type SqlParameterDays,
  type SqlRelation,
  sqlProblem,
} from "../db/sql-sandbox.js";
import type { PostgresRelation } from "../db/sql-sandbox-postgres.js";
import { Compiler } from "../engine/compile.js";
import { rowsStateOf } from "./datasets/datasets.js";
import { fieldColumns, withFieldColumns } from "./datasets/fields.js";

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

/** Every dataset kept here (live sources' tables are theirs, not ours), named for SQL. */
async function datasetsForSql(ctx: StoreContext): Promise<DatasetForSql[]> {
  const rows = await ctx.db
    .selectFrom("datasets")
    .select(["id", "name", "columns_json", "fields_json", "version", "rows_generation"])
    .where("source_id", "is", null)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const names = sqlTableNames(rows);
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

async function enabledIn(ctx: StoreContext): Promise<boolean> {
  const row = await ctx.db
    .selectFrom("store_meta")
    .select("value")
    .where("key", "=", settingKey)
    .executeTakeFirst();
  return row?.value !== "false";
}

function engineOf(ctx: StoreContext): "duckdb" | "postgres" {
  return dialectOf(ctx.db).engine === "postgres" ? "postgres" : "duckdb";
}

/** Why a question cannot run now, or null. */
async function unavailableReason(ctx: StoreContext): Promise<string | null> {
  if (!(await enabledIn(ctx))) return "An admin has turned SQL questions off.";
  if (engineOf(ctx) === "postgres" && !ctx.sql.reader) {
    return "SQL questions on PostgreSQL need SEED_SQL_DATABASE_URL: a login role that may only read (see the README).";
  }
  return null;
}

/** Whether SQL questions are on and can run, and the tables they see. */
async function sqlQuestionsStatus(ctx: StoreContext, actor: Actor): Promise<SqlQuestionsStatus> {
  authorize(actor, "sql.run");
  const reason = await unavailableReason(ctx);
  const datasets = await datasetsForSql(ctx);
  return {
    enabled: await enabledIn(ctx),
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
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("store_meta").where("key", "=", settingKey).execute();
    await trx
      .insertInto("store_meta")
      .values({ key: settingKey, value: String(enabled) })
      .execute();
    await writeAudit(trx, ctx, checked, "settings.update", "settings", settingKey, { enabled });
  });
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

async function runOnDuckDb(
  ctx: StoreContext,
  text: string,
  datasets: readonly DatasetForSql[],
  limits: SqlLimits,
  days: SqlParameterDays,
): Promise<SqlAnswer> {
  const views: SnapshotView[] = [];
  for (const dataset of datasets) {
    const state = rowsStateOf(dataset.id, dataset.row);
    const fields = fieldColumns(state.columns, dataset.row.fields_json);
    const file = await ctx.rows.read(ctx.db, state, (executor, read) => {
      const table = withFieldColumns(read, fields);
      const compiler = new Compiler(executor, table, "UTC", ctx.now().getTime());
      return ctx.sql.snapshots.of(
        dataset.id,
        dataset.row,
        executor,
        read,
        selectList(compiler, dataset.relation),
      );
    });
    views.push({ relation: dataset.relation, path: file });
  }
  return runInDuckDbSandbox(text, views, limits, await ctx.sql.snapshots.knownFolder(), days);
}

async function runOnPostgres(
  ctx: StoreContext,
  text: string,
  datasets: readonly DatasetForSql[],
  limits: SqlLimits,
  days: SqlParameterDays,
): Promise<SqlAnswer> {
  const reader = ctx.sql.reader;
  if (!reader) throw new Error("No SQL reader.");
  const relations: PostgresRelation[] = [];
  for (const dataset of datasets) {
    const state = rowsStateOf(dataset.id, dataset.row);
    const fields = fieldColumns(state.columns, dataset.row.fields_json);
    relations.push(
      await ctx.rows.read(ctx.db, state, async (executor, read) => {
        const compiler = new Compiler(
          executor,
          withFieldColumns(read, fields),
          "UTC",
          ctx.now().getTime(),
        );
        return {
          relation: dataset.relation,
          table: read.table,
          columns: selectList(compiler, dataset.relation).map(
            (column) => sql`${column.ref} as ${sql.id(column.name)}`,
          ),
        };
      }),
    );
  }
  return reader.run(text, relations, limits, days);
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
  const reason = await unavailableReason(ctx);
  if (reason) throw new ValidationError({ fieldErrors: {}, formError: reason });
  const parameterProblem = sqlParameterProblem(text, parameters);
  if (parameterProblem) throw sqlProblem(parameterProblem, "parameter");
  const days = sqlParameterDays(parameters);
  const datasets = named(text, await datasetsForSql(ctx));
  const bounded: SqlLimits = {
    ...defaultSqlLimits,
    rowCap: Math.min(limits.rowCap ?? sqlQuestionLimits.maxRows, sqlQuestionLimits.maxRows),
    timeoutMs: Math.min(
      limits.timeoutMs ?? sqlQuestionLimits.timeoutMs,
      sqlQuestionLimits.timeoutMs,
    ),
  };
  const started = performance.now();
  const audit = (detail: Record<string, unknown>) =>
    writeAudit(ctx.db, ctx, checked, "question.run", "question", "sql", {
      sql: text.length > 1_000 ? `${text.slice(0, 1_000)}…` : text,
      tables: datasets.map((dataset) => dataset.relation.name),
      ms: Math.round(performance.now() - started),
      ...detail,
    });
  try {
    const answer =
      engineOf(ctx) === "postgres"
        ? await runOnPostgres(ctx, text, datasets, bounded, days)
        : await runOnDuckDb(ctx, text, datasets, bounded, days);
    await audit({ ok: true, rows: answer.rows.length, truncated: answer.truncated });
    return { ...answer, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await audit({ ok: false, error: message.slice(0, 500) });
    throw error;
  }
}

export const sqlQuestionOperations = {
  runSqlQuestion,
  sqlQuestionsStatus,
  setSqlQuestionsEnabled,
};
