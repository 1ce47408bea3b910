import { randomInt } from "node:crypto";
import { expect, request, test } from "@playwright/test";
import { appBaseURL, productionBaseURL } from "../support";

// Test-only routes exist only in the test build: the production build answers 404 to every
// spelling of them, while the test build (which the suite uses) still serves them.

const testOnlyRoutes = ["/e2e-error"];

function variants(route: string, seed: number): string[] {
  const suffixes = ["", "/", "?x=1", `?seed=${seed}`, "/.", "#frag", ".rsc", "/index"];
  const extra = Array.from({ length: 4 }, (_, index) => `?v=${(seed + index * 7919) % 100_000}`);
  return [...suffixes, ...extra].map((suffix) => `${route}${suffix}`);
}

test("the production build answers 404 to every test-only route", async () => {
  const seed = randomInt(1_000_000);
  console.log(`test-routes seed ${seed}`);
  const production = await request.newContext({ baseURL: productionBaseURL() });
  for (const route of testOnlyRoutes) {
    for (const path of variants(route, seed)) {
      const kinds: Record<string, string>[] = [{ accept: "text/html" }, { rsc: "1" }, {}];
      for (const headers of kinds) {
        // Trailing-slash forms are redirected first; where they land must be a 404 too.
        const response = await production.get(path, { headers });
        expect(response.status(), `${path} ${JSON.stringify(headers)}`).toBe(404);
      }
    }
  }
  await production.dispose();
});

test("the test build still serves its test-only routes", async () => {
  const app = await request.newContext({ baseURL: appBaseURL() });
  for (const route of testOnlyRoutes) {
    const response = await app.get(route, { headers: { accept: "text/html" } });
    expect(response.status(), route).toBe(500);
  }
  await app.dispose();
});
