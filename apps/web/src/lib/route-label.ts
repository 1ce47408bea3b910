/**
 * The app's route table: every page, route handler and metadata file under src/app, as Next.js
 * spells the pattern. `route-label.test.ts` walks src/app and fails when this list and the folder
 * differ, so the folder stays the one home of the routes and this is its index.
 */
export const appRoutes = [
  "/",
  "/admin",
  "/admin/account",
  "/admin/alerts",
  "/admin/alerts/[id]",
  "/admin/alerts/new",
  "/admin/api/audit",
  "/admin/api/audit/export",
  "/admin/api/charts/preview",
  "/admin/api/dashboards/[slug]/file",
  "/admin/api/sql",
  "/admin/api/users",
  "/admin/audit",
  "/admin/charts",
  "/admin/charts/[id]",
  "/admin/charts/[id]/history",
  "/admin/charts/new",
  "/admin/collections",
  "/admin/collections/[id]",
  "/admin/dashboards",
  "/admin/dashboards/[id]",
  "/admin/dashboards/[id]/history",
  "/admin/dashboards/new",
  "/admin/datasets",
  "/admin/datasets/[id]",
  "/admin/datasets/new",
  "/admin/preview/[slug]",
  "/admin/reports",
  "/admin/reports/[id]",
  "/admin/reports/new",
  "/admin/sources",
  "/admin/sources/[id]",
  "/admin/sources/new",
  "/admin/sql",
  "/admin/tokens",
  "/admin/users",
  "/admin/users/groups/[id]",
  "/api/auth/[...all]",
  "/api/datasets/[id]/rows",
  "/api/datasets/import",
  "/api/datasets/import/preview",
  "/api/health",
  "/api/metrics",
  "/api/ready",
  "/api/v1/charts",
  "/api/v1/charts/[id]",
  "/api/v1/charts/[id]/history",
  "/api/v1/charts/[id]/history/[version]",
  "/api/v1/charts/[id]/history/[version]/restore",
  "/api/v1/charts/[id]/results",
  "/api/v1/dashboards",
  "/api/v1/dashboards/[slug]",
  "/api/v1/dashboards/[slug]/history",
  "/api/v1/dashboards/[slug]/history/[version]",
  "/api/v1/dashboards/[slug]/history/[version]/restore",
  "/api/v1/datasets",
  "/api/v1/datasets/[slug]",
  "/api/v1/datasets/[slug]/query",
  "/api/v1/datasets/[slug]/rows",
  "/api/v1/openapi.json",
  "/api/v1/schemas/dashboard-file.json",
  "/d/[slug]",
  "/d/[slug]/f/[filters]",
  "/docs/api",
  "/e2e-error",
  "/embed/c/[id]",
  "/embed/d/[slug]",
  "/embed/d/[slug]/f/[filters]",
  "/embed/signed/c/[id]",
  "/embed/signed/d/[id]",
  "/icon.svg",
  "/login",
  "/login/two-factor",
  "/setup",
  "/unsubscribe/[token]",
] as const;

/** The label of every path the table does not match: one series however many such paths come. */
export const unmatchedRoute = "(unmatched)";
/** Next.js's own assets (/_next/static, /_next/image, ...), one label. */
export const nextAssetsRoute = "/_next";

const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

interface CompiledRoute {
  label: string;
  segments: readonly string[];
  /** Static segments count first, as Next.js prefers `/admin/charts/new` to `/admin/charts/[id]`. */
  staticCount: number;
}

/** `[id]` → `:id`, `[...all]` → `:all*`: the label names the parameter, never its value. */
function labelOf(pattern: string): string {
  return pattern.replace(/\[\.\.\.([^\]]+)\]/g, ":$1*").replace(/\[([^\]]+)\]/g, ":$1");
}

const compiled: CompiledRoute[] = appRoutes.map((pattern) => {
  const segments = pattern.split("/").filter(Boolean);
  return {
    label: labelOf(pattern),
    segments,
    staticCount: segments.filter((segment) => !segment.startsWith("[")).length,
  };
});

function matches(route: CompiledRoute, parts: readonly string[]): boolean {
  const last = route.segments[route.segments.length - 1];
  const catchAll = last?.startsWith("[...") ?? false;
  if (catchAll ? parts.length < route.segments.length : parts.length !== route.segments.length) {
    return false;
  }
  return route.segments.every((segment, index) => {
    if (segment.startsWith("[")) return true;
    return parts[index] === segment;
  });
}

/**
 * A metrics and log label for a request path, taken from the route table only: a route's pattern
 * (`/d/:slug`), `/_next` for Next's assets, or one `(unmatched)` label for everything else. No
 * part of the path itself ever becomes a label, so the number of series is bounded by the table.
 */
export function routeLabel(pathname: string): string {
  if (pathname === "/_next" || pathname.startsWith("/_next/")) return nextAssetsRoute;
  if (pathname.length > 2048) return unmatchedRoute;
  const parts = pathname.split("/").filter(Boolean);
  let best: CompiledRoute | undefined;
  for (const route of compiled) {
    if (!matches(route, parts)) continue;
    if (!best || route.staticCount > best.staticCount) best = route;
  }
  return best?.label ?? unmatchedRoute;
}

/** The method label: the HTTP methods the app answers, and `OTHER` for any other token. */
export function methodLabel(method: string | undefined): string {
  const upper = (method ?? "GET").toUpperCase();
  return knownMethods.has(upper) ? upper : "OTHER";
}

/** The status label: a three-digit code, or `other`. */
export function statusLabel(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : "other";
}
