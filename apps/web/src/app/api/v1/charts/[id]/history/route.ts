import {
  apiJson,
  apiMethodNotAllowed,
  problem,
  readPage,
  versionsPage,
  withApiToken,
} from "@/server/api-v1";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** Every saved version of a chart, newest first: who made it, when, and by what change. */
export const GET = withApiToken<Context>(async (request, { store }, context) => {
  const { id } = await context.params;
  const page = readPage(request, { fallback: 50, max: 200, key: /^\d{1,9}$/ });
  if ("problem" in page) return page.problem;
  const chart = id.length <= 200 ? await store.getChart(id) : null;
  if (!chart) return problem(404, "No chart has this id.");
  return apiJson(versionsPage(await store.listVersions("chart", chart.id, 1000), page));
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
