import { NotFoundError } from "../errors.js";
import type { Executor, StoreContext } from "../internal.js";
import { resolveDatasetTarget } from "../sources/target.js";
import { type QueryResult, type RunQueryOptions, runQuery } from "./run.js";
import type { ChartQueryInput } from "./schema.js";

export {
  parseQuery,
  QueryError,
  type QueryObserver,
  type QueryResult,
  type QueryResultColumn,
  type QueryTiming,
  type RunQueryOptions,
  runQuery,
} from "./run.js";
export {
  type ChartQuery,
  type ChartQueryInput,
  chartQuerySchema,
  checkQuery,
  type QueryFilter,
  type QueryMeasure,
} from "./schema.js";
export { isTimeZone } from "./time.js";

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
