// A chart query over a dataset by id: where its rows live (here or a live source) is resolved,
// then the engine runs the query there.

import { type ChartQueryInput, NotFoundError } from "@seed/model";
import type { Executor, StoreContext } from "../../context.js";
import type { RunQueryOptions } from "../../engine/execute.js";
import type { QueryResult } from "../../engine/result.js";
import { readable, type SeenBy } from "../collections.js";
import { resolveDatasetTarget } from "../sources/target.js";

/** Runs a query over a dataset by id; NotFoundError when the dataset is gone. */
export async function runDatasetQuery(
  ctx: StoreContext,
  executor: Executor,
  datasetId: string,
  query: ChartQueryInput,
  options: RunQueryOptions = {},
  reader: SeenBy = {},
): Promise<QueryResult> {
  const target = await resolveDatasetTarget(ctx, executor, datasetId, reader);
  if (!target) throw new NotFoundError("dataset", datasetId);
  return target.query(query, options);
}

/**
 * Runs a chart's query over a dataset, told to the store's query observer. With `seenBy`, a
 * dataset in a collection none of that account's groups is granted is not found, as if it did
 * not exist (the chart editor's preview), and one its groups' row limits narrow is read within
 * them.
 */
export async function runChartQuery(
  ctx: StoreContext,
  datasetId: string,
  query: ChartQueryInput,
  options: RunQueryOptions & SeenBy = {},
): Promise<QueryResult> {
  const { seenBy, ...rest } = options;
  if (!(await readable(ctx.db, { seenBy }, "dataset", datasetId))) {
    throw new NotFoundError("dataset", datasetId);
  }
  return runDatasetQuery(
    ctx,
    ctx.db,
    datasetId,
    query,
    { observe: ctx.observeQuery, now: ctx.now(), ...rest },
    { seenBy },
  );
}

export const queryOperations = { runChartQuery };
