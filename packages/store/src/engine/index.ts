import type { ChartQueryInput } from "@seed/model";
import { NotFoundError } from "@seed/model";
import type { Executor, StoreContext } from "../context.js";
import { resolveDatasetTarget } from "../repo/sources/target.js";
import { type RunQueryOptions, runQuery } from "./execute.js";
import type { QueryResult } from "./result.js";

export { type CompileOptions, compileChartQuery } from "./compile.js";
export {
  type QueryObserver,
  type QueryTiming,
  type RunQueryOptions,
  runQuery,
} from "./execute.js";
export { parseQuery, QueryError } from "./parse.js";
export type { QueryResult, QueryResultColumn } from "./result.js";

/** Runs a query over a dataset by id; NotFoundError when the dataset is gone. */
export async function runDatasetQuery(
  ctx: StoreContext,
  executor: Executor,
  datasetId: string,
  query: ChartQueryInput,
  options: RunQueryOptions = {},
): Promise<QueryResult> {
  const target = await resolveDatasetTarget(ctx, executor, datasetId);
  if (!target) throw new NotFoundError("dataset", datasetId);
  return target.run((trx) => runQuery(trx, target.table, query, options));
}

/** Runs a chart query over a dataset in the database, told to the store's query observer. */
export function runChartQuery(
  ctx: StoreContext,
  datasetId: string,
  query: ChartQueryInput,
  options?: RunQueryOptions,
): Promise<QueryResult> {
  return runDatasetQuery(ctx, ctx.db, datasetId, query, { observe: ctx.observeQuery, ...options });
}

export const queryOperations = { runChartQuery };
