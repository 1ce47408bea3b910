import type { QueryResultAnswer } from "@/lib/api-v1-schemas";
import {
  apiJson,
  apiMethodNotAllowed,
  notFound,
  storeProblem,
  withApiToken,
} from "@/server/api-v1";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** Runs a chart's saved query now and answers its result (what the chart draws). */
export const GET = withApiToken<Context>(async (_request, { actor, store }, context) => {
  const { id } = await context.params;
  const chart = id.length <= 200 ? await store.getChart(id, { seenBy: actor }) : null;
  if (!chart) return notFound("chart");
  try {
    const result: QueryResultAnswer = await store.runChartQuery(chart.datasetId, chart.query, {
      seenBy: actor,
      ...(chart.options.annotationSource
        ? { annotationSource: chart.options.annotationSource }
        : {}),
    });
    return apiJson(result);
  } catch (error) {
    return storeProblem(error);
  }
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
