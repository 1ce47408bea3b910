// One home for the Content-Security-Policy and HSTS rules; proxy.ts applies them to every response.

const isDev = process.env.NODE_ENV !== "production";

/** Paths rendered per request, so their HTML can carry a fresh script nonce. */
export function isPerRequestPath(pathname: string): boolean {
  return /^\/(?:admin|login|setup)(?:\/|$)/.test(decodedPath(pathname));
}

/** The path as the router may read it: percent-escapes decoded ("/%61dmin" is "/admin"). */
export function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** True for /admin at any depth, in any escaped spelling. */
export function isAdminPath(pathname: string): boolean {
  return /^\/admin(?:\/|$)/.test(decodedPath(pathname));
}

/** An embed of a dashboard or chart, as the proxy reads its path (signed forms are rewrites). */
export interface EmbedPath {
  kind: "dashboard" | "chart";
  key: string;
  /** The internal path of the signed render: only the proxy's rewrite may reach it. */
  signedRoute: boolean;
}

/**
 * /embed/d/<slug> and /embed/c/<id> (also their .rsc forms), or the internal /embed/signed/...
 * rewrite targets; null for anything else, which then keeps frame-ancestors 'none'.
 */
export function embedPath(pathname: string): EmbedPath | null {
  const match = /^\/embed\/(signed\/)?(d|c)\/([^/]+?)(?:\.rsc)?$/.exec(decodedPath(pathname));
  if (!match?.[2] || !match[3]) return null;
  return {
    kind: match[2] === "d" ? "dashboard" : "chart",
    key: match[3],
    signedRoute: match[1] !== undefined,
  };
}

/** True for anything under /embed: its responses carry no X-Frame-Options (next.config.ts). */
export function isEmbedArea(pathname: string): boolean {
  return /^\/embed(?:\/|$)/.test(decodedPath(pathname));
}

/**
 * The frame-ancestors directive for an allowlist the store checked (origins only, no spaces,
 * quotes or `;`); each is checked again here, and an empty list keeps every framer out.
 */
export function frameAncestors(origins: readonly string[]): string {
  const safe = origins.filter((origin) => /^https?:\/\/[a-z0-9.*:-]+$/.test(origin));
  return `frame-ancestors ${safe.length > 0 ? safe.join(" ") : "'none'"}`;
}

const closedFrameAncestors = frameAncestors([]);

const sharedDirectives = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
];

/**
 * Per-request pages: only scripts carrying this response's nonce run, and what they load
 * ('strict-dynamic'); no 'unsafe-inline'. Next reads the nonce from this header on the request.
 */
export function nonceContentSecurityPolicy(
  nonce: string,
  framing: string = closedFrameAncestors,
): string {
  const script = `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDev ? " 'unsafe-eval'" : ""}`;
  return [script, ...sharedDirectives, framing].join("; ");
}

/**
 * Cached public pages are the same bytes for every visitor, so they cannot carry a per-request
 * nonce: Next's inline bootstrap scripts need 'unsafe-inline' there (trade-off in SECURITY.md).
 */
export function publicContentSecurityPolicyFor(framing: string = closedFrameAncestors): string {
  return [
    `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
    ...sharedDirectives,
    framing,
  ].join("; ");
}

/** Every cached page but embeds: nothing may frame it. */
export const publicContentSecurityPolicy = publicContentSecurityPolicyFor();

export const strictTransportSecurity = "max-age=63072000; includeSubDomains";

/**
 * HSTS only over https: the request's own scheme, the scheme a proxy in front reports, or the
 * configured public URL. Browsers ignore HSTS over http, so a forged header gains nothing.
 */
export function isServedOverHttps(
  protocol: string,
  forwardedProto: string | null,
  configuredURL: string | undefined,
): boolean {
  if (protocol === "https:") return true;
  if (forwardedProto?.split(",")[0]?.trim().toLowerCase() === "https") return true;
  return configuredURL?.startsWith("https://") ?? false;
}
