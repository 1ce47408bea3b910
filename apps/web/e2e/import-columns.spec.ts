import { expect, test } from "@playwright/test";
import { expectAxeClean, importCsvAsEditor, signedInPage, uniqueName } from "./content-support";
import { testUser } from "./support";

// The CSV preview lists every problem of the file at once, each with its line, and Save stays
// off until they are fixed; each column can be renamed and given another type before saving.

test("the preview lists every bad line at once and Save stays off until they are fixed", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Name", { exact: true }).fill(uniqueName("Problems"));
  const lines = Array.from(
    { length: 30 },
    (_, index) => `2026-01-${String(index + 1).padStart(2, "0")},North,${index * 10}`,
  );
  lines[2] = "2026-01-03,North,ten"; // line 4
  lines[7] = "2026-01-08,North,eighty"; // line 9
  lines[10] = "2026-01-11,North"; // line 12
  lines[20] = "2026-02-30,South,200"; // line 22: no such day
  await page.getByLabel("CSV text").fill(["day,region,revenue", ...lines].join("\n"));

  const problems = page.getByRole("region", { name: /4 problems in the file/ });
  await expect(problems).toBeVisible();
  await expect(problems.getByRole("listitem")).toHaveText([
    'Line 4, column "revenue": expected a number, got "ten".',
    'Line 9, column "revenue": expected a number, got "eighty".',
    "Line 12: expected 3 values (one per column), got 2.",
    'Line 22, column "day": expected a date (yyyy-mm-dd), got "2026-02-30".',
  ]);
  await expect(page.getByRole("button", { name: "Save dataset" })).toBeDisabled();
  await expectAxeClean(page);

  // Typing the revenue column as text clears its two problems; the others stay.
  await page.getByLabel("Type of column revenue").selectOption("string");
  await expect(page.getByRole("region", { name: /2 problems in the file/ })).toBeVisible();
  await context.close();
});

test("columns are saved under the name and type chosen in the preview", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Name", { exact: true }).fill(uniqueName("Codes"));
  await page.getByLabel("CSV text").fill("code,amount\n001,5\n002,7\n010,9\n");

  await expect(page.getByLabel("Type of column code")).toHaveValue("auto");
  // Codes with leading zeros are identifiers: detected as text, so "001" is never 1.
  await expect(page.getByLabel("Type of column code").locator("option:checked")).toHaveText(
    "Detected: string",
  );
  await page.getByLabel("Name for column code").fill("Product code");
  await page.getByLabel("Type of column code").selectOption("string");
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByRole("columnheader", { name: "Product code (string)" })).toBeVisible();
  await expect(preview.getByRole("cell", { name: "001" })).toBeVisible();

  // A name that clashes with another column is refused before anything is saved.
  await page.getByLabel("Name for column code").fill("amount");
  await expect(page.getByText(/"amount" is already the name of column 2/).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Save dataset" })).toBeDisabled();
  await page.getByLabel("Name for column code").fill("Product code");

  await page.getByRole("button", { name: "Save dataset" }).click();
  await page.waitForURL(/\/admin\/datasets\/(?!new)[^/?]+$/);
  await expect(page.getByLabel("Product code, row 1")).toHaveValue("001");
  await expect(page.getByLabel("amount, row 3")).toHaveValue("9");
  await context.close();
});

test("row counts are written in the reader's locale", async ({ browser }) => {
  const rows = Array.from({ length: 1500 }, (_, index) => `${index},${(index * 7) % 101}`);
  const created = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(uniqueName("Counted"))}`,
    ["n,value", ...rows].join("\n"),
  );
  for (const [locale, count] of [
    ["de-DE", "1.500 rows"],
    ["en-GB", "1,500 rows"],
    ["fr-FR", "1\u202f500 rows"],
  ] as const) {
    const context = await browser.newContext({
      storageState: testUser("editor").storageState,
      locale,
    });
    const page = await context.newPage();
    await page.goto(`/admin/datasets/${created.datasetId}`);
    await expect(page.getByText(`${count} · version`)).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Row pages" })).toContainText(count);
    await context.close();
  }
});
