import type { DashboardSummaryAnswer } from "@/lib/api-v1-schemas";
import { apiJson, apiMethodNotAllowed, pageOf, readPage, withApiToken } from "@/server/api-v1";

export const dynamic = "force-dynamic";

/**
 * The dashboards (drafts too), by slug, a page at a time: `limit` (1-100, default 50) and the
 * `cursor` a page's `nextCursor` gives (null on the last page). Every role may read them.
 */
export const GET = withApiToken(async (request, { actor, store }) => {
  const page = readPage(request, { fallback: 50, max: 100, key: /^[a-z0-9-]{1,64}$/ });
  if ("problem" in page) return page.problem;
  const items = (await store.listDashboards({ seenBy: actor })).map(
    (dashboard): DashboardSummaryAnswer => ({
      slug: dashboard.slug,
      title: dashboard.title,
      status: dashboard.status,
      version: dashboard.version,
      updatedAt: dashboard.lastUpdatedAt,
      managedFile: dashboard.managedFile,
    }),
  );
  return apiJson(pageOf(items, (item) => item.slug, page));
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
