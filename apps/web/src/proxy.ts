import type { EmbedAccess, EmbedTarget } from "@seed/store";
import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { canonicalQueryOf, filterablePath, filterSegmentOf } from "@/lib/filter-link";
import { statusNames } from "@/lib/http-status";
import { loginPath } from "@/lib/safe-next-path";
import { isSameOriginRequest } from "@/lib/same-origin.mjs";
import {
  decodedPath,
  type EmbedPath,
  embedPath,
  frameAncestors,
  isAdminPath,
  isPerRequestPath,
  isServedOverHttps,
  nonceContentSecurityPolicy,
  publicContentSecurityPolicy,
  publicContentSecurityPolicyFor,
  strictTransportSecurity,
} from "@/lib/security-headers";
import { embedPathOf, verifySignedEmbed } from "@/server/embed-links";
import { processStore } from "@/server/process-store.mjs";

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
 * here; requirePermission() in every admin page, action and route handler does that.
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

/**
 * A dashboard link with filters (/d/<slug>?range=…&region=…, the same under /embed/d) is
 * rewritten to its cached route /d/<slug>/f/<canonical filters>: any order or spelling of the
 * same filters is one cache entry. Null when there is nothing to rewrite.
 */
function filteredDashboardRewrite(request: NextRequest): NextResponse | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const { pathname, searchParams } = request.nextUrl;
  const suffix = pathname.endsWith(".rsc") ? ".rsc" : "";
  const base = filterablePath(suffix ? pathname.slice(0, -suffix.length) : pathname);
  if (!base) return null;
  const canonical = canonicalQueryOf(searchParams);
  const own = [...searchParams].filter(([name]) => name.startsWith("_"));
  const asked = new URLSearchParams([...searchParams].filter(([name]) => !name.startsWith("_")));
  // A page load with a non-canonical query (a submitted form's blank fields, another order)
  // moves to the canonical address, so the address bar holds the short link to share.
  if (asked.toString() !== canonical && own.length === 0 && !request.headers.has("rsc")) {
    const canonicalUrl = request.nextUrl.clone();
    canonicalUrl.search = canonical;
    return NextResponse.redirect(canonicalUrl, 303);
  }
  if (canonical === "") return null;
  const target = request.nextUrl.clone();
  target.pathname = `${base}/f/${filterSegmentOf(canonical)}${suffix}`;
  // Only Next.js's own parameters (_rsc) go along; the filters are in the path now.
  target.search = new URLSearchParams(own).toString();
  return NextResponse.rewrite(target);
}

function freshNonce(): string {
  return Buffer.from(crypto.randomUUID()).toString("base64");
}

/** A short plain-text refusal that no page may frame. */
function plainRefusal(status: 403 | 404, message: string): NextResponse {
  return new NextResponse(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** The embed's access (origins that may frame it, a dashboard's slug), or null when there is none. */
async function embedAccess(
  target: EmbedTarget,
  includeDrafts: boolean,
): Promise<EmbedAccess | null | "unknown"> {
  try {
    const store = await processStore();
    return await store.getEmbedAccess(target, { includeDrafts });
  } catch {
    return "unknown";
  }
}

/** The origins that may frame this embed; none when the store cannot say (closed, not open). */
function originsOf(access: EmbedAccess | null | "unknown"): string[] {
  return access && access !== "unknown" ? access.embedOrigins : [];
}

/**
 * /embed/d/<slug> and /embed/c/<id>. Unsigned: the cached public render, framed by the
 * allowlist read here per request. Signed (?exp&sig, and a dashboard's ?id): verified here over
 * the record's id, then rewritten to the per-request render /embed/signed/d/<id> or
 * /embed/signed/c/<id> (nonce CSP, never stored in a shared cache); a bad or expired link gets a
 * plain 403, a link to a deleted record a plain 404, and a renamed dashboard's link moves to its
 * current slug. The /embed/signed paths themselves are not reachable directly.
 */
async function embedGate(
  request: NextRequest,
  embed: EmbedPath,
): Promise<{ response: NextResponse; policy: string }> {
  const closed = publicContentSecurityPolicy;
  if (embed.signedRoute) return { response: plainRefusal(404, "Not found."), policy: closed };
  const { searchParams, pathname } = request.nextUrl;
  if (!searchParams.has("sig") && !searchParams.has("exp") && !searchParams.has("id")) {
    const target: EmbedTarget =
      embed.kind === "dashboard"
        ? { kind: "dashboard", slug: embed.key }
        : { kind: "chart", id: embed.key };
    const framing = frameAncestors(originsOf(await embedAccess(target, false)));
    return {
      response: filteredDashboardRewrite(request) ?? NextResponse.next(),
      policy: publicContentSecurityPolicyFor(framing),
    };
  }
  const id = embed.kind === "dashboard" ? (searchParams.get("id") ?? "") : embed.key;
  const verdict = verifySignedEmbed(
    { kind: embed.kind, id },
    { exp: searchParams.get("exp"), sig: searchParams.get("sig") },
  );
  if (verdict !== "valid") {
    const message =
      verdict === "expired" ? "This embed link has expired." : "This embed link is not valid.";
    return { response: plainRefusal(403, message), policy: closed };
  }
  const access = await embedAccess({ kind: embed.kind, id }, true);
  if (access === null) {
    return { response: plainRefusal(404, "This embed no longer exists."), policy: closed };
  }
  const suffix = decodedPath(pathname).endsWith(".rsc") ? ".rsc" : "";
  if (access !== "unknown" && access.slug !== null && access.slug !== embed.key && suffix === "") {
    // Renamed since the link was made: the same link, under the dashboard's current address.
    const moved = request.nextUrl.clone();
    moved.pathname = embedPathOf("dashboard", access.slug);
    return { response: NextResponse.redirect(moved, 307), policy: closed };
  }
  const policy = nonceContentSecurityPolicy(freshNonce(), frameAncestors(originsOf(access)));
  const forwarded = new Headers(request.headers);
  forwarded.set("Content-Security-Policy", policy);
  const target = request.nextUrl.clone();
  target.pathname = `/embed/signed/${embed.kind === "dashboard" ? "d" : "c"}/${encodeURIComponent(id)}${suffix}`;
  const response = NextResponse.rewrite(target, { request: { headers: forwarded } });
  response.headers.set("Cache-Control", "private, no-store");
  return { response, policy };
}

/**
 * A state-changing request whose browser says it comes from another origin: any method but
 * GET, HEAD and OPTIONS with an Origin header (a foreign one, or "null") that the same-origin rule
 * (src/lib/same-origin.mjs) refuses. Server actions among them would otherwise reach Next's own
 * check, which throws (a 500); every such request gets a plain 403 here instead. Requests without
 * an Origin header are not browsers' cross-site requests and go on (the import route, outside
 * this proxy, refuses those too).
 */
function isCrossOriginWrite(request: NextRequest): boolean {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return false;
  if (!request.headers.has("origin")) return false;
  return !isSameOriginRequest(request.headers);
}

/** Every response gets its CSP here; per-request pages get a fresh nonce, /admin its gate. */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  let response: NextResponse;
  let policy = publicContentSecurityPolicy;
  if (isCrossOriginWrite(request)) {
    response = plainRefusal(403, "Requests that change something come from this site's own pages.");
    response.headers.set("Content-Security-Policy", policy);
    return response;
  }
  const embed = embedPath(pathname);
  // Framing opens only for the plain spelling of an embed path; an escaped one stays closed
  // (still with the 404 for the internal signed paths).
  if (embed && (embed.signedRoute || pathname === decodedPath(pathname))) {
    ({ response, policy } = await embedGate(request, embed));
  } else if (isPerRequestPath(pathname)) {
    policy = nonceContentSecurityPolicy(freshNonce());
    const forwarded = new Headers(request.headers);
    forwarded.set("Content-Security-Policy", policy);
    response = isAdminPath(pathname)
      ? adminGate(request, forwarded)
      : NextResponse.next({ request: { headers: forwarded } });
  } else {
    response = filteredDashboardRewrite(request) ?? NextResponse.next();
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
