import {
  apiJson,
  apiMethodNotAllowed,
  chartAnswerOf,
  etagOf,
  expectedVersionOf,
  problem,
  refuseReadOnly,
  storeProblem,
  versionParam,
  withApiToken,
} from "@/server/api-v1";
import { expireContentNow } from "@/server/revalidate";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; version: string }> };

/**
 * Restores a chart to a kept version, saved as one new version. With If-Match, a chart changed
 * since is a 412; a chart kept from a dashboard file is refused.
 */
export const POST = withApiToken<Context>(async (request, { actor, store }, context) => {
  const params = await context.params;
  const readOnly = refuseReadOnly(actor);
  if (readOnly) return readOnly;
  const expected = expectedVersionOf(request);
  if (typeof expected === "object") return expected.problem;
  const version = versionParam(params.version);
  const chart = params.id.length <= 200 ? await store.getChart(params.id) : null;
  if (!chart) return problem(404, "No chart has this id.");
  const kept = version === null ? null : await store.getVersion("chart", chart.id, version);
  if (!kept || version === null) return problem(404, "This chart has no such version kept.");
  try {
    const restored = await store.restoreChartVersion(
      chart.id,
      expected === "*" ? chart.version : expected,
      version,
      actor,
    );
    await expireContentNow();
    const dataset = (await store.listDatasetSlugs()).find(
      (entry) => entry.id === restored.datasetId,
    );
    return apiJson(chartAnswerOf(restored, dataset?.slug ?? ""), {
      etag: etagOf(restored.version),
    });
  } catch (error) {
    return storeProblem(error, "chart");
  }
});

export const GET = () => apiMethodNotAllowed(["POST"]);
