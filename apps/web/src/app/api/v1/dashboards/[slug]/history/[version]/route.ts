import { apiJson, apiMethodNotAllowed, problem, versionParam, withApiToken } from "@/server/api-v1";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string; version: string }> };

/** One saved version of a dashboard: who, when, what made it, and what it was (its snapshot). */
export const GET = withApiToken<Context>(async (_request, { store }, context) => {
  const params = await context.params;
  const version = versionParam(params.version);
  const dashboard = (await store.listDashboards()).find((entry) => entry.slug === params.slug);
  if (!dashboard) return problem(404, `No dashboard has the slug "${params.slug.slice(0, 80)}".`);
  const kept = version === null ? null : await store.getVersion("dashboard", dashboard.id, version);
  if (!kept) return problem(404, "This dashboard has no such version kept.");
  return apiJson(kept);
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
