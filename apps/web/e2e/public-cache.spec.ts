import { expect, request, test } from "@playwright/test";
import { importEventsHeader } from "../src/app/admin/datasets/import-events";
import { signedInPage, uniqueName } from "./content-support";
import { appBaseURL, testUser } from "./support";

// Published dashboards are cached (served again without rendering: x-nextjs-cache HIT), and
// every write that changes one shows on the very next request: rows, chart, dashboard.

interface DoneEvent {
  type: "done";
  datasetId: string;
  version: number;
}

async function importCsv(path: string, csv: string): Promise<DoneEvent> {
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
  return done as DoneEvent;
}

test("published dashboards are served from the cache and show every write on the next request", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const datasetName = uniqueName("Cached");
  const created = await importCsv(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "region,amount\nAlfa,1100\nBravo,2200\nAlfa,3300\n",
  );

  const { context, page } = await signedInPage(browser, "editor");
  const chartTitle = uniqueName("Cached amounts");
  await page.goto("/admin/charts/new");
  await page.getByRole("textbox", { name: "Title" }).fill(chartTitle);
  await page.getByLabel("Dataset").selectOption({ label: datasetName });
  await page.getByLabel("Type").selectOption("bar");
  await page.getByLabel("Index column (x axis)").selectOption("region");
  await page.getByRole("checkbox", { name: "amount" }).check();
  await page.getByLabel("Combine rows with").selectOption("sum");
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  const chartUrl = page.url();

  const dashboardTitle = uniqueName("Cached board");
  const slug = dashboardTitle.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  await page.goto("/admin/dashboards/new");
  await page.getByRole("textbox", { name: "Title" }).fill(dashboardTitle);
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await page.waitForURL(/\/admin\/dashboards\/(?!new)[^/?]+$/);
  const dashboardUrl = page.url();
  await page.getByLabel("Chart", { exact: true }).selectOption({ label: chartTitle });
  await page.getByRole("button", { name: "Add chart tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await page.getByRole("button", { name: `Publish ${dashboardTitle}` }).click();
  await expect(page.getByText("Published.")).toBeVisible();

  const visitor = await request.newContext({ baseURL: appBaseURL() });
  const payload = async () => {
    const response = await visitor.get(`/d/${slug}`, { headers: { RSC: "1" } });
    return { status: response.status(), body: await response.text() };
  };
  const html = async () => visitor.get(`/d/${slug}`);

  // Rendered once, then served from the cache.
  expect((await html()).status()).toBe(200);
  const cached = await html();
  expect(cached.headers()["x-nextjs-cache"]).toBe("HIT");
  expect((await payload()).body).toContain("4400");

  // Rows: an append through the import changes the sum at once.
  await importCsv(
    `/api/datasets/import?datasetId=${created.datasetId}&version=${created.version}&mode=append`,
    "region,amount\nAlfa,5500\n",
  );
  const afterRows = await payload();
  expect(afterRows.body).toContain("9900");
  expect(afterRows.body).not.toContain("4400");

  // Chart: a new title.
  const newTitle = uniqueName("Renamed amounts");
  await page.goto(chartUrl);
  await page.getByRole("textbox", { name: "Title" }).fill(newTitle);
  await page.getByRole("button", { name: "Save chart" }).click();
  await page.waitForURL(/\?saved=1$/);
  expect((await payload()).body).toContain(newTitle);

  // Dashboard: unpublished, it is a 404 on the next request.
  await page.goto(dashboardUrl);
  await page.getByRole("button", { name: `Unpublish ${dashboardTitle}` }).click();
  await expect(page.getByRole("button", { name: `Publish ${dashboardTitle}` })).toBeVisible();
  expect((await html()).status()).toBe(404);

  await visitor.dispose();
  await context.close();
});
