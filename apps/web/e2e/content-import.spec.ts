import { expect, test } from "@playwright/test";
import {
  createDatasetThroughForm,
  expectAxeClean,
  importCsvAsEditor,
  signedInPage,
  uniqueName,
} from "./content-support";
import { importFileLabel } from "./support";

function csvOf(count: number, badAt?: number): string {
  const lines = ["city,people"];
  for (let index = 1; index <= count; index++) {
    lines.push(`Town ${index},${index === badAt ? "many" : index * 10}`);
  }
  return `${lines.join("\n")}\n`;
}

test("a CSV file streams into a dataset: append, replace, and a bad line changes nothing", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const id = await createDatasetThroughForm(
    page,
    uniqueName("Towns"),
    "city,people\nOslo,700000\nBergen,290000",
  );
  const upload = async (csv: string, mode: "append" | "replace") => {
    await page
      .getByLabel(mode === "append" ? /append the file's rows/ : /Replace all rows/)
      .check();
    await page
      .getByLabel(importFileLabel)
      .setInputFiles({ name: "towns.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Import rows" }).click();
  };

  await upload(csvOf(120), "append");
  await expect(page.getByText("Rows imported.")).toBeVisible();
  await expect(page.getByText("122 rows, page 1 of 3")).toBeVisible();
  await expectAxeClean(page);

  // The first bad line is named, and the rows stay as they were.
  await upload(csvOf(3_000, 2_500), "replace");
  const alert = page.getByRole("alert").filter({ hasText: "Line 2501" });
  await expect(alert).toContainText('column "people": expected a number, got "many"');
  await page.reload();
  await expect(page.getByText("122 rows, page 1 of 3")).toBeVisible();

  await upload(csvOf(60), "replace");
  await expect(page.getByText("Rows imported.")).toBeVisible();
  await expect(page.getByText("60 rows, page 1 of 2")).toBeVisible();

  // Sorting, search and pages are server round trips that read one page.
  await page.getByLabel("Sort by").selectOption("people");
  await page.getByLabel("Direction").selectOption("desc");
  await page.getByRole("button", { name: "Show rows" }).click();
  await expect(page).toHaveURL(/sort=people&dir=desc/);
  await expect(page.getByLabel("people, row 60")).toHaveValue("600");
  await page.getByLabel("Search text columns").fill("Town 5");
  await page.getByRole("button", { name: "Show rows" }).click();
  await expect(page.getByText("11 rows match, page 1 of 1")).toBeVisible();
  await page.goto(`/admin/datasets/${id}?page=2`);
  await expect(page.getByLabel("city, row 51")).toHaveValue("Town 51");
  await context.close();
});

test("a large file creates a new dataset with a progress bar while it runs", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const name = uniqueName("Big towns");
  await page.getByLabel("Name of the new dataset").fill(name);
  await page
    .getByLabel(importFileLabel)
    .setInputFiles({ name: "big.csv", mimeType: "text/csv", buffer: Buffer.from(csvOf(200_000)) });
  await page.getByRole("button", { name: "Import dataset" }).click();
  await expect(page.getByRole("progressbar")).toBeVisible();
  await page.waitForURL(/\/admin\/datasets\/(?!new)[^/?]+\?saved=import$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("200,000 rows, page 1 of 4,000")).toBeVisible();
  await context.close();
});

test("a file over 10 MB streams in whole (the proxy never buffers or cuts an upload)", async () => {
  // About 16 MB: past the 10 MB a proxied request body is cut at.
  const count = 850_000;
  const csv = csvOf(count);
  expect(Buffer.byteLength(csv)).toBeGreaterThan(15 * 1024 * 1024);
  const done = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(uniqueName("Sixteen megabytes"))}`,
    csv,
  );
  expect(done).toMatchObject({ type: "done", rowCount: count });
});

test("a large file with bad lines lists them all, and nothing is created", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const name = uniqueName("Bad towns");
  const lines = csvOf(5_000).trimEnd().split("\n");
  lines[1_500] = "Town 1500,many";
  lines[3_000] = "Town 3000";
  lines[4_000] = "Town 4000,lots";
  await page.getByLabel("Name of the new dataset").fill(name);
  await page.getByLabel(importFileLabel).setInputFiles({
    name: "bad.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`${lines.join("\n")}\n`),
  });
  await page.getByRole("button", { name: "Import dataset" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "3 lines have problems" });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole("listitem")).toHaveText([
    'Line 1501, column "people": expected a number, got "many".',
    "Line 3001: expected 2 values (one per column), got 1.",
    'Line 4001, column "people": expected a number, got "lots".',
  ]);
  await page.goto("/admin/datasets");
  await expect(page.getByRole("link", { name })).toHaveCount(0);
  await context.close();
});
