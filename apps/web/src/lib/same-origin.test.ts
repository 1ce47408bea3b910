import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allowedOrigins,
  configuredOrigins,
  isSameOriginRequest,
  originOfHeader,
  publicOriginFor,
  requestOwnOrigin,
} from "./same-origin.mjs";

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
console.log(`same-origin property seed: ${seed} (rerun with SEED=${seed})`);
const runs = { seed, numRuns: 10_000 };

/** Headers as a request carries them (names lowercased, as Headers does). */
function headersOf(entries: Record<string, string | undefined>) {
  const map = new Map(
    Object.entries(entries)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([name, value]) => [name.toLowerCase(), value]),
  );
  return { get: (name: string) => map.get(name.toLowerCase()) ?? null };
}

/**
 * The oracle, stated without the module: an Origin header is accepted iff it is shaped as one
 * serialized http(s) origin (scheme://authority, no user info, path, query or fragment) and its
 * WHATWG-parsed origin equals one of the allowed origins (each also WHATWG-parsed).
 */
function oracle(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return false;
  const match = /^([^:]*):\/\/(.*)$/s.exec(origin);
  if (!match?.[1] || match[2] === undefined) return false;
  if (!["http", "https"].includes(match[1].toLowerCase())) return false;
  if (match[2] === "" || /[/?#@\\\s]/.test(match[2])) return false;
  let parsed: string;
  try {
    parsed = new URL(origin).origin;
  } catch {
    return false;
  }
  return allowed.map((value) => new URL(value).origin).includes(parsed);
}

// Hosts the app may be opened by: a name, IPv4, IPv6, a domain behind a balancer.
const hostArb = fc.constantFrom(
  "localhost",
  "127.0.0.1",
  "[::1]",
  "192.168.1.20",
  "charts.example.com",
  "xn--bcher-kva.example",
);
const schemeArb = fc.constantFrom("http", "https");
const portArb = fc.oneof(fc.constant(""), fc.integer({ min: 1, max: 65_535 }).map(String));

interface Site {
  scheme: string;
  host: string;
  port: string;
}
const siteArb: fc.Arbitrary<Site> = fc.record({ scheme: schemeArb, host: hostArb, port: portArb });
const siteOrigin = (site: Site) =>
  `${site.scheme}://${site.host}${site.port ? `:${site.port}` : ""}`;

function randomCase(value: string, flips: boolean[]): string {
  return [...value].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join("");
}

/** Spellings of an Origin header built around a site: equal ones, tricks and foreign ones. */
function variantArb(site: Site): fc.Arbitrary<string> {
  const own = siteOrigin(site);
  const defaultPort = site.scheme === "https" ? "443" : "80";
  const hostPort = `${site.host}${site.port ? `:${site.port}` : ""}`;
  const foreignHost = fc.constantFrom(
    "evil.example",
    "localhost.evil.example",
    `${site.host.replace(/[[\]]/g, "")}.evil.example`,
    `evil.${site.host.replace(/[[\]]/g, "")}`,
    "127.0.0.2",
    "[::2]",
    "charts-example.com",
    "chartsexample.com",
    "charts.example.co",
    "0.0.0.0",
  );
  return fc.oneof(
    fc.constant(own),
    fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }).map((flips) => randomCase(own, flips)),
    fc.constant(`${site.scheme}://${site.host}:${site.port || defaultPort}`),
    fc.constant(`${site.scheme}://${site.host}.${site.port ? `:${site.port}` : ""}`),
    fc.constant(`${site.scheme === "http" ? "https" : "http"}://${hostPort}`),
    portArb.map((port) => `${site.scheme}://${site.host}${port ? `:${port}` : ""}`),
    foreignHost.map((host) => `${site.scheme}://${host}${site.port ? `:${site.port}` : ""}`),
    foreignHost.map((host) => `${own}@${host}`),
    foreignHost.map((host) => `${site.scheme}://${host}@${hostPort}`),
    foreignHost.map((host) => `${site.scheme}://${hostPort}\\@${host}`),
    fc.constantFrom("/", "/admin", "?x=1", "#f", " ", "\t").map((suffix) => `${own}${suffix}`),
    fc
      .constantFrom("ftp", "file", "ws", "wss", "javascript", "blob:http", "chrome-extension")
      .map((scheme) => `${scheme}://${hostPort}`),
    fc.constantFrom(
      "null",
      "",
      " ",
      "undefined",
      hostPort,
      `//${hostPort}`,
      `${site.scheme}:${hostPort}`,
    ),
    fc.string({ maxLength: 40 }),
    fc
      .string({ maxLength: 12 })
      .map((text) => `${site.scheme}://${text}${site.port ? `:${site.port}` : ""}`),
  );
}

describe("the same-origin rule", () => {
  it("with a configured public address: accepted iff the parsed origin is a configured one", () => {
    fc.assert(
      fc.property(
        siteArb.chain((site) => fc.tuple(fc.constant(site), variantArb(site))),
        fc.array(siteArb, { maxLength: 2 }),
        siteArb,
        fc.boolean(),
        ([site, origin], extra, opened, forwardedHttps) => {
          const env = {
            BETTER_AUTH_URL: `${siteOrigin(site)}/`,
            BETTER_AUTH_TRUSTED_ORIGINS: extra.map(siteOrigin).join(", "),
          };
          const allowed = [siteOrigin(site), ...extra.map(siteOrigin)];
          // Whatever Host the request was made to (a LAN address, the balancer's upstream):
          // a configured address decides alone.
          const headers = headersOf({
            origin,
            host: `${opened.host}${opened.port ? `:${opened.port}` : ""}`,
            "x-forwarded-proto": forwardedHttps ? "https" : undefined,
          });
          expect(isSameOriginRequest(headers, env), origin).toBe(oracle(origin, allowed));
        },
      ),
      runs,
    );
  });

  it("on a default start: accepted iff the parsed origin is the one the request was made to", () => {
    fc.assert(
      fc.property(
        siteArb.chain((site) => fc.tuple(fc.constant(site), variantArb(site))),
        fc.boolean(),
        fc.boolean(),
        fc.array(siteArb, { maxLength: 2 }),
        ([site, origin], forwardedHttps, otherSite, extra) => {
          // The browser opened the app as scheme://Host; https is only known from the header.
          const opened = {
            ...site,
            scheme: forwardedHttps ? "https" : "http",
            host: otherSite ? "10.0.0.7" : site.host,
          };
          const headers = headersOf({
            origin,
            host: `${opened.host}${opened.port ? `:${opened.port}` : ""}`,
            "x-forwarded-proto": forwardedHttps ? "https" : undefined,
          });
          // Trusted origins count on a default start too, next to the request's own.
          const env = { BETTER_AUTH_TRUSTED_ORIGINS: extra.map(siteOrigin).join(",") };
          expect(isSameOriginRequest(headers, env), origin).toBe(
            oracle(origin, [siteOrigin(opened), ...extra.map(siteOrigin)]),
          );
        },
      ),
      runs,
    );
  });

  it("a missing Origin header is never same-origin", () => {
    fc.assert(
      fc.property(siteArb, fc.boolean(), (site, configured) => {
        const headers = headersOf({ host: `${site.host}:${site.port || "80"}` });
        const env = configured ? { BETTER_AUTH_URL: siteOrigin(site) } : {};
        expect(isSameOriginRequest(headers, env)).toBe(false);
      }),
      runs,
    );
  });

  it("known spellings, checked without the oracle", () => {
    const env = { BETTER_AUTH_URL: "https://charts.example.com" };
    const at = (origin: string) =>
      isSameOriginRequest(headersOf({ origin, host: "localhost:3000" }), env);
    expect(at("https://charts.example.com")).toBe(true);
    expect(at("HTTPS://Charts.Example.COM")).toBe(true);
    expect(at("https://charts.example.com:443")).toBe(true);
    expect(at("https://charts.example.com.")).toBe(false);
    expect(at("http://charts.example.com")).toBe(false);
    expect(at("https://charts.example.com:8443")).toBe(false);
    expect(at("https://evil.charts.example.com")).toBe(false);
    expect(at("https://charts.example.com.evil.example")).toBe(false);
    expect(at("https://charts.example.com@evil.example")).toBe(false);
    expect(at("https://evil.example@charts.example.com")).toBe(false);
    expect(at("https://charts.example.com/")).toBe(false);
    expect(at("null")).toBe(false);
    // The old check's failure: the browser's own origin, while `next start` says localhost.
    expect(at("http://localhost:3000")).toBe(false);

    const local = (origin: string, host: string) =>
      isSameOriginRequest(headersOf({ origin, host }), {});
    expect(local("http://127.0.0.1:3000", "127.0.0.1:3000")).toBe(true);
    expect(local("http://localhost:3000", "localhost:3000")).toBe(true);
    expect(local("http://[::1]:3000", "[::1]:3000")).toBe(true);
    expect(local("http://[0:0:0:0:0:0:0:1]:3000", "[::1]:3000")).toBe(true);
    expect(local("http://localhost:3000", "127.0.0.1:3000")).toBe(false);
    expect(local("http://evil.example", "evil.example@127.0.0.1:3000")).toBe(false);
    expect(local("http://127.0.0.1:3000", "127.0.0.1:3000/x")).toBe(false);
    expect(local("http://example.com:80", "example.com")).toBe(true);
  });

  it("the configured address wins for links; the request's origin on a default start", () => {
    const headers = headersOf({ host: "127.0.0.1:3000", "x-forwarded-proto": "https, http" });
    expect(publicOriginFor(headers, {})).toBe("https://127.0.0.1:3000");
    expect(publicOriginFor(headers, { BETTER_AUTH_URL: "https://Charts.Example.com:443/x" })).toBe(
      "https://charts.example.com",
    );
    expect(requestOwnOrigin(headersOf({ host: "a b" }))).toBeNull();
    expect(publicOriginFor(headersOf({}), {})).toBe("http://localhost");
  });

  it("trusted origins: exact http(s) origins only, wildcard patterns left to better-auth", () => {
    expect(
      configuredOrigins({
        BETTER_AUTH_URL: "http://localhost:3000/app",
        BETTER_AUTH_TRUSTED_ORIGINS:
          " https://A.example ,https://*.example.com, ftp://x, ,http://b:80",
      }),
    ).toEqual(["http://localhost:3000", "https://a.example", "http://b"]);
    expect(allowedOrigins({}, headersOf({ host: "h:1" }))).toEqual(["http://h:1"]);
    expect(
      allowedOrigins(
        { BETTER_AUTH_TRUSTED_ORIGINS: "https://t.example" },
        headersOf({ host: "h:1" }),
      ),
    ).toEqual(["http://h:1", "https://t.example"]);
    expect(
      allowedOrigins(
        { BETTER_AUTH_URL: "https://p.example", BETTER_AUTH_TRUSTED_ORIGINS: "https://t.example" },
        headersOf({ host: "h:1" }),
      ),
    ).toEqual(["https://p.example", "https://t.example"]);
    expect(originOfHeader("null")).toBeNull();
  });
});
