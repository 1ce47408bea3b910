import type { ChartSummaryAnswer } from "@/lib/api-v1-schemas";
import { apiJson, apiMethodNotAllowed, pageOf, readPage, withApiToken } from "@/server/api-v1";

export const dynamic = "force-dynamic";

/** The charts by id, each with its dataset's slug, a page at a time. */
export const GET = withApiToken(async (request, { actor, store }) => {
  const page = readPage(request, { fallback: 50, max: 100, key: /^[A-Za-z0-9_-]{1,200}$/ });
  if ("problem" in page) return page.problem;
  const [charts, slugs] = await Promise.all([
    store.listCharts({ seenBy: actor }),
    store.listDatasetSlugs(),
  ]);
  const slugOf = new Map(slugs.map(({ id, slug }) => [id, slug]));
  const items = charts.flatMap((chart): ChartSummaryAnswer[] => {
    const dataset = slugOf.get(chart.datasetId);
    if (dataset === undefined) return [];
    const { id, title, type, version, updatedAt } = chart;
    return [{ id, title, type, dataset, version, updatedAt }];
  });
  return apiJson(pageOf(items, (item) => item.id, page));
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
