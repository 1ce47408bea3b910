import { dashboardFileLimits } from "@seed/model";
import { readBodyCapped } from "@/lib/request-body";
import {
  apiJson,
  apiMethodNotAllowed,
  etagOf,
  expectedVersionOf,
  notFound,
  notModified,
  problem,
  readFileBody,
  refuseReadOnly,
  storeProblem,
  withApiToken,
} from "@/server/api-v1";
import { publicOrigin } from "@/server/public-origin";
import { expireContentNow } from "@/server/revalidate";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string }> };

/**
 * A dashboard as its file: JSON by default, YAML (the file's own text) for
 * `Accept: application/yaml`. Its version is the ETag.
 */
export const GET = withApiToken<Context>(async (request, { actor, store }, context) => {
  const { slug } = await context.params;
  try {
    const exported = await store.exportDashboardFile(slug, actor, {
      schemaUrl: `${await publicOrigin()}/api/v1/schemas/dashboard-file.json`,
    });
    if (!exported) return notFound("dashboard", slug);
    const etag = etagOf(exported.version);
    const headers = { ETag: etag, "Cache-Control": "no-store" };
    const unchanged = notModified(request, etag);
    if (unchanged) return unchanged;
    if (/\b(application|text)\/(x-)?yaml\b/.test(request.headers.get("accept") ?? "")) {
      return new Response(exported.text, {
        headers: { ...headers, "Content-Type": "application/yaml; charset=utf-8" },
      });
    }
    return Response.json(exported.file, { headers });
  } catch (error) {
    return storeProblem(error);
  }
});

/**
 * Creates or replaces a dashboard from its file (YAML or JSON body): one new version, or none
 * when nothing changed. With If-Match (the ETag of a GET), a dashboard changed since is a 412
 * and nothing is written.
 */
export const PUT = withApiToken<Context>(async (request, { actor, store }, context) => {
  const { slug } = await context.params;
  const readOnly = await refuseReadOnly(actor, request, store);
  if (readOnly) return readOnly;
  const type = request.headers.get("content-type") ?? "";
  if (!/^(application\/(json|yaml|x-yaml)|text\/(yaml|x-yaml|plain))\b/.test(type)) {
    return problem(415, "Send the file as application/yaml or application/json.");
  }
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > dashboardFileLimits.maxBytes) {
    return problem(413, `A dashboard file is at most ${dashboardFileLimits.maxBytes} bytes.`);
  }
  // Read no further than the limit, whatever Content-Length said (or if it said nothing).
  const text = await readBodyCapped(request, dashboardFileLimits.maxBytes + 1);
  if (text === null) {
    return problem(413, `A dashboard file is at most ${dashboardFileLimits.maxBytes} bytes.`);
  }
  const expected = expectedVersionOf(request);
  if (typeof expected === "object") return expected.problem;
  try {
    const file = readFileBody(text, slug);
    if ("problem" in file) return file.problem;
    const imported = await store.importDashboardFile(file.value, actor, {
      ...(expected === "*" ? {} : { expectedVersion: expected }),
    });
    if (imported.outcome !== "unchanged") await expireContentNow();
    return apiJson(
      {
        outcome: imported.outcome,
        slug: imported.dashboard.slug,
        version: imported.dashboard.version,
      },
      {
        status: imported.outcome === "created" ? 201 : 200,
        etag: etagOf(imported.dashboard.version),
      },
    );
  } catch (error) {
    return storeProblem(error);
  }
});

/**
 * Deletes a dashboard (its charts stay). With If-Match, a dashboard changed since is a 412 and
 * nothing is deleted; a dashboard kept from a file is refused (take the file away instead).
 */
export const DELETE = withApiToken<Context>(async (request, { actor, store }, context) => {
  const { slug } = await context.params;
  const readOnly = await refuseReadOnly(actor, request, store);
  if (readOnly) return readOnly;
  const expected = expectedVersionOf(request);
  if (typeof expected === "object") return expected.problem;
  const dashboard = (await store.listDashboards({ seenBy: actor })).find(
    (entry) => entry.slug === slug,
  );
  if (!dashboard) return notFound("dashboard", slug);
  try {
    await store.deleteDashboard(
      dashboard.id,
      expected === "*" ? dashboard.version : expected,
      actor,
    );
    await expireContentNow();
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return storeProblem(error);
  }
});

export const POST = () => apiMethodNotAllowed(["GET", "HEAD", "PUT", "DELETE"]);
