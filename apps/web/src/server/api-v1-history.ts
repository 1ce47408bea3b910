import "server-only";
import type { Actor, Store } from "@seed/store";
import {
  apiJson,
  chartAnswerOf,
  etagOf,
  expectedVersionOf,
  notFound,
  problem,
  readPage,
  refuseReadOnly,
  storeProblem,
  versionParam,
  versionsPage,
  withApiToken,
} from "./api-v1";
import { expireContentNow } from "./revalidate";

// /api/v1's history of dashboards (by slug) and charts (by id), one set of handlers for both:
// the kept versions a page at a time, one version with its snapshot, and a restore.

type Kind = "dashboard" | "chart";

/** The entity an address names: its id and version, or the 404 to send. */
async function find(
  kind: Kind,
  store: Store,
  key: string,
  actor: Actor,
): Promise<{ id: string; version: number } | { problem: Response }> {
  // Only what the token's account sees (its groups' collections): anything else is a 404.
  const seen = { seenBy: actor };
  if (kind === "dashboard") {
    const dashboard = (await store.listDashboards(seen)).find((entry) => entry.slug === key);
    if (dashboard) return dashboard;
    return { problem: notFound("dashboard", key) };
  }
  const chart = key.length <= 200 ? await store.getChart(key, seen) : null;
  return chart ?? { problem: notFound("chart") };
}

/** The restore of a kept version, answered as the entity's own write answers. */
async function restore(
  kind: Kind,
  store: Store,
  id: string,
  from: number,
  expected: number,
  actor: Actor,
) {
  if (kind === "dashboard") {
    const restored = await store.restoreDashboardVersion(id, expected, from, actor);
    const body = { outcome: "updated", slug: restored.slug, version: restored.version };
    return { body, version: restored.version };
  }
  const restored = await store.restoreChartVersion(id, expected, from, actor);
  const slugs = await store.listDatasetSlugs();
  return { body: chartAnswerOf(restored, slugs), version: restored.version };
}

type KeyContext = { params: Promise<Record<string, string>> };

/** The handlers of `/<kind>s/{key}/history`, `/history/{version}` and `/history/{version}/restore`. */
export function historyRoutes(kind: Kind, keyName: "slug" | "id") {
  return {
    /** Every kept version, newest first: who made it, when, and by what change. */
    list: withApiToken<KeyContext>(async (request, { actor, store }, context) => {
      const page = readPage(request, { fallback: 50, max: 200, key: /^\d{1,9}$/ });
      if ("problem" in page) return page.problem;
      const found = await find(kind, store, (await context.params)[keyName] ?? "", actor);
      if ("problem" in found) return found.problem;
      return apiJson(versionsPage(await store.listVersions(kind, found.id, 1000), page));
    }),

    /** One kept version: who, when, what made it, and what it was (its snapshot). */
    one: withApiToken<KeyContext>(async (_request, { actor, store }, context) => {
      const params = await context.params;
      const found = await find(kind, store, params[keyName] ?? "", actor);
      if ("problem" in found) return found.problem;
      const version = versionParam(params.version ?? "");
      const kept = version === null ? null : await store.getVersion(kind, found.id, version);
      return kept ? apiJson(kept) : problem(404, `This ${kind} has no such version kept.`);
    }),

    /**
     * Restores a kept version, saved as one new version. With If-Match, one changed since is a
     * 412; one kept from a dashboard file is refused (422).
     */
    restore: withApiToken<KeyContext>(async (request, { actor, store }, context) => {
      const params = await context.params;
      const readOnly = await refuseReadOnly(actor, request, store);
      if (readOnly) return readOnly;
      const expected = expectedVersionOf(request);
      if (typeof expected === "object") return expected.problem;
      const found = await find(kind, store, params[keyName] ?? "", actor);
      if ("problem" in found) return found.problem;
      const version = versionParam(params.version ?? "");
      const kept = version === null ? null : await store.getVersion(kind, found.id, version);
      if (!kept) return problem(404, `This ${kind} has no such version kept.`);
      try {
        const from = kept.version;
        const current = expected === "*" ? found.version : expected;
        const done = await restore(kind, store, found.id, from, current, actor);
        await expireContentNow();
        return apiJson(done.body, { etag: etagOf(done.version) });
      } catch (error) {
        return storeProblem(error, kind);
      }
    }),
  };
}
