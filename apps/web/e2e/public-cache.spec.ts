import { expect, request, test } from "@playwright/test";
import {
  importCsvAsEditor,
  publishSummedBarChart,
  signedInPage,
  uniqueName,
} from "./content-support";
import { appBaseURL } from "./support";

// Published dashboards are cached (served again without rendering: x-nextjs-cache HIT), and
// every write that changes one shows on the very next request: rows, chart, dashboard.

test("published dashboards are served from the cache and show every write on the next request", async ({
  browser,
}) => {
  const datasetName = uniqueName("Cached");
  const created = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "region,amount\nAlfa,1100\nBravo,2200\nAlfa,3300\n",
  );

  const { context, page } = await signedInPage(browser, "editor");
  const { chartUrl, dashboardTitle, dashboardUrl, slug } = await publishSummedBarChart(page, {
    datasetName,
    x: "region",
    measure: "amount",
  });

  const visitor = await request.newContext({ baseURL: appBaseURL() });
  const payload = async () => {
    const response = await visitor.get(`/d/${slug}`, { headers: { RSC: "1" } });
    return { status: response.status(), body: await response.text() };
  };
  const html = async () => visitor.get(`/d/${slug}`);

  // Rendered once, then served from the cache.
  expect((await html()).status()).toBe(200);
  // Polled: a write by a test running alongside expires every page.
  await expect.poll(async () => (await html()).headers()["x-nextjs-cache"]).toBe("HIT");
  expect((await payload()).body).toContain("4400");

  // Rows: an append through the import changes the sum at once.
  await importCsvAsEditor(
    `/api/datasets/import?datasetId=${created.datasetId}&version=${created.version}&mode=append`,
    "region,amount\nAlfa,5500\n",
  );
  // The streamed import revalidates once its response has ended (its handler has returned by
  // then), so a request in that same instant may still get the old page: allow a moment.
  await expect.poll(async () => (await payload()).body, { timeout: 5_000 }).toContain("9900");
  expect((await payload()).body).not.toContain("4400");

  // Chart: a new title.
  const newTitle = uniqueName("Renamed amounts");
  await page.goto(chartUrl);
  await page.getByRole("textbox", { name: "Title" }).fill(newTitle);
  await page.getByRole("button", { name: "Save chart" }).click();
  await page.waitForURL(/\?saved=1$/);
  // Revalidated in the action, and once more after its response (server/revalidate.ts): a render
  // that read the database just before the write may be served for that instant, never after.
  await expect.poll(async () => (await payload()).body, { timeout: 5_000 }).toContain(newTitle);

  // Dashboard: unpublished, it is a 404 on the next request.
  await page.goto(dashboardUrl);
  await page.getByRole("button", { name: `Unpublish ${dashboardTitle}` }).click();
  await expect(page.getByRole("button", { name: `Publish ${dashboardTitle}` })).toBeVisible();
  await expect.poll(async () => (await html()).status(), { timeout: 5_000 }).toBe(404);

  await visitor.dispose();
  await context.close();
});
