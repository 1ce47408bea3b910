import { execFileSync } from "node:child_process";
import { type Browser, type BrowserContext, expect, type Page } from "@playwright/test";
import type { startCluster } from "../scripts/cluster.mjs";
import { importEventsHeader } from "../src/features/datasets/import-events";

export type Cluster = Awaited<ReturnType<typeof startCluster>>;

/** Runs SQL on the cluster's database through psql and returns the rows, tab-separated. */
export function sql(cluster: Cluster, query: string): string[][] {
  const output = execFileSync("psql", [cluster.databaseUrl, "-XAt", "-F", "\t", "-c", query], {
    encoding: "utf8",
  });
  return output
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.split("\t"));
}

/** A browser context signed in through `baseURL` (one instance, or the balancer). */
export async function signedIn(
  browser: Browser,
  baseURL: string,
  account: { email: string; password: string },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/admin(?:$|[/?])/);
  return { context, page };
}

/** The Cookie header a context would send, for requests made outside its pages. */
export async function cookieHeader(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

/** Streams a CSV through an instance's import endpoint with a signed-in context's cookies. */
export async function importCsv(
  baseURL: string,
  cookie: string,
  path: string,
  csv: string | ReadableStream<Uint8Array>,
): Promise<{ datasetId: string; version: number }> {
  const response = await fetch(new URL(path, baseURL), {
    method: "POST",
    headers: {
      Origin: new URL(baseURL).origin,
      Cookie: cookie,
      "Content-Type": "text/csv",
      [importEventsHeader]: "1",
    },
    body: csv,
    // A streamed body must say so (fetch's half-duplex mode).
    ...(typeof csv === "string" ? {} : { duplex: "half" }),
  } as RequestInit);
  expect(response.status).toBe(200);
  const events = (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; datasetId?: string; version?: number });
  const done = events.find((event) => event.type === "done");
  if (!done?.datasetId || done.version === undefined) {
    throw new Error(`The import failed: ${JSON.stringify(events.at(-1))}`);
  }
  return { datasetId: done.datasetId, version: done.version };
}
