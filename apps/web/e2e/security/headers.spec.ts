import { randomInt } from "node:crypto";
import { type APIResponse, expect, request, test } from "@playwright/test";
import { signedInPage } from "../content-support";
import { appBaseURL, testUser } from "../support";

// Per-request pages (sign-in, setup, the admin area) carry a fresh script nonce with
// 'strict-dynamic' and no 'unsafe-inline' for scripts; cached public pages carry the fixed public
// policy; every response keeps frame-ancestors closed; HSTS goes out only over https.

function directives(policy: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (policy ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

function expectNoncePolicy(response: APIResponse, label: string): string {
  const policy = directives(response.headers()["content-security-policy"]);
  const script = policy.get("script-src") ?? [];
  expect(script, label).toContain("'strict-dynamic'");
  expect(script, label).not.toContain("'unsafe-inline'");
  expect(script, label).not.toContain("'unsafe-eval'");
  const nonce = script.find((value) => value.startsWith("'nonce-"));
  expect(nonce, label).toMatch(/^'nonce-[A-Za-z0-9+/=]{16,}'$/);
  expect(policy.get("frame-ancestors"), label).toEqual(["'none'"]);
  expect(policy.get("object-src"), label).toEqual(["'none'"]);
  return nonce as string;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state;
  };
}

/** Per-request paths with generated query strings and unknown sub-paths. */
function perRequestPaths(seed: number): string[] {
  const next = seeded(seed);
  const bases = [
    "/login",
    "/setup",
    "/admin",
    "/admin/datasets",
    "/admin/datasets/new",
    "/admin/charts",
    "/admin/dashboards",
    "/admin/users",
    "/admin/audit",
  ];
  const forms = (base: string) => [
    base,
    `${base}?q=${next() % 1000}`,
    `${base}?next=%2Fadmin%2F${next() % 1000}`,
  ];
  return [...bases.flatMap(forms), `/admin/no-such-${next() % 10_000}`];
}

function publicPaths(seed: number): string[] {
  const next = seeded(seed + 1);
  return ["/", `/?v=${next() % 1000}`, `/d/no-such-${next() % 10_000}`, `/missing-${next()}`];
}

test("per-request pages carry a fresh nonce, 'strict-dynamic' and no inline scripts", async () => {
  const seed = randomInt(1_000_000);
  console.log(`headers seed ${seed}`);
  const anonymous = await request.newContext({ baseURL: appBaseURL() });
  const admin = await request.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("admin").storageState,
  });
  for (const path of perRequestPaths(seed)) {
    for (const [who, client] of [
      ["anonymous", anonymous],
      ["admin", admin],
    ] as const) {
      const headers = { accept: "text/html" };
      const first = await client.get(path, { headers, maxRedirects: 0 });
      const second = await client.get(path, { headers, maxRedirects: 0 });
      const label = `${who} ${path} ${first.status()}`;
      const nonce = expectNoncePolicy(first, label);
      expect(expectNoncePolicy(second, label), `${label}: a nonce is never reused`).not.toBe(nonce);
      // A 404 is the prerendered not-found page (it serves static /d/ pages too): no nonce there.
      if (first.status() === 200 && first.headers()["content-type"]?.includes("text/html")) {
        const html = await first.text();
        const scripts = html.match(/<script\b[^>]*>/g) ?? [];
        const value = nonce.slice("'nonce-".length, -1);
        for (const tag of scripts) expect(tag, label).toContain(`nonce="${value}"`);
      }
    }
  }
  await anonymous.dispose();
  await admin.dispose();
});

test("public pages and APIs carry the fixed policy with frame-ancestors closed", async ({
  request: client,
}) => {
  const seed = randomInt(1_000_000);
  console.log(`headers public seed ${seed}`);
  for (const path of [...publicPaths(seed), "/api/health", "/admin/api/audit"]) {
    const response = await client.get(path, { maxRedirects: 0 });
    const policy = directives(response.headers()["content-security-policy"]);
    expect(policy.get("frame-ancestors"), path).toEqual(["'none'"]);
    expect(policy.get("object-src"), path).toEqual(["'none'"]);
    expect(policy.has("script-src"), path).toBe(true);
    expect(response.headers()["x-frame-options"], path).toBe("DENY");
  }
});

test("HSTS goes out over https only", async ({ request: client }) => {
  const seed = randomInt(1_000_000);
  console.log(`hsts seed ${seed}`);
  const paths = [...publicPaths(seed), ...perRequestPaths(seed).slice(0, 6), "/api/health"];
  for (const path of paths) {
    const plain = await client.get(path, { maxRedirects: 0 });
    expect(plain.headers()["strict-transport-security"], path).toBeUndefined();
    const viaTls = await client.get(path, {
      maxRedirects: 0,
      headers: { "x-forwarded-proto": "https" },
    });
    expect(viaTls.headers()["strict-transport-security"], path).toMatch(
      /^max-age=\d{8,}; includeSubDomains$/,
    );
  }
});

for (const role of ["admin", "editor", "viewer"] as const) {
  test(`the admin pages hydrate for the ${role} with no CSP violation`, async ({ browser }) => {
    const { context, page } = await signedInPage(browser, role);
    const violations: string[] = [];
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        console.error(`Content Security Policy violation: ${event.violatedDirective}`);
      });
    });
    for (const path of ["/admin", "/admin/datasets", "/admin/charts", "/admin/audit"]) {
      await page.goto(path);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    }
    // A client-side navigation loads further chunks through 'strict-dynamic'.
    await page.getByRole("link", { name: "Dashboards" }).first().click();
    await page.waitForURL(/\/admin\/dashboards/);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    expect(violations).toEqual([]);
    await context.close();
  });
}

test("the sign-in page hydrates with no CSP violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  await page.goto("/login");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  expect(violations).toEqual([]);
});
