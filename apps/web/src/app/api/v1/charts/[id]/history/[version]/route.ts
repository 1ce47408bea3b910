import { apiJson, apiMethodNotAllowed, problem, versionParam, withApiToken } from "@/server/api-v1";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; version: string }> };

/** One saved version of a chart: who, when, what made it, and what it was (its snapshot). */
export const GET = withApiToken<Context>(async (_request, { store }, context) => {
  const params = await context.params;
  const version = versionParam(params.version);
  const chart = params.id.length <= 200 ? await store.getChart(params.id) : null;
  if (!chart) return problem(404, "No chart has this id.");
  const kept = version === null ? null : await store.getVersion("chart", chart.id, version);
  if (!kept) return problem(404, "This chart has no such version kept.");
  return apiJson(kept);
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
