import { methodNotAllowed } from "@/lib/http-status";
import { problem, withApiToken } from "@/server/api-v1";

export const dynamic = "force-dynamic";

const maxLimit = 100;

/**
 * The dashboards (drafts too), by slug, a page at a time: `limit` (1-100, default 50) and the
 * `cursor` a page's `nextCursor` gives (null on the last page).
 */
export const GET = withApiToken(async (request, { actor, store }) => {
  const params = new URL(request.url).searchParams;
  const limitText = params.get("limit") ?? "50";
  const limit = Number(limitText);
  if (!/^\d{1,3}$/.test(limitText) || limit < 1 || limit > maxLimit) {
    return problem(400, `limit must be a whole number from 1 to ${maxLimit}.`, {
      errors: [{ path: "limit", message: `Use 1 to ${maxLimit}.` }],
    });
  }
  const cursor = params.get("cursor");
  let after = "";
  if (cursor !== null) {
    after = Buffer.from(cursor, "base64url").toString("utf8");
    if (cursor.length > 200 || !/^[a-z0-9-]+$/.test(after)) {
      return problem(400, "cursor is not one this API gave.", {
        errors: [{ path: "cursor", message: "Use the nextCursor of the page before." }],
      });
    }
  }
  // Reading needs content.read, which every role has; the store asks it of file exports.
  void actor;
  const all = (await store.listDashboards())
    .map((dashboard) => ({
      slug: dashboard.slug,
      title: dashboard.title,
      status: dashboard.status,
      version: dashboard.version,
      updatedAt: dashboard.lastUpdatedAt,
      managedFile: dashboard.managedFile,
    }))
    .sort((a, b) => (a.slug < b.slug ? -1 : 1))
    .filter((dashboard) => dashboard.slug > after);
  const items = all.slice(0, limit);
  const last = items.at(-1);
  const nextCursor =
    all.length > limit && last ? Buffer.from(last.slug, "utf8").toString("base64url") : null;
  return Response.json({ items, nextCursor }, { headers: { "Cache-Control": "no-store" } });
});

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
