import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { statusNames } from "@/lib/http-status";
import { loginPath } from "@/lib/safe-next-path";
import {
  isAdminPath,
  isPerRequestPath,
  isServedOverHttps,
  nonceContentSecurityPolicy,
  publicContentSecurityPolicy,
  strictTransportSecurity,
} from "@/lib/security-headers";

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
function adminGate(request: NextRequest, forwarded: Headers): NextResponse {
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
  forwarded.set(requestPathHeader, path);
  const response = NextResponse.next({ request: { headers: forwarded } });
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

/** Every response gets its CSP here; per-request pages get a fresh nonce, /admin its gate. */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  let response: NextResponse;
  let policy = publicContentSecurityPolicy;
  if (isPerRequestPath(pathname)) {
    policy = nonceContentSecurityPolicy(Buffer.from(crypto.randomUUID()).toString("base64"));
    const forwarded = new Headers(request.headers);
    forwarded.set("Content-Security-Policy", policy);
    response = isAdminPath(pathname)
      ? adminGate(request, forwarded)
      : NextResponse.next({ request: { headers: forwarded } });
  } else {
    response = NextResponse.next();
  }
  response.headers.set("Content-Security-Policy", policy);
  const https = isServedOverHttps(
    request.nextUrl.protocol,
    request.headers.get("x-forwarded-proto"),
    process.env.BETTER_AUTH_URL,
  );
  if (https) response.headers.set("Strict-Transport-Security", strictTransportSecurity);
  return response;
}

export const config = {
  // Static chunks and images carry no document, so they need no policy. The streamed upload
  // routes (CSV import, row pushes) are left out too: Next.js copies a request's whole body for
  // the proxy, in memory and cut at 10 MB, which would truncate a 100 MB import. They check the
  // session or token themselves, like every route, and set their own headers.
  matcher: ["/((?!_next/static|_next/image|api/datasets/import$|api/datasets/[^/]+/rows$).*)"],
};
