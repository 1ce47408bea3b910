import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { statusNames } from "@/lib/http-status";
import { loginPath } from "@/lib/safe-next-path";

// Kept in step with requestPathHeader in src/server/auth.ts (that module is server-only).
const requestPathHeader = "x-seed-request-path";

/** A top-level page load, as opposed to RSC fetches, prefetches, data forms, actions and API calls. */
function isDocumentRequest(request: NextRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const { pathname } = request.nextUrl;
  if (pathname.endsWith(".rsc") || pathname.endsWith(".json")) return false;
  const h = request.headers;
  if (h.has("rsc") || h.has("next-router-prefetch") || h.has("next-router-state-tree"))
    return false;
  if (h.has("next-action") || h.get("purpose") === "prefetch") return false;
  if (pathname.startsWith("/admin/api/")) return false;
  return (h.get("accept") ?? "").includes("text/html");
}

/**
 * Cheap first gate for /admin: no session cookie, no admin content. The cookie is not verified
 * here; requireRole() in every admin page, action and route handler does that.
 */
export function proxy(request: NextRequest) {
  const path = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  if (!getSessionCookie(request)) {
    if (isDocumentRequest(request)) {
      return NextResponse.redirect(new URL(loginPath(path), request.url));
    }
    return NextResponse.json(
      { status: 401, error: statusNames[401], message: "Sign in to use the admin area." },
      { status: 401, headers: { "Cache-Control": "no-store" } },
    );
  }
  // Overwrites whatever a client sent under this name.
  const forwarded = new Headers(request.headers);
  forwarded.set(requestPathHeader, path);
  const response = NextResponse.next({ request: { headers: forwarded } });
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

export const config = {
  matcher: ["/admin", "/admin/:path*"],
};
