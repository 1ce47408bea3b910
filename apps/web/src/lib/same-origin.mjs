// @ts-check
// One home for the same-origin rule and the app's public address. Plain ESM with no imports, so
// the proxy, route handlers, server actions, auth-options.mjs (which bare Node also runs, for the
// CLI) and unit tests all read the same code.
//
// The public address is BETTER_AUTH_URL. When it is set, a state-changing request is same-origin
// exactly when its Origin is that origin or one of BETTER_AUTH_TRUSTED_ORIGINS. When it is not (a
// default local start), the public address is the origin the browser itself used: the scheme
// (https only when X-Forwarded-Proto says so, as the HSTS and link code trust it) and the
// request's Host header; X-Forwarded-Host is never believed. The trusted origins still count.

/**
 * @typedef {Record<string, string | undefined>} SettingsEnv
 * @typedef {{ get(name: string): string | null }} HeaderReader
 */

/**
 * The origin of an http(s) URL as the WHATWG URL parser serializes it (host lowercased, default
 * port dropped, IPv6 in brackets), or null for anything else.
 * @param {string} value
 * @returns {string | null}
 */
function httpOriginOf(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.origin;
}

/**
 * The configured public origins, the main one (BETTER_AUTH_URL) first, then every entry of
 * BETTER_AUTH_TRUSTED_ORIGINS that is one exact http(s) origin (wildcard patterns are better-auth's
 * business and match nothing here). Empty when nothing is configured.
 * @param {SettingsEnv} [env]
 * @returns {string[]}
 */
export function configuredOrigins(env = process.env) {
  /** @type {string[]} */
  const origins = [];
  const main = env.BETTER_AUTH_URL?.trim();
  if (main) {
    const origin = httpOriginOf(main);
    if (!origin)
      throw new Error(`BETTER_AUTH_URL must be an http:// or https:// address; it is "${main}".`);
    origins.push(origin);
  }
  for (const entry of (env.BETTER_AUTH_TRUSTED_ORIGINS ?? "").split(",")) {
    const value = entry.trim();
    if (!value || /[*?]/.test(value)) continue;
    const origin = httpOriginOf(value);
    if (origin) origins.push(origin);
  }
  return [...new Set(origins)];
}

/** The configured public address (BETTER_AUTH_URL's origin), or null on a default start.
 * @param {SettingsEnv} [env]
 * @returns {string | null}
 */
export function configuredPublicOrigin(env = process.env) {
  const main = env.BETTER_AUTH_URL?.trim();
  return main ? httpOriginOf(main) : null;
}

/** host, IPv4, or [IPv6], then an optional port: nothing else may stand in a Host header. */
const hostHeaderPattern = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]+)(?::\d{1,5})?$/;

/**
 * The origin the browser used for this request: https when X-Forwarded-Proto's first value says
 * so, else http, with the Host header. Null when the Host header is missing or not a host.
 * @param {HeaderReader} headers
 * @returns {string | null}
 */
export function requestOwnOrigin(headers) {
  const host = headers.get("host")?.trim() ?? "";
  if (!hostHeaderPattern.test(host)) return null;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return httpOriginOf(`${proto === "https" ? "https" : "http"}://${host}`);
}

/**
 * The origins a state-changing request may come from: the configured public address
 * (BETTER_AUTH_URL), or on a default start the origin this request was made to; and in both cases
 * the further origins of BETTER_AUTH_TRUSTED_ORIGINS.
 * @param {SettingsEnv} env
 * @param {HeaderReader} headers
 * @returns {string[]}
 */
export function allowedOrigins(env, headers) {
  const configured = configuredOrigins(env);
  if (configuredPublicOrigin(env) !== null) return configured;
  const own = requestOwnOrigin(headers);
  return own ? [...new Set([own, ...configured])] : configured;
}

/**
 * The origin an Origin header names, or null unless it is one serialized http(s) origin:
 * scheme://host[:port] and nothing more (no user info, path, query or fragment; "null" is null).
 * @param {string | null | undefined} value
 * @returns {string | null}
 */
export function originOfHeader(value) {
  if (!value || !/^https?:\/\/[^/?#@\\\s]+$/i.test(value)) return null;
  return httpOriginOf(value);
}

/**
 * True when the request's Origin header names one of the allowed origins. A missing or "null"
 * Origin is not same-origin.
 * @param {HeaderReader} headers
 * @param {SettingsEnv} [env]
 */
export function isSameOriginRequest(headers, env = process.env) {
  const origin = originOfHeader(headers.get("origin"));
  return origin !== null && allowedOrigins(env, headers).includes(origin);
}

/**
 * The site's origin for links people paste elsewhere: the configured public address, else the
 * origin this request was made to (http://localhost when even the Host header is unusable).
 * @param {HeaderReader} headers
 * @param {SettingsEnv} [env]
 */
export function publicOriginFor(headers, env = process.env) {
  return configuredPublicOrigin(env) ?? requestOwnOrigin(headers) ?? "http://localhost";
}
