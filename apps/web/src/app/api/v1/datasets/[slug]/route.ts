import type { DatasetAnswer } from "@/lib/api-v1-schemas";
import {
  apiJson,
  apiMethodNotAllowed,
  datasetBySlug,
  datasetSummaryOf,
  etagOf,
  notFound,
  notModified,
  withApiToken,
} from "@/server/api-v1";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string }> };

/**
 * A dataset's metadata by slug: columns, calculated fields, hierarchies, row count; its version is
 * the ETag.
 */
export const GET = withApiToken<Context>(async (request, { actor, store }, context) => {
  const { slug } = await context.params;
  const found = await datasetBySlug(store, slug, actor);
  if (!found) return notFound("dataset", slug);
  const { dataset } = found;
  const etag = etagOf(dataset.version);
  const unchanged = notModified(request, etag);
  if (unchanged) return unchanged;
  const answer: DatasetAnswer = {
    ...datasetSummaryOf(dataset, found.slug),
    calculatedFields: dataset.calculatedFields.map(({ name, expression, type, problem }) => ({
      name,
      expression,
      type,
      problem,
    })),
    hierarchies: dataset.hierarchies,
    createdAt: dataset.createdAt,
  };
  return apiJson(answer, { etag });
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
