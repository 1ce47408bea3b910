import type { ChartQueryInput, QueryFilter, SqlParameterValues } from "@seed/model";
import type { Kysely } from "kysely";
import { type Executor, parseJson, type StoreContext } from "../../context.js";
import type { DatasetTable, TableColumn } from "../../db/dataset-table.js";
import { type RunQueryOptions, runQuery } from "../../engine/execute.js";
import type { QueryResult } from "../../engine/result.js";
import { resultKey } from "../../engine/result-cache.js";
import { limitedTable } from "../../engine/row-limit.js";
import { runStat, type StatQuery, type StatValue } from "../../engine/stat.js";
import type { SeenBy } from "../collections.js";
import { datasetPlaceIn, rowsStateOf } from "../datasets/datasets.js";
import { fieldColumns, withFieldColumns } from "../datasets/fields.js";
import { rowsSeenIn } from "../row-limits.js";
import { questionRowCap, runQuestionWork } from "../sql-questions.js";
import { sourceFailure } from "./connections.js";
import { withSource } from "./remote.js";
import { getSourceRowIn } from "./sources.js";

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/**
 * How long a page showing a saved question may be served from the page cache: its answer
 * changes with the datasets it reads, which do not expire its pages themselves.
 */
const questionCacheSeconds = 60;

/** Where and how a dataset is queried: its own table here, or a live source's table there. */
export interface DatasetTarget {
  table: DatasetTable;
  /** The live source's cache time-to-live in seconds; null for a dataset kept here. */
  cacheTtlSeconds: number | null;
  /**
   * Runs the engine's work on the right executor and table (a live source: read-only, with its
   * timeout; rows kept here: through the store's rows home, which may read a newer commit).
   */
  run<T>(
    work: (executor: AnyExecutor, table: DatasetTable) => Promise<T>,
    parameters?: SqlParameterValues,
  ): Promise<T>;
  /** A chart query's result, from the result cache while the dataset's version stands. */
  query(query: ChartQueryInput, options: RunQueryOptions): Promise<QueryResult>;
  /** A stat tile's value, cached the same way. */
  stat(stat: StatQuery, options: RunQueryOptions): Promise<StatValue>;
}

/**
 * What a stat's answer depends on: every field of the stat query, defaults filled in (a tile's
 * label or thresholds do not change it). Typed as the whole query, so a field added to StatQuery
 * cannot be left out of the key (compareWith once was, and two tiles shared one answer).
 */
function statKey(stat: StatQuery): Required<StatQuery> {
  return {
    column: stat.column,
    aggregation: stat.aggregation,
    filters: stat.filters ?? [],
    compare: stat.compare ?? false,
    compareWith: stat.compareWith ?? "previous_period",
  };
}

/**
 * The target's query and stat: a dataset kept here answers through the result cache under its
 * version; a live source's data changes outside the store, so it always asks the source.
 */
function queries(
  ctx: StoreContext,
  scope: { datasetId: string; version: number } | null,
  run: DatasetTarget["run"],
  rows: readonly (readonly QueryFilter[])[] | null,
): Pick<DatasetTarget, "query" | "stat"> {
  const through = async <T extends object>(
    kind: "chart" | "stat",
    asked: unknown,
    options: RunQueryOptions,
    work: () => Promise<T>,
  ): Promise<T> => {
    if (!scope) return work();
    // A limited reader's answers are its own: the limit is part of what was asked.
    const key = resultKey({ ...scope, kind }, rows === null ? asked : { rows, asked }, options);
    const started = performance.now();
    const { value, hit } = await ctx.resultCache.through(key, work);
    if (hit) {
      const seconds = (performance.now() - started) / 1000;
      options.observe?.({ kind, seconds, ok: true, cached: true });
    }
    return value;
  };
  return {
    query: (query, options) =>
      through("chart", query, options, () =>
        run((executor, read) => runQuery(executor, read, query, options), options.parameters),
      ),
    stat: (stat, options) =>
      through("stat", statKey(stat), options, () =>
        run((executor, read) => runStat(executor, read, stat, options), options.parameters),
      ),
  };
}

/**
 * The one place that decides where a dataset's queries run, and over which rows: with `seenBy`,
 * only the rows that account's row limits leave it (src/repo/row-limits.ts), in every statement
 * the target runs. Null when the dataset is missing.
 */
export async function resolveDatasetTarget(
  ctx: StoreContext,
  trx: Executor,
  datasetId: string,
  reader: SeenBy = {},
): Promise<DatasetTarget | null> {
  const found = await resolveWholeTarget(ctx, trx, datasetId);
  if (!found) return null;
  const rows = await rowsSeenIn(trx, reader, datasetId);
  if (rows === null) return found;
  const run: DatasetTarget["run"] = (work, parameters) =>
    found.run((executor, table) => work(executor, limitedTable(executor, table, rows)), parameters);
  const scope = found.scope;
  return { ...found, run, ...queries(ctx, scope, run, rows) };
}

/** A dataset's target over all its rows, with the result cache's scope for its answers. */
async function resolveWholeTarget(
  ctx: StoreContext,
  trx: Executor,
  datasetId: string,
): Promise<(DatasetTarget & { scope: { datasetId: string; version: number } | null }) | null> {
  const row = await datasetPlaceIn(trx, datasetId);
  if (!row) return null;
  const columns = parseJson<TableColumn[]>(row.columns_json);
  const fields = fieldColumns(columns, row.fields_json);
  if (row.question_sql !== null) {
    // A saved question: its answer, computed in the SQL sandbox each time (it reads other
    // datasets, so neither the result cache nor a dataset version can stand for it).
    const text = row.question_sql;
    const table = withFieldColumns(
      { table: "question", columns, remote: { schema: "", rowCap: questionRowCap } },
      fields,
    );
    const run: DatasetTarget["run"] = (work, parameters) =>
      runQuestionWork(ctx, trx, text, table, parameters, work);
    return {
      table,
      cacheTtlSeconds: questionCacheSeconds,
      run,
      scope: null,
      ...queries(ctx, null, run, null),
    };
  }
  if (row.source_id === null) {
    const state = rowsStateOf(datasetId, row);
    const table = await ctx.rows.read(trx, state, async (_executor, read) =>
      withFieldColumns(read, fields),
    );
    const run: DatasetTarget["run"] = (work) =>
      ctx.rows.read(trx, state, (executor, read) => work(executor, withFieldColumns(read, fields)));
    const scope = { datasetId, version: Number(row.version) };
    return { table, cacheTtlSeconds: null, run, scope, ...queries(ctx, scope, run, null) };
  }
  const source = await getSourceRowIn(trx, row.source_id);
  if (!source) throw sourceFailure("The live source of this dataset no longer exists.");
  const table = withFieldColumns(
    {
      table: row.source_table ?? "",
      columns,
      remote: { schema: row.source_schema ?? "", rowCap: Number(source.row_cap) },
    },
    fields,
  );
  const run: DatasetTarget["run"] = (work) =>
    withSource(ctx, source, (executor) => work(executor, table));
  return {
    table,
    cacheTtlSeconds: Number(source.cache_ttl_seconds),
    run,
    scope: null,
    ...queries(ctx, null, run, null),
  };
}
