import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  appRoutes,
  methodLabel,
  nextAssetsRoute,
  routeLabel,
  statusLabel,
  unmatchedRoute,
} from "./route-label";

const seed = Number(process.env.SEED ?? 20261125);
console.log(`route label property seed: ${seed}`);

const appDir = fileURLToPath(new URL("../app", import.meta.url));
/** Files that make a URL in the App Router (pages of the e2e build included). */
const routeFile = /^(page(\.e2e)?\.tsx|route\.ts|icon\.svg)$/;

function routesInFolder(dir: string, prefix: string[] = []): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      // route groups "(name)" and private folders "_name" add no segment / no route
      if (name.startsWith("_")) continue;
      const next = name.startsWith("(") ? prefix : [...prefix, name];
      found.push(...routesInFolder(full, next));
    } else if (routeFile.test(name)) {
      const segments = name === "icon.svg" ? [...prefix, name] : prefix;
      found.push(`/${segments.join("/")}`);
    }
  }
  return found;
}

const allowed = new Set<string>([
  ...appRoutes.map((route) => routeLabel(route.replace(/\[\.\.\.[^\]]+\]/g, "x"))),
  unmatchedRoute,
  nextAssetsRoute,
]);

describe("route labels come from the route table only", () => {
  it("the table is exactly the routes under src/app", () => {
    expect([...new Set(routesInFolder(appDir))].sort()).toEqual([...appRoutes].sort());
  });

  it("names the pattern, never the value", () => {
    expect(routeLabel("/d/demo")).toBe("/d/:slug");
    expect(routeLabel("/d/no-such-dashboard")).toBe("/d/:slug");
    expect(routeLabel("/d/demo/f/region=north")).toBe("/d/:slug/f/:filters");
    expect(routeLabel("/admin/charts/new")).toBe("/admin/charts/new");
    expect(routeLabel("/admin/charts/3f2a")).toBe("/admin/charts/:id");
    expect(routeLabel("/embed/signed/d/draft-one")).toBe("/embed/signed/d/:id");
    expect(routeLabel("/api/auth/sign-in/email")).toBe("/api/auth/:all*");
    expect(routeLabel("/_next/static/chunks/a.js")).toBe("/_next");
    expect(routeLabel("/zzunknown")).toBe(unmatchedRoute);
    expect(routeLabel("/d")).toBe(unmatchedRoute);
    expect(routeLabel("/d/demo/extra/deep")).toBe(unmatchedRoute);
  });

  it("10,000 distinct paths give no label outside the table (bounded series whatever the traffic)", () => {
    const segment = fc.oneof(
      fc.constantFrom("d", "embed", "signed", "c", "f", "admin", "api", "_next", "..", ".", ""),
      fc.string({ minLength: 0, maxLength: 60 }),
      fc.stringMatching(/^[a-z0-9-]{1,40}$/),
      fc.uuid(),
    );
    const pathArb = fc
      .array(segment, { minLength: 0, maxLength: 8 })
      .map((segments) => `/${segments.join("/")}`);
    const labels = new Set<string>();
    const paths = new Set<string>();
    fc.assert(
      fc.property(pathArb, (pathname) => {
        paths.add(pathname);
        const label = routeLabel(pathname);
        labels.add(label);
        expect(allowed.has(label)).toBe(true);
      }),
      { seed, numRuns: 10_000 },
    );
    expect(paths.size).toBeGreaterThan(5_000);
    expect(labels.size).toBeLessThanOrEqual(allowed.size);
  });

  it("methods and statuses are bounded too", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.integer(), (method, status) => {
        expect(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER"]).toContain(
          methodLabel(method),
        );
        expect(statusLabel(status)).toMatch(/^([1-5]\d\d|other)$/);
      }),
      { seed, numRuns: 2_000 },
    );
  });
});
