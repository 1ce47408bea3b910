import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Page } from "@playwright/test";
import { formatBytes, rowsLimits } from "@seed/model";

export type TestRole = "admin" | "editor" | "viewer";

export interface TestUser {
  role: TestRole;
  email: string;
  password: string;
  name: string;
  storageState: string;
}

export { chromiumLaunchOptions } from "../../../scripts/chromium.mjs";

/**
 * When both Playwright configs record a trace: on a CI run's retry (a test that failed once), on
 * any local failure. Recording every test and keeping only failures cost a quarter of the suite's
 * time (two specs: 2.4 against 1.8 min).
 */
export const e2eTrace: "on-first-retry" | "retain-on-failure" = process.env.CI
  ? "on-first-retry"
  : "retain-on-failure";

/**
 * What one dataset may hold on this run's servers: on PostgreSQL the rows stay in the database,
 * in the embedded default they live in the DuckDB data file (packages/store, rows-home.ts).
 */
export const e2eRowsLimits =
  process.env.SEED_E2E_DATABASE === "postgres" ? rowsLimits.state : rowsLimits["data-file"];

/** The CSV import's file field, named with this run's file limit. */
export const importFileLabel = `File to import (CSV, JSON, NDJSON, Parquet, Arrow or Excel, up to ${formatBytes(e2eRowsLimits.maxImportBytes)})`;

/** A fresh password per run: no credentials live in the code. */
export function randomPassword(): string {
  return `${randomBytes(18).toString("base64url")}!9a`;
}

export function e2eDataDir(): string {
  const dir = process.env.SEED_E2E_DATA_DIR;
  if (!dir) throw new Error("SEED_E2E_DATA_DIR is set by playwright.config.ts");
  return dir;
}

export function usersFile(): string {
  return path.join(e2eDataDir(), "e2e-users.json");
}

/** The accounts global-setup made for this run. */
export function testUser(role: TestRole): TestUser {
  const users = JSON.parse(readFileSync(usersFile(), "utf8")) as Record<TestRole, TestUser>;
  return users[role];
}

export async function signInThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * The ports specs start their own servers on, as offsets from SEED_E2E_PORT (default 3100; the
 * app is +0, the first-run server +1, the production build +2): one table, so two specs running
 * at once on the two workers never share a port. A spec may also take the ports after its own,
 * as noted (a balancer's instances follow its port).
 */
const specPortOffsets = {
  authRefusals: 3, // and 4
  signInThrottle: 5, // and 6
  operations: 7, // and 8
  sameOrigin: 9, // 9, 10, 12 (a balancer) and 13 (its instance)
  provisioning: 14,
  singleSignOn: 15, // the app, 16 its provider, 17 an app whose provider answers nothing
} as const;

/** The first port of a spec's own servers (see specPortOffsets). */
export function specPort(spec: keyof typeof specPortOffsets): number {
  return Number(process.env.SEED_E2E_PORT ?? 3100) + specPortOffsets[spec];
}

/** The app server of this run (SEED_E2E_PORT, default 3100), for clients made outside a test's page. */
export function appBaseURL(): string {
  return `http://localhost:${process.env.SEED_E2E_PORT ?? 3100}`;
}

/** The server running the production build (.next, no test-only routes): SEED_E2E_PORT + 2. */
export function productionBaseURL(): string {
  return `http://localhost:${Number(process.env.SEED_E2E_PORT ?? 3100) + 2}`;
}

export interface CapturedServerAction {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Opens `path` signed in as `role`, lets `submit` post a form (and wait for its outcome), and
 * records that server action request (Next-Action id and body) to replay with other sessions.
 */
export async function captureServerAction(
  browser: import("@playwright/test").Browser,
  role: TestRole,
  path: string,
  submit: (page: Page) => Promise<void>,
): Promise<CapturedServerAction> {
  const baseURL = appBaseURL();
  const context = await browser.newContext({ baseURL, storageState: testUser(role).storageState });
  const page = await context.newPage();
  await page.goto(path);
  // Before hydration a form posts natively, without the Next-Action header a replay needs.
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const actionRequest = page.waitForRequest(
    (request) => request.method() === "POST" && Boolean(request.headers()["next-action"]),
  );
  await submit(page);
  const request = await actionRequest;
  const headers = request.headers();
  const captured = {
    url: request.url(),
    headers: {
      "Next-Action": headers["next-action"] ?? "",
      "Content-Type": headers["content-type"] ?? "text/plain;charset=UTF-8",
      Accept: "text/x-component",
      Origin: baseURL,
    },
    body: request.postDataBuffer() ?? Buffer.alloc(0),
  };
  await request.response();
  await context.close();
  return captured;
}

/** Posts a captured server action as `who` and returns the HTTP status and body. */
export async function replayServerAction(
  action: CapturedServerAction,
  who: TestRole | "anonymous",
): Promise<{ status: number; body: string }> {
  const { request } = await import("@playwright/test");
  const client = await request.newContext({
    baseURL: appBaseURL(),
    storageState: who === "anonymous" ? undefined : testUser(who).storageState,
    maxRedirects: 0,
  });
  const response = await client.post(action.url, { headers: action.headers, data: action.body });
  const result = { status: response.status(), body: await response.text() };
  await client.dispose();
  return result;
}

/**
 * Posts a captured server action as `who` with one form field (`field`, matched as React names
 * it, `<n>_<field>`) replaced by `value`, the way a hand-made request would send it.
 */
export async function replayServerActionWith(
  action: CapturedServerAction,
  who: TestRole,
  field: string,
  value: string,
): Promise<{ status: number; body: string }> {
  const form = await new Response(new Uint8Array(action.body), {
    headers: { "Content-Type": action.headers["Content-Type"] ?? "" },
  }).formData();
  const key = [...form.keys()].find((name) => name === field || name.endsWith(`_${field}`));
  if (!key) throw new Error(`The captured action has no field "${field}"`);
  form.set(key, value);
  const state = JSON.parse(readFileSync(testUser(who).storageState, "utf8")) as {
    cookies: { name: string; value: string }[];
  };
  const response = await fetch(action.url, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Next-Action": action.headers["Next-Action"] ?? "",
      Accept: "text/x-component",
      Origin: action.headers.Origin ?? appBaseURL(),
      Cookie: state.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; "),
    },
    body: form,
  });
  return { status: response.status, body: await response.text() };
}

/** How far a page scrolls sideways (0 when it fits the viewport, as a phone needs). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/**
 * A public data file of the vega-datasets package (real data nobody here wrote), by its name in
 * the package's data folder. The package exports its build only; the folder sits beside it.
 */
export function vegaDataPath(name: string): string {
  const built = createRequire(import.meta.url).resolve("vega-datasets");
  return path.join(path.dirname(built), "..", "data", name);
}
