import {
  apiJson,
  apiMethodNotAllowed,
  etagOf,
  expectedVersionOf,
  problem,
  refuseReadOnly,
  storeProblem,
  versionParam,
  withApiToken,
} from "@/server/api-v1";
import { expireContentNow } from "@/server/revalidate";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string; version: string }> };

/**
 * Restores a dashboard to a kept version: its fields and tiles as they were, saved as one new
 * version (its status stays). With If-Match, a dashboard changed since is a 412.
 */
export const POST = withApiToken<Context>(async (request, { actor, store }, context) => {
  const params = await context.params;
  const readOnly = refuseReadOnly(actor);
  if (readOnly) return readOnly;
  const expected = expectedVersionOf(request);
  if (typeof expected === "object") return expected.problem;
  const version = versionParam(params.version);
  const dashboard = (await store.listDashboards()).find((entry) => entry.slug === params.slug);
  if (!dashboard) return problem(404, `No dashboard has the slug "${params.slug.slice(0, 80)}".`);
  const kept = version === null ? null : await store.getVersion("dashboard", dashboard.id, version);
  if (!kept || version === null) return problem(404, "This dashboard has no such version kept.");
  try {
    const restored = await store.restoreDashboardVersion(
      dashboard.id,
      expected === "*" ? dashboard.version : expected,
      version,
      actor,
    );
    await expireContentNow();
    return apiJson(
      { outcome: "updated", slug: restored.slug, version: restored.version },
      { etag: etagOf(restored.version) },
    );
  } catch (error) {
    return storeProblem(error);
  }
});

export const GET = () => apiMethodNotAllowed(["POST"]);
