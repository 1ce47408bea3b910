// A chart query over a dataset by id: where its rows live (here or a live source) is resolved,
// then the engine runs the query there.

import {
  type ChartAnnotationSource,
  type ChartQueryInput,
  chartQuerySchema,
  NotFoundError,
} from "@seed/model";
import type { Executor, StoreContext } from "../../context.js";
import type { RunQueryOptions } from "../../engine/execute.js";
import type { QueryResult } from "../../engine/result.js";
import { withChartEvents } from "../chart-events.js";
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
 * them. With `annotationSource`, the events it names within the days shown, read the same way.
 */
export async function runChartQuery(
  ctx: StoreContext,
  datasetId: string,
  query: ChartQueryInput,
  options: RunQueryOptions & SeenBy & { annotationSource?: ChartAnnotationSource } = {},
): Promise<QueryResult> {
  const { seenBy, annotationSource, ...rest } = options;
  if (!(await readable(ctx.db, { seenBy }, "dataset", datasetId))) {
    throw new NotFoundError("dataset", datasetId);
  }
  const now = rest.now ?? ctx.now();
  const result = await runDatasetQuery(
    ctx,
    ctx.db,
    datasetId,
    query,
    { observe: ctx.observeQuery, ...rest, now },
    { seenBy },
  );
  if (!annotationSource) return result;
  return withChartEvents(
    ctx,
    ctx.db,
    { query: chartQuerySchema.parse(query), options: { annotationSource } },
    result,
    { seenBy },
    { timeZone: rest.timeZone ?? "UTC", now },
  );
}

export const queryOperations = { runChartQuery };
