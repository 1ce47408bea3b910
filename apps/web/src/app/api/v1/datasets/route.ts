import {
  apiJson,
  apiMethodNotAllowed,
  datasetSummaryOf,
  pageOf,
  readPage,
  withApiToken,
} from "@/server/api-v1";

export const dynamic = "force-dynamic";

/** The datasets by slug (their SQL table names), with their columns, a page at a time. */
export const GET = withApiToken(async (request, { actor, store }) => {
  const page = readPage(request, { fallback: 50, max: 100, key: /^[a-z0-9_]{1,64}$/ });
  if ("problem" in page) return page.problem;
  const [datasets, slugs] = await Promise.all([
    store.listDatasets({ seenBy: actor }),
    store.listDatasetSlugs(),
  ]);
  const slugOf = new Map(slugs.map(({ id, slug }) => [id, slug]));
  const items = datasets.flatMap((dataset) => {
    const slug = slugOf.get(dataset.id);
    return slug === undefined ? [] : [datasetSummaryOf(dataset, slug)];
  });
  return apiJson(pageOf(items, (item) => item.slug, page));
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
