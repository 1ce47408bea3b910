import {
  apiJson,
  apiMethodNotAllowed,
  problem,
  readPage,
  versionsPage,
  withApiToken,
} from "@/server/api-v1";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string }> };

/** Every saved version of a dashboard, newest first: who made it, when, and by what change. */
export const GET = withApiToken<Context>(async (request, { store }, context) => {
  const { slug } = await context.params;
  const page = readPage(request, { fallback: 50, max: 200, key: /^\d{1,9}$/ });
  if ("problem" in page) return page.problem;
  const dashboard = (await store.listDashboards()).find((entry) => entry.slug === slug);
  if (!dashboard) return problem(404, `No dashboard has the slug "${slug.slice(0, 80)}".`);
  return apiJson(versionsPage(await store.listVersions("dashboard", dashboard.id, 1000), page));
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
