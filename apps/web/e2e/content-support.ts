import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Locator, type Page, request } from "@playwright/test";
import { importEventsHeader } from "../src/features/datasets/import-events";
import { appBaseURL, horizontalOverflow, type TestRole, testUser } from "./support";

/** A name no other test or run uses, so tests never share records. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export async function signedInPage(browser: Browser, role: TestRole) {
  const context = await browser.newContext({ storageState: testUser(role).storageState });
  const page = await context.newPage();
  return { context, page };
}

/** A new browser signed in as `role`, at `path`, once the page is hydrated (its forms post as actions). */
export async function openAs(browser: Browser, role: TestRole, path: string): Promise<Page> {
  const { page } = await signedInPage(browser, role);
  await page.goto(path);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return page;
}

/**
 * Axe on a settled page. A background refresh (the dashboard editor's `router.refresh()` after an
 * in-place change) streams the page's metadata again, and for a moment the document has no
 * `<title>` (Next.js streams metadata; vercel/next.js#79135). So the title is waited for first: a
 * page that never gets one still fails, here.
 */
export async function expectAxeClean(page: Page) {
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
}

/** `path` as a browser without scripts gets it (the server's HTML alone), read by `read`. */
export async function withoutScripts<T>(
  browser: Browser,
  path: string,
  read: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(path);
    return await read(page);
  } finally {
    await context.close();
  }
}

/** A visitor's phone (375 px wide) at `path`: once hydrated, nothing scrolls sideways and axe is clean. */
export async function expectFitsPhone(browser: Browser, path: string) {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(path);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await expectAxeClean(page);
  } finally {
    await context.close();
  }
}

/** Creates a dataset through the paste form and returns its id. */
export async function createDatasetThroughForm(
  page: Page,
  name: string,
  csv: string,
): Promise<string> {
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Name of the new dataset").fill(name);
  await page.getByLabel("Or paste the rows (CSV, JSON or NDJSON text)").fill(csv);
  await expect(page.getByRole("region", { name: "Preview of the rows" })).toBeVisible();
  await page.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/\/admin\/datasets\/(?!new)[^/?]+\?saved=import$/);
  const id = new URL(page.url()).pathname.split("/").pop();
  if (!id) throw new Error(`No dataset id in ${page.url()}`);
  return id;
}

export interface ImportDone {
  type: "done";
  datasetId: string;
  version: number;
}

/** Streams a CSV through the import endpoint as the editor (new dataset or into one). */
export async function importCsvAsEditor(path: string, csv: string): Promise<ImportDone> {
  const editor = await request.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("editor").storageState,
  });
  const response = await editor.post(path, {
    headers: { Origin: appBaseURL(), "Content-Type": "text/csv", [importEventsHeader]: "1" },
    data: csv,
  });
  expect(response.status()).toBe(200);
  const events = (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string });
  await editor.dispose();
  const done = events.find((event) => event.type === "done");
  if (!done) throw new Error(`The import failed: ${JSON.stringify(events.at(-1))}`);
  return done as ImportDone;
}

/**
 * Through the editor's pages: a bar chart summing `measure` by `x` over a dataset, and a published
 * dashboard with that chart as its only tile.
 */
export async function publishSummedBarChart(
  page: Page,
  options: { datasetName: string; x: string; measure: string },
) {
  const chartTitle = uniqueName("Summed bars");
  await page.goto("/admin/charts/new");
  await page.getByRole("textbox", { name: "Title" }).fill(chartTitle);
  await page.getByLabel("Dataset").selectOption({ label: options.datasetName });
  await page.getByLabel("Type").selectOption("bar");
  await page.getByLabel("Index column (x axis)").selectOption(options.x);
  await page.getByRole("checkbox", { name: options.measure }).check();
  await page.getByLabel("Combine rows with").selectOption("sum");
  await expect(
    page.getByTestId("chart-preview").getByRole("figure", { name: chartTitle }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  const chartUrl = page.url();

  const dashboardTitle = uniqueName("Summed board");
  const slug = slugOf(dashboardTitle);
  await createDashboardThroughForm(page, dashboardTitle, { slug });
  const dashboardUrl = page.url();
  await page.getByLabel("Chart", { exact: true }).selectOption({ label: chartTitle });
  await page.getByRole("button", { name: "Add chart tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await page.getByRole("button", { name: `Publish ${dashboardTitle}` }).click();
  await expect(page.getByText("Published.")).toBeVisible();
  return { chartTitle, chartUrl, dashboardTitle, dashboardUrl, slug };
}

/**
 * What the chart editor's preview draws, from its data table's CSV: the x labels, and each
 * series' values by its header in x order (an empty value as null).
 */
export async function previewSeries(
  page: Page,
): Promise<{ x: string[]; series: Record<string, Array<number | null>> }> {
  const table = page.getByTestId("chart-preview").getByTestId("seed-chart-table");
  await expect(table).toBeAttached();
  const csv = await table.evaluate(
    (element: HTMLTableElement & { seedCsv?: () => (string | number | null)[][] }) =>
      element.seedCsv?.() ?? [],
  );
  const [header = [], ...rows] = csv;
  const value = (cell: string | number | null | undefined) =>
    cell === null || cell === undefined || cell === "" ? null : Number(cell);
  return {
    x: rows.map((row) => String(row[0])),
    series: Object.fromEntries(
      header
        .slice(1)
        .map((name, index) => [String(name), rows.map((row) => value(row[index + 1]))]),
    ),
  };
}

/** The preview's first series with its x labels (an empty value drawn as 0). */
export async function previewValues(page: Page): Promise<Array<[string, number]>> {
  const { x, series } = await previewSeries(page);
  const first = Object.values(series)[0] ?? [];
  return x.map((label, index) => [label, first[index] ?? 0]);
}

/** A title as the dashboard form would make its slug. */
export function slugOf(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/**
 * A new dashboard made through the form, its editor left open: the slug (given, or made from the
 * title), the editor's URL and the dashboard's id.
 */
export async function createDashboardThroughForm(
  page: Page,
  title: string,
  options: { slug?: string; timeZone?: string } = {},
): Promise<{ slug: string; url: string; id: string }> {
  const slug = options.slug ?? slugOf(title);
  await page.goto("/admin/dashboards/new");
  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page.getByLabel("Slug").fill(slug);
  if (options.timeZone) await page.getByLabel("Time zone (optional)").fill(options.timeZone);
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await page.waitForURL(/\/admin\/dashboards\/(?!new)[^/?]+$/);
  const url = page.url();
  return { slug, url, id: new URL(url).pathname.split("/").pop() ?? "" };
}

/** The new dataset page's "Import a file" form, signed in as an editor, its name filled in. */
export async function openImportCard(browser: Browser, name: string) {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const importCard = page.getByRole("region", { name: "Import a file" });
  await importCard.getByLabel("Name of the new dataset").fill(name);
  return { context, page, importCard };
}

/** A cell of the import form's preview, by its exact text. */
export function previewCell(card: Locator, text: string): Locator {
  return card
    .getByRole("region", { name: "Preview of the rows" })
    .getByRole("cell", { name: text, exact: true })
    .first();
}

/** Makes a token on the dataset's page and returns the secret the page shows once. */
export async function createPushToken(
  page: Page,
  datasetId: string,
  options: { name: string; scope: "append" | "replace"; expiresOn?: string },
): Promise<string> {
  await page.goto(`/admin/datasets/${datasetId}`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const form = page.getByRole("form", { name: "Create an API token" });
  await form.getByLabel("Token name").fill(options.name);
  await form.getByLabel("Scope").selectOption(options.scope);
  if (options.expiresOn) await form.getByLabel("Expires on (optional)").fill(options.expiresOn);
  await form.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByLabel(`Token for ${options.name}`);
  await expect(secret).toHaveValue(/^seed_[A-Za-z0-9_-]{43}$/);
  return secret.inputValue();
}

/** An admin's page makes a group (Users page) with these accounts in it; ends on the group's page. */
export async function createGroupWithMembers(
  page: Page,
  name: string,
  emails: readonly string[],
): Promise<void> {
  await page.goto("/admin/users");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Group name").fill(name);
  await page.getByRole("button", { name: "Create group" }).click();
  // By address, so the hydration mark is the group page's own (a client-side click keeps the old).
  await page.goto((await page.getByRole("link", { name, exact: true }).getAttribute("href")) ?? "");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const members = page.getByRole("group", { name: "Members chosen by an admin" });
  for (const email of emails) {
    await members.getByRole("checkbox", { name: new RegExp(`\\(${email}\\)`) }).check();
  }
  await page.getByRole("button", { name: "Save members" }).click();
  await expect(page.getByText(`Members saved: ${emails.length} added.`)).toBeVisible();
}

/** A new collection made through the Collections page; its page is left open. Its path. */
export async function createCollectionThroughForm(page: Page, name: string): Promise<string> {
  await page.goto("/admin/collections");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Collection name").fill(name);
  await page.getByRole("button", { name: "Create collection" }).click();
  await page.waitForURL(/\/admin\/collections\/[^/?]+\?created=1$/);
  return new URL(page.url()).pathname;
}

/** Moves the record whose admin page is at `path` into the collection named `collectionName`. */
export async function moveIntoCollection(
  page: Page,
  path: string,
  collectionName: string,
): Promise<void> {
  await page.goto(path);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const card = page.getByRole("region", { name: "Collection" });
  await card.getByLabel("Collection").selectOption({ label: collectionName });
  await card.getByRole("button", { name: "Move" }).click();
  await expect(card.getByRole("link", { name: collectionName })).toBeVisible();
}

/** A published dashboard showing the given charts, through the dashboard editor's pages; its slug. */
export async function publishDashboard(
  page: Page,
  chartTitles: readonly string[],
  name = "Options board",
): Promise<string> {
  const title = uniqueName(name);
  const slug = slugOf(title);
  await createDashboardThroughForm(page, title, { slug });
  for (const [index, chartTitle] of chartTitles.entries()) {
    await page.getByLabel("Chart", { exact: true }).selectOption({ label: chartTitle });
    await page.getByRole("button", { name: "Add chart tile" }).click();
    // Added in place: the version line names the version each tile was saved at (version 1 is
    // the new dashboard); the "Tile added." status is still there from the tile before.
    await expect(page.getByText(`· version ${index + 2} ·`)).toBeVisible();
  }
  await page.getByRole("button", { name: `Publish ${title}` }).click();
  await expect(page.getByText("Published.")).toBeVisible();
  return slug;
}

/** The new chart form, hydrated, with its title typed and a dataset chosen. */
export async function openNewChart(page: Page, datasetName: string, title: string) {
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page.getByLabel("Dataset").selectOption({ label: datasetName });
}
