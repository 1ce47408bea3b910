import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type APIResponse, expect, type Page, request, test } from "@playwright/test";
import { embedLinkKey, signEmbedLink } from "@seed/store";
import {
  createDashboardThroughForm,
  expectAxeClean,
  importCsvAsEditor,
  publishSummedBarChart,
  signedInPage,
  slugOf,
  uniqueName,
} from "./content-support";
import { appBaseURL, e2eDataDir } from "./support";

// Embeds: /embed/d/<slug> and /embed/c/<id> inside iframes of other origins. The app runs at
// http://localhost:<port>; host pages come from a server of this test on another port, reached
// as http://127.0.0.1:<port> (allowed) and http://localhost:<port> (not allowed): two origins.

interface HostServer {
  server: Server;
  allowedOrigin: string;
  refusedOrigin: string;
}

/** Serves `/frame?src=<url>&title=<title>`: a page holding that iframe. */
async function startHostServer(): Promise<HostServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://host");
    const src = url.searchParams.get("src") ?? "";
    const title = url.searchParams.get("title") ?? "Embedded";
    const escapeHtml = (text: string) => text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><title>Host</title><h1>Host page</h1>` +
        `<iframe src="${escapeHtml(src)}" title="${escapeHtml(title)}" width="900" height="700"></iframe></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    allowedOrigin: `http://127.0.0.1:${port}`,
    refusedOrigin: `http://localhost:${port}`,
  };
}

function frameAncestorsOf(response: APIResponse | { headers(): Record<string, string> }) {
  const policy = response.headers()["content-security-policy"] ?? "";
  const directive = policy
    .split(";")
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === "frame-ancestors");
  return directive?.slice(1) ?? [];
}

async function saveEmbedding(page: Page, dashboardUrl: string, origins: string[], refresh = "") {
  await page.goto(dashboardUrl);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page
    .getByLabel("Sites allowed to embed this dashboard (one origin per line)")
    .fill(origins.join("\n"));
  await page.getByLabel("Auto-refresh").selectOption(refresh);
  await page.getByRole("button", { name: "Save embedding and refresh" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Embedding and refresh saved." }),
  ).toBeVisible();
}

/** A dataset, a summed bar chart on a published dashboard, embeddable from `origins`. */
async function publishedEmbeddable(page: Page, origins: string[], refresh = "") {
  const datasetName = uniqueName("Embedded");
  const imported = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "region,amount\nAlfa,1100\nBravo,2200\nAlfa,3300\n",
  );
  const published = await publishSummedBarChart(page, {
    datasetName,
    x: "region",
    measure: "amount",
  });
  await saveEmbedding(page, published.dashboardUrl, origins, refresh);
  const chartId = new URL(published.chartUrl).pathname.split("/").pop() ?? "";
  return { ...published, chartId, imported };
}

let host: HostServer;

test.beforeAll(async () => {
  host = await startHostServer();
});

test.afterAll(async () => {
  await new Promise((resolve) => host.server.close(resolve));
});

test("an allowed origin frames the dashboard and chart embeds; another origin is refused", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const board = await publishedEmbeddable(page, [host.allowedOrigin, "https://*.example.com"]);
  await context.close();
  const embedUrl = `${appBaseURL()}/embed/d/${board.slug}`;
  const visitor = await browser.newContext();
  const hostPage = await visitor.newPage();

  const framed = hostPage.waitForResponse((response) => response.url() === embedUrl);
  await hostPage.goto(
    `${host.allowedOrigin}/frame?src=${encodeURIComponent(embedUrl)}&title=Dashboard`,
  );
  const frame = hostPage.frameLocator('iframe[title="Dashboard"]');
  await expect(frame.getByRole("heading", { level: 1, name: board.dashboardTitle })).toBeVisible();
  await expect(frame.locator("html[data-hydrated]")).toBeAttached();
  await expect(frame.getByRole("figure", { name: board.chartTitle })).toBeVisible();
  // No site header or navigation inside the embed.
  await expect(frame.getByRole("banner")).toHaveCount(0);
  await expect(frame.getByRole("navigation")).toHaveCount(0);
  await expect(frame.getByRole("link", { name: "Admin" })).toHaveCount(0);
  const allowedResponse = await framed;
  expect(allowedResponse.status()).toBe(200);
  expect(allowedResponse.headers()["x-frame-options"]).toBeUndefined();
  expect(frameAncestorsOf(allowedResponse)).toEqual([host.allowedOrigin, "https://*.example.com"]);

  // The same embed on a page of an origin the dashboard does not list: the browser refuses it.
  const refusedPage = await visitor.newPage();
  const refusedResponse = refusedPage.waitForResponse((response) => response.url() === embedUrl);
  await refusedPage.goto(
    `${host.refusedOrigin}/frame?src=${encodeURIComponent(embedUrl)}&title=Dashboard`,
  );
  expect(frameAncestorsOf(await refusedResponse)).not.toContain(host.refusedOrigin);
  const child = refusedPage.frames().find((candidate) => candidate !== refusedPage.mainFrame());
  await expect.poll(() => child?.url()).toMatch(/^chrome-error:/);
  await expect(
    refusedPage.frameLocator('iframe[title="Dashboard"]').getByRole("heading", {
      name: board.dashboardTitle,
    }),
  ).toHaveCount(0);

  // One chart of the published dashboard, under the same allowlist.
  const chartUrl = `${appBaseURL()}/embed/c/${board.chartId}`;
  await hostPage.goto(
    `${host.allowedOrigin}/frame?src=${encodeURIComponent(chartUrl)}&title=Chart`,
  );
  await expect(
    hostPage
      .frameLocator('iframe[title="Chart"]')
      .getByRole("heading", { level: 1, name: board.chartTitle }),
  ).toBeVisible();
  await visitor.close();
});

test("embed headers: allowlist or 'none' on /embed, DENY everywhere else, cached like public pages", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const board = await publishedEmbeddable(page, ["https://wall.example.com"]);
  const closed = await publishedEmbeddable(page, []);
  await context.close();
  const visitor = await request.newContext({ baseURL: appBaseURL() });

  const embed = await visitor.get(`/embed/d/${board.slug}`);
  expect(embed.status()).toBe(200);
  expect(embed.headers()["x-frame-options"]).toBeUndefined();
  expect(frameAncestorsOf(embed)).toEqual(["https://wall.example.com"]);
  expect(embed.headers()["content-security-policy"]).toContain("script-src 'self' 'unsafe-inline'");
  // Served again from the cache (polled: a write by a test running alongside expires every page).
  await expect
    .poll(async () => (await visitor.get(`/embed/d/${board.slug}`)).headers()["x-nextjs-cache"])
    .toBe("HIT");
  // An empty allowlist renders, but nothing may frame it.
  const none = await visitor.get(`/embed/d/${closed.slug}`);
  expect(none.status()).toBe(200);
  expect(frameAncestorsOf(none)).toEqual(["'none'"]);
  const chart = await visitor.get(`/embed/c/${board.chartId}`);
  expect(chart.status()).toBe(200);
  expect(frameAncestorsOf(chart)).toEqual(["https://wall.example.com"]);

  for (const path of [
    "/",
    `/d/${board.slug}`,
    "/login",
    "/admin",
    "/embedded",
    `/%65mbed/d/${board.slug}`,
  ]) {
    const response = await visitor.get(path, { maxRedirects: 0 });
    expect(response.headers()["x-frame-options"], path).toBe("DENY");
    expect(frameAncestorsOf(response), path).toEqual(["'none'"]);
  }
  // Missing things and the signed renders' internal paths: closed and not found.
  for (const path of [
    "/embed/d/no-such-dashboard",
    "/embed/c/no-such-chart",
    `/embed/signed/d/${board.slug}`,
    `/embed/%73igned/d/${board.slug}`,
  ]) {
    const response = await visitor.get(path);
    expect(response.status(), path).toBe(404);
    expect(frameAncestorsOf(response), path).toEqual(["'none'"]);
  }
  await visitor.dispose();
});

test("a signed link embeds a draft; tampered and expired links get 403", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  const board = await publishedEmbeddable(page, []);
  const draftTitle = uniqueName("Draft embed");
  const draftSlug = slugOf(draftTitle);
  await createDashboardThroughForm(page, draftTitle, { slug: draftSlug });
  const draftUrl = page.url();
  const draftId = new URL(draftUrl).pathname.split("/").pop() ?? "";
  await page.getByLabel("Chart", { exact: true }).selectOption({ label: board.chartTitle });
  await page.getByRole("button", { name: "Add chart tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await saveEmbedding(page, draftUrl, [host.allowedOrigin]);

  await page.getByLabel("Link works for").selectOption({ label: "1 day" });
  await page.getByRole("button", { name: "Make signed link" }).click();
  const snippet = await page.getByLabel("Embed code").inputValue();
  const src = /src="([^"]+)"/.exec(snippet)?.[1] ?? "";
  expect(src).toMatch(
    new RegExp(
      `^${appBaseURL()}/embed/d/${draftSlug}\\?id=${draftId}&exp=\\d+&sig=[A-Za-z0-9_-]{43}$`,
    ),
  );
  await expectAxeClean(page);
  await context.close();

  const visitor = await browser.newContext();
  const hostPage = await visitor.newPage();
  const framed = hostPage.waitForResponse((response) => response.url() === src);
  await hostPage.goto(`${host.allowedOrigin}/frame?src=${encodeURIComponent(src)}&title=Draft`);
  const frame = hostPage.frameLocator('iframe[title="Draft"]');
  await expect(frame.getByRole("heading", { level: 1, name: draftTitle })).toBeVisible();
  // Hydrated: the per-request nonce lets the page's scripts run inside the frame.
  await expect(frame.locator("html[data-hydrated]")).toBeAttached();
  await expect(frame.getByRole("figure", { name: board.chartTitle })).toBeVisible();
  await expect(frame.getByText(/Draft preview/)).toHaveCount(0);
  const signedResponse = await framed;
  expect(signedResponse.headers()["cache-control"]).toContain("private");
  expect(signedResponse.headers()["cache-control"]).toContain("no-store");
  expect(frameAncestorsOf(signedResponse)).toEqual([host.allowedOrigin]);
  expect(signedResponse.headers()["content-security-policy"]).toMatch(/'nonce-[^']+'/);
  // Nothing the frame does not show: not its allowlist (the id is the link's own).
  const body = await signedResponse.text();
  expect(body).not.toContain(host.allowedOrigin);
  await visitor.close();

  const client = await request.newContext({ baseURL: appBaseURL() });
  const signedPath = src.slice(appBaseURL().length);
  // Unsigned, the draft does not exist for visitors.
  expect((await client.get(`/embed/d/${draftSlug}`)).status()).toBe(404);
  const url = new URL(src);
  const sig = url.searchParams.get("sig") ?? "";
  const tampered = [
    signedPath.replace(
      `sig=${sig}`,
      `sig=${sig.slice(0, 10)}${sig[10] === "A" ? "B" : "A"}${sig.slice(11)}`,
    ),
    signedPath.replace(/exp=(\d+)/, (_, exp: string) => `exp=${Number(exp) + 60}`),
    signedPath.replace(
      `id=${draftId}`,
      `id=${draftId.slice(0, -1)}${draftId.endsWith("0") ? "1" : "0"}`,
    ),
    signedPath.replace(`id=${draftId}&`, ""),
    signedPath.replace(`/embed/d/`, "/embed/c/"),
    `/embed/d/${draftSlug}?exp=${url.searchParams.get("exp")}`,
  ];
  for (const path of tampered) {
    const response = await client.get(path);
    expect(response.status(), path).toBe(403);
    expect(await response.text(), path).toBe("This embed link is not valid.");
    expect(frameAncestorsOf(response), path).toEqual(["'none'"]);
  }
  // An expired link, signed with the server's own key (derived from its auth secret).
  const key = embedLinkKey({
    authSecret: readFileSync(path.join(e2eDataDir(), "auth-secret"), "utf8"),
  });
  const now = Math.floor(Date.now() / 1000);
  const expired = signEmbedLink(
    key,
    { kind: "dashboard", id: draftId },
    now - 60,
    new Date((now - 120) * 1000),
  );
  const expiredResponse = await client.get(
    `/embed/d/${draftSlug}?id=${draftId}&exp=${expired.exp}&sig=${expired.sig}`,
  );
  expect(expiredResponse.status()).toBe(403);
  expect(await expiredResponse.text()).toBe("This embed link has expired.");
  // The same key's link still valid: the derivation matches the server's.
  const fresh = signEmbedLink(key, { kind: "dashboard", id: draftId }, now + 600);
  expect(
    (
      await client.get(`/embed/d/${draftSlug}?id=${draftId}&exp=${fresh.exp}&sig=${fresh.sig}`)
    ).status(),
  ).toBe(200);
  // A link signed over a slug (the old form) opens nothing.
  expect(
    (await client.get(`/embed/d/${draftSlug}?exp=${fresh.exp}&sig=${fresh.sig}`)).status(),
  ).toBe(403);
  await client.dispose();
});

test("a signed link's page filters by its bar, chips and chart clicks, each link keeping the signature", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const { context, page } = await signedInPage(browser, "editor");
  const board = await publishedEmbeddable(page, []);
  const draftTitle = uniqueName("Filtered draft embed");
  const draftSlug = slugOf(draftTitle);
  await createDashboardThroughForm(page, draftTitle, { slug: draftSlug });
  const draftUrl = page.url();
  await page.getByLabel("Chart", { exact: true }).selectOption({ label: board.chartTitle });
  await page.getByRole("button", { name: "Add chart tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  const filtersForm = page.getByRole("form", { name: "Dashboard filters" });
  await filtersForm.getByLabel("Category filter 1").selectOption("region");
  await filtersForm.getByRole("button", { name: "Save filters" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Filters saved." })).toBeVisible();
  await page.goto(draftUrl);
  await page.getByLabel("Link works for").selectOption({ label: "1 day" });
  await page.getByRole("button", { name: "Make signed link" }).click();
  const snippet = await page.getByLabel("Embed code").inputValue();
  const signed = new URL(/src="([^"]+)"/.exec(snippet)?.[1] ?? "");
  await context.close();

  const visitor = await browser.newContext();
  const embed = await visitor.newPage();
  /** The page's address keeps the link's id, exp and sig, and adds exactly these filters. */
  const atFilters = (filters: string) =>
    embed.waitForURL(
      (url) =>
        url.pathname === `/embed/d/${draftSlug}` &&
        ["id", "exp", "sig"].every(
          (name) => url.searchParams.get(name) === signed.searchParams.get(name),
        ) &&
        [...url.searchParams].filter(([name]) => !["id", "exp", "sig"].includes(name)).join("&") ===
          filters,
    );
  await embed.goto(signed.pathname + signed.search);
  await embed.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const table = embed
    .getByRole("figure", { name: board.chartTitle })
    .getByTestId("seed-chart-table");
  await expect(table).toContainText("Bravo");

  // The bar's form: the draft, filtered, still by the signed link.
  await embed.getByLabel("region", { exact: true }).selectOption(["Alfa"]);
  await embed.getByRole("button", { name: "Apply filters" }).click();
  await atFilters("region,Alfa");
  await expect(embed.getByRole("heading", { level: 1, name: draftTitle })).toBeVisible();
  await expect(table).not.toContainText("Bravo");
  // The chip, then a click on a bar.
  await embed.getByRole("link", { name: "Remove region: Alfa" }).click();
  await atFilters("");
  await expect(table).toContainText("Bravo");
  await embed
    .getByRole("figure", { name: board.chartTitle })
    .locator(".recharts-bar-rectangle")
    .nth(1)
    .click();
  await atFilters("region,Bravo");
  await expect(table).not.toContainText("Alfa");
  await expectAxeClean(embed);
  await visitor.close();
});

test("a signed link is bound to its dashboard's id: a rename follows it, a new dashboard on its old slug is not it (issue 22, item 4)", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const createDraft = async (title: string, slug: string) => {
    await createDashboardThroughForm(page, title, { slug });
    return new URL(page.url()).pathname.split("/").pop() ?? "";
  };
  const firstTitle = uniqueName("Bound draft");
  const slug = slugOf(firstTitle);
  const firstId = await createDraft(firstTitle, slug);
  await page.getByLabel("Link works for").selectOption({ label: "1 day" });
  await page.getByRole("button", { name: "Make signed link" }).click();
  const src = /src="([^"]+)"/.exec(await page.getByLabel("Embed code").inputValue())?.[1] ?? "";
  const link = src.slice(appBaseURL().length);
  expect(link).toContain(`id=${firstId}`);
  const client = await request.newContext({ baseURL: appBaseURL() });
  const opened = await client.get(link);
  expect(opened.status()).toBe(200);
  expect(await opened.text()).toContain(firstTitle);

  // Renamed: the same link moves to the new address and still shows this dashboard.
  const renamed = `${slug}-renamed`;
  const details = page.getByRole("form", { name: "Dashboard details" });
  await details.getByLabel("Slug").fill(renamed);
  await details.getByRole("button", { name: "Save details" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Details saved." })).toBeVisible();
  const moved = await client.get(link, { maxRedirects: 0 });
  expect(moved.status()).toBe(307);
  expect(moved.headers().location).toContain(`/embed/d/${renamed}?id=${firstId}&`);
  const followed = await client.get(link);
  expect(followed.status()).toBe(200);
  expect(await followed.text()).toContain(firstTitle);

  // Deleted, and another draft takes the link's slug: the link opens nothing.
  await page.getByRole("button", { name: /^Delete dashboard/ }).click();
  await page.getByRole("button", { name: /^Yes, delete dashboard/ }).click();
  await page.waitForURL(/\/admin\/dashboards(\?.*)?$/);
  const secondTitle = uniqueName("Someone else's draft");
  const secondId = await createDraft(secondTitle, slug);
  expect(secondId).not.toBe(firstId);
  for (const path of [link, link.replace(`/embed/d/${slug}?`, `/embed/d/${renamed}?`)]) {
    const response = await client.get(path);
    expect(response.status(), path).toBe(404);
    const text = await response.text();
    expect(text).toBe("This embed no longer exists.");
    expect(text).not.toContain(secondTitle);
  }
  await client.dispose();
  await context.close();
});

test("auto-refresh pauses while hidden, refreshes at once when shown, then on its interval", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const board = await publishedEmbeddable(page, [host.allowedOrigin], "30");
  await context.close();
  const visitor = await browser.newContext();
  const viewer = await visitor.newPage();
  const embedPath = `/embed/d/${board.slug}`;
  const refreshes: string[] = [];
  viewer.on("request", (sent) => {
    if (new URL(sent.url()).pathname === embedPath && sent.headers().rsc === "1") {
      refreshes.push(sent.url());
    }
  });
  await viewer.goto(embedPath);
  await viewer.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const status = viewer.getByTestId("refresh-status");
  await expect(status).toContainText(/Updated \d\d:\d\d:\d\d · refreshes every 30 seconds/);
  const figure = viewer.getByRole("figure", { name: board.chartTitle });
  await expect(figure.getByRole("cell", { name: /^4,?400$/ })).toBeAttached();

  const setHidden = (hidden: boolean) =>
    viewer.evaluate((value) => {
      Object.defineProperty(document, "hidden", { configurable: true, get: () => value });
      Object.defineProperty(document, "visibilityState", {
        configurable: true,
        get: () => (value ? "hidden" : "visible"),
      });
      document.dispatchEvent(new Event("visibilitychange"));
    }, hidden);

  // Hidden: the interval is stopped; two intervals' worth of (fake) time pass without a request.
  await setHidden(true);
  await viewer.clock.install();
  await importCsvAsEditor(
    `/api/datasets/import?datasetId=${board.imported.datasetId}&version=${board.imported.version}&mode=append`,
    "region,amount\nAlfa,5500\n",
  );
  await viewer.clock.runFor(65_000);
  expect(refreshes).toEqual([]);
  await expect(figure.getByRole("cell", { name: /^4,?400$/ })).toBeAttached();

  // Shown again: one refresh at once, with the new data, announced once.
  await setHidden(false);
  await expect(figure.getByRole("cell", { name: /^9,?900$/ })).toBeAttached();
  expect(refreshes).toHaveLength(1);
  await expect(viewer.getByRole("status").filter({ hasText: /Data updated at/ })).toBeAttached();

  // Then every 30 seconds while visible.
  await viewer.clock.runFor(30_000);
  await expect.poll(() => refreshes.length).toBe(2);
  await expectAxeClean(viewer);
  await visitor.close();
});

test("the embed pages are axe-clean, and the public page shows when it was updated", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const board = await publishedEmbeddable(page, [host.allowedOrigin]);
  await context.close();
  const visitor = await browser.newContext();
  const viewer = await visitor.newPage();

  for (const path of [`/embed/d/${board.slug}`, `/embed/c/${board.chartId}`]) {
    await viewer.goto(path);
    await viewer.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(viewer.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAxeClean(viewer);
  }
  await viewer.emulateMedia({ colorScheme: "dark" });
  await expectAxeClean(viewer);
  await viewer.goto(`/d/${board.slug}`);
  await expect(viewer.getByTestId("refresh-status")).toHaveText(/^Updated \d\d:\d\d:\d\d$/);
  await visitor.close();
});

test("the settings form refuses a bad origin at its field and keeps what was typed", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Embed form");
  await page.goto("/admin/dashboards/new");
  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await page.waitForURL(/\/admin\/dashboards\/(?!new)[^/?]+$/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const origins = page.getByLabel("Sites allowed to embed this dashboard (one origin per line)");

  await origins.fill("https://ok.example.com\nhttp://plain.example.com");
  await page.getByRole("button", { name: "Save embedding and refresh" }).click();

  await expect(page.getByText(/"http:\/\/plain\.example\.com": use https/)).toBeVisible();
  await expect(origins).toHaveAttribute("aria-invalid", "true");
  await expect(origins).toHaveValue("https://ok.example.com\nhttp://plain.example.com");
  await expectAxeClean(page);
  await context.close();
});
