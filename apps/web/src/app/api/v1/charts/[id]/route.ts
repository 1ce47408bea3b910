import type { ChartAnswer } from "@/lib/api-v1-schemas";
import {
  apiJson,
  apiMethodNotAllowed,
  etagOf,
  notModified,
  problem,
  withApiToken,
} from "@/server/api-v1";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** A chart: its dataset by slug, its query and options; its version is the ETag. */
export const GET = withApiToken<Context>(async (request, { store }, context) => {
  const { id } = await context.params;
  const chart = id.length <= 200 ? await store.getChart(id) : null;
  if (!chart) return problem(404, "No chart has this id.");
  const dataset = (await store.listDatasetSlugs()).find((entry) => entry.id === chart.datasetId);
  if (!dataset) return problem(404, "No chart has this id.");
  const etag = etagOf(chart.version);
  const unchanged = notModified(request, etag);
  if (unchanged) return unchanged;
  const answer: ChartAnswer = {
    id: chart.id,
    title: chart.title,
    type: chart.type,
    dataset: dataset.slug,
    query: chart.query,
    options: chart.options,
    version: chart.version,
    createdAt: chart.createdAt,
    updatedAt: chart.updatedAt,
  };
  return apiJson(answer, { etag });
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
