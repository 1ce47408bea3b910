import { dashboardFileChartSchema, jsonInputLimits, storedChartOptions } from "@seed/model";
import { chartAlreadyIs } from "@seed/store";
import {
  apiJson,
  apiMethodNotAllowed,
  chartAnswerOf,
  etagOf,
  expectedVersionOf,
  notFound,
  notModified,
  problem,
  readJsonBody,
  refuseReadOnly,
  storeProblem,
  withApiToken,
  zodProblem,
} from "@/server/api-v1";
import { expireContentNow } from "@/server/revalidate";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** A chart: its dataset by slug, its query and options; its version is the ETag. */
export const GET = withApiToken<Context>(async (request, { actor, store }, context) => {
  const { id } = await context.params;
  const chart = id.length <= 200 ? await store.getChart(id, { seenBy: actor }) : null;
  if (!chart) return notFound("chart");
  const slugs = await store.listDatasetSlugs();
  if (!slugs.some((entry) => entry.id === chart.datasetId)) return notFound("chart");
  const etag = etagOf(chart.version);
  return notModified(request, etag) ?? apiJson(chartAnswerOf(chart, slugs), { etag });
});

/**
 * Replaces a chart with the one sent (a dashboard file's inline chart: title, type, dataset by
 * slug, query, options): one new version, none when nothing changes. With If-Match, a chart
 * changed since is a 412 and nothing is written. A chart kept from a dashboard file is refused.
 */
export const PUT = withApiToken<Context>(async (request, { actor, store }, context) => {
  const { id } = await context.params;
  const readOnly = await refuseReadOnly(actor, request, store);
  if (readOnly) return readOnly;
  const expected = expectedVersionOf(request);
  if (typeof expected === "object") return expected.problem;
  const body = await readJsonBody(request, jsonInputLimits.chartForm, "The chart");
  if ("problem" in body) return body.problem;
  const parsed = dashboardFileChartSchema.safeParse(body.value);
  if (!parsed.success) return zodProblem(parsed.error.issues, "The chart");
  const chart = id.length <= 200 ? await store.getChart(id, { seenBy: actor }) : null;
  if (!chart) return notFound("chart");
  if (expected !== "*" && expected !== chart.version) {
    return problem(412, "The chart changed since the version you sent in If-Match.");
  }
  const slugs = await store.listDatasetSlugs();
  const idOf = (slug: string) => slugs.find((entry) => entry.slug === slug)?.id;
  const datasetId = idOf(parsed.data.dataset);
  if (datasetId === undefined) {
    const message = `No dataset has the slug "${parsed.data.dataset}".`;
    return problem(422, message, { errors: [{ path: "dataset", message }] });
  }
  const stored = storedChartOptions(parsed.data.options ?? {}, idOf);
  if ("message" in stored) {
    const { message } = stored;
    return problem(422, message, { errors: [{ path: `options.${stored.path}`, message }] });
  }
  const input = {
    title: parsed.data.title,
    type: parsed.data.type,
    datasetId,
    query: parsed.data.query,
    options: stored.options,
  };
  if (chartAlreadyIs(chart, input)) {
    return apiJson(chartAnswerOf(chart, slugs), { etag: etagOf(chart.version) });
  }
  try {
    const updated = await store.updateChart(chart.id, chart.version, input, actor);
    await expireContentNow();
    return apiJson(chartAnswerOf(updated, slugs), { etag: etagOf(updated.version) });
  } catch (error) {
    return storeProblem(error, "chart");
  }
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD", "PUT"]);
