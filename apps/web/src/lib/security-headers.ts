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

const sharedDirectives = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  // Closed until embeds exist.
  "frame-ancestors 'none'",
];

/**
 * Per-request pages: only scripts carrying this response's nonce run, and what they load
 * ('strict-dynamic'); no 'unsafe-inline'. Next reads the nonce from this header on the request.
 */
export function nonceContentSecurityPolicy(nonce: string): string {
  const script = `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDev ? " 'unsafe-eval'" : ""}`;
  return [script, ...sharedDirectives].join("; ");
}

/**
 * Cached public pages are the same bytes for every visitor, so they cannot carry a per-request
 * nonce: Next's inline bootstrap scripts need 'unsafe-inline' there (trade-off in SECURITY.md).
 */
export const publicContentSecurityPolicy = [
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  ...sharedDirectives,
].join("; ");

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
