import { expect, test } from "@playwright/test";
import { expectAxeClean, signedInPage, uniqueName } from "./content-support";
import { importFileLabel } from "./support";

// European exports: semicolons between values and decimal commas. The preview detects both,
// says what it chose, lets the user change it, and the saved dataset has typed columns.

const semicolonCsv = [
  "date;region;product;revenue;units",
  '2026-01-05;Nord;Chaise;"4.222,5";12',
  "2026-01-06;Sud;Table;1.050,25;3",
  "2026-01-07;Est;Lampe;99,9;1",
].join("\n");

test("a semicolon CSV with decimal commas becomes five typed columns, and the reading can be changed", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const form = page.getByRole("region", { name: "Import a file" });
  await form.getByLabel("Name of the new dataset").fill(uniqueName("Ventes"));
  await form.getByLabel("Or paste the rows (CSV, JSON or NDJSON text)").fill(semicolonCsv);

  const preview = form.getByRole("region", { name: "Preview of the rows" });
  await expect(preview.getByText("Preview: 5 columns, the first 3 of 3 rows")).toBeVisible();
  await expect(
    form.getByText("Values separated by semicolons; decimal comma (4.222,5)."),
  ).toBeVisible();
  await expect(preview.getByRole("columnheader", { name: "revenue (number)" })).toBeVisible();
  await expectAxeClean(page);

  // Read as commas, the same text is one column per line: the user sees it before saving.
  await form.getByLabel("Separator").selectOption(",");
  await expect(preview.getByText("Preview: 5 columns")).toHaveCount(0);
  await expect(form.getByText(/Preview: 1 columns/)).toBeVisible();
  await form.getByLabel("Separator").selectOption("auto");
  await expect(preview.getByText("Preview: 5 columns, the first 3 of 3 rows")).toBeVisible();

  await form.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/);
  await expect(page.getByLabel("revenue, row 1")).toHaveValue("4222.5");
  await expect(page.getByLabel("units, row 3")).toHaveValue("1");
  await context.close();
});

test("a semicolon file imported as a new dataset is read as the file says, and the choice shows first", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const importCard = page.getByRole("region", { name: "Import a file" });
  await importCard.getByLabel("Name of the new dataset").fill(uniqueName("Ventes fichier"));
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "ventes.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(semicolonCsv),
  });
  await expect(
    importCard.getByText("Values separated by semicolons; decimal comma (4.222,5)."),
  ).toBeVisible();
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/);
  await expect(page.getByLabel("revenue, row 1")).toHaveValue("4222.5");
  await expect(page.getByLabel("revenue, row 2")).toHaveValue("1050.25");
  await context.close();
});
