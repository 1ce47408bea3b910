import { jsonInputLimits } from "@seed/model";
import type { QueryResultAnswer } from "@/lib/api-v1-schemas";
import {
  apiJson,
  apiMethodNotAllowed,
  datasetBySlug,
  notFound,
  readJsonBody,
  storeProblem,
  withApiToken,
} from "@/server/api-v1";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string }> };

/**
 * Runs a chart query (the ChartQuery schema, as the chart editor saves it) over a dataset in the
 * database and answers its result: what a chart of it would draw, never the dataset's rows. A
 * query that does not fit the dataset is a 422 naming each field.
 */
export const POST = withApiToken<Context>(async (request, { actor, store }, context) => {
  const { slug } = await context.params;
  const body = await readJsonBody(request, jsonInputLimits.chartQuery, "The query");
  if ("problem" in body) return body.problem;
  const found = await datasetBySlug(store, slug, actor);
  if (!found) return notFound("dataset", slug);
  try {
    const result: QueryResultAnswer = await store.runChartQuery(
      found.dataset.id,
      body.value as never,
      { seenBy: actor },
    );
    return apiJson(result);
  } catch (error) {
    return storeProblem(error);
  }
});

export const GET = () => apiMethodNotAllowed(["POST"]);
