import type { DatasetRowsPageAnswer } from "@/lib/api-v1-schemas";
import {
  apiJson,
  apiMethodNotAllowed,
  cursorAfter,
  datasetBySlug,
  etagOf,
  notFound,
  problem,
  readPage,
  withApiToken,
} from "@/server/api-v1";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string }> };

/**
 * A dataset's rows in their kept order, keyed by column name, a page at a time. Every page is of
 * the version the first one was: a cursor of an older version is a 409, never a page that skips
 * or repeats rows.
 */
export const GET = withApiToken<Context>(async (request, { actor, store }, context) => {
  const { slug } = await context.params;
  const page = readPage(request, { fallback: 100, max: 1000, key: /^\d{1,9}:\d{1,9}$/ });
  if ("problem" in page) return page.problem;
  const found = await datasetBySlug(store, slug, actor);
  if (!found) return notFound("dataset", slug);
  const { dataset } = found;
  if (dataset.live || dataset.question) {
    const where = dataset.live ? "in its live source" : "as a SQL question's answer";
    return problem(
      409,
      `This dataset's rows are not kept here but ${where}; run a query over it (POST /datasets/${found.slug}/query).`,
    );
  }
  let offset = 0;
  if (page.after !== null) {
    const [version, from] = page.after.split(":").map(Number) as [number, number];
    if (version !== dataset.version) {
      return problem(
        409,
        `The dataset changed since the first page (it is version ${dataset.version} now); start again without a cursor.`,
      );
    }
    offset = from;
  }
  const rows = await store.listDatasetRows(
    dataset.id,
    { limit: page.limit, offset },
    { seenBy: actor },
  );
  if (!rows) return notFound("dataset", slug);
  const next = offset + rows.rows.length;
  const answer: DatasetRowsPageAnswer = {
    columns: dataset.columns.map(({ name, type }) => ({ name, type })),
    rows: rows.rows.map((entry) => entry.row),
    total: rows.total,
    version: dataset.version,
    nextCursor:
      rows.rows.length > 0 && next < rows.total ? cursorAfter(`${dataset.version}:${next}`) : null,
  };
  return apiJson(answer, { etag: etagOf(dataset.version) });
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);
