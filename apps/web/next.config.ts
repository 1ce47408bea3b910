import { fileURLToPath } from "node:url";
import type { NextConfig } from "next";

// Test-only routes (files named page.e2e.tsx) exist only in a build made with SEED_E2E_BUILD=1,
// which goes to its own folder so it never stands in for the production build in .next.
const e2eBuild = process.env.SEED_E2E_BUILD === "1";

// The Content-Security-Policy and HSTS are set per request in src/proxy.ts. Everything but
// /embed is also closed to framing by X-Frame-Options; embeds are framed only as their CSP
// frame-ancestors (from the dashboard's allowlist, 'none' when empty) allows.
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  distDir: e2eBuild ? ".next-e2e" : ".next",
  pageExtensions: e2eBuild ? ["e2e.tsx", "tsx", "ts"] : ["tsx", "ts"],
  reactStrictMode: true,
  // The production build type-checks; the test build of the same sources need not do it twice.
  typescript: { ignoreBuildErrors: e2eBuild },
  // Published pages are cached per instance and expired through the database, so several
  // instances on one PostgreSQL serve the same content (src/server/page-cache-handler.mjs).
  cacheHandler: fileURLToPath(new URL("./src/server/page-cache-handler.mjs", import.meta.url)),
  cacheMaxMemorySize: 0,
  // Native bindings and Node-only loggers stay out of the server bundle, loaded from node_modules.
  serverExternalPackages: [
    "better-sqlite3",
    "@duckdb/node-api",
    "@duckdb/node-bindings",
    // Native SVG-to-PNG renderer of scheduled reports' chart images.
    "@resvg/resvg-js",
    "pino",
    "prom-client",
  ],
  // The proxy sees requests as sent (RSC and prefetch headers included) to answer them 401.
  skipProxyUrlNormalize: true,
  experimental: {
    authInterrupts: true,
    // The table editor's row edits go through a server action: room for their 3 MB limit.
    serverActions: { bodySizeLimit: "3mb" },
  },
  async headers() {
    // The upload routes skip the proxy (see its matcher), which sets every other response's
    // policy; what they answer is data, never a document.
    const dataOnly = [
      { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" },
    ];
    return [
      { source: "/:path*", headers: securityHeaders },
      { source: "/api/datasets/import", headers: dataOnly },
      { source: "/api/datasets/:id/rows", headers: dataOnly },
      {
        // Every path except /embed and below it (a raw-path match: an escaped spelling of
        // /embed keeps DENY, which only ever closes more).
        source: "/:path((?!embed(?:/|$)).*)",
        headers: [{ key: "X-Frame-Options", value: "DENY" }],
      },
    ];
  },
};

export default nextConfig;
