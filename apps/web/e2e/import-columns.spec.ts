import { expect, test } from "@playwright/test";
import { expectAxeClean, importCsvAsEditor, signedInPage, uniqueName } from "./content-support";
import { testUser } from "./support";

// The import's preview lists every problem of the file at once, each with its line, before
// anything is saved; each column can be renamed and given another type before the import.

test("the preview lists every bad line at once; the import refuses them and saves nothing", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const form = page.getByRole("region", { name: "Import a file" });
  const name = uniqueName("Problems");
  await form.getByLabel("Name of the new dataset").fill(name);
  const lines = Array.from(
    { length: 30 },
    (_, index) => `2026-01-${String(index + 1).padStart(2, "0")},North,${index * 10}`,
  );
  lines[2] = "2026-01-03,North,ten"; // line 4
  lines[7] = "2026-01-08,North,eighty"; // line 9
  lines[10] = "2026-01-11,North"; // line 12
  lines[20] = "2026-02-30,South,200"; // line 22: no such day
  await form
    .getByLabel("Or paste the rows (CSV, JSON or NDJSON text)")
    .fill(["day,region,revenue", ...lines].join("\n"));

  const expected = [
    'Line 4, column "revenue": expected a number, got "ten".',
    'Line 9, column "revenue": expected a number, got "eighty".',
    "Line 12: expected 3 values (one per column), got 2.",
    'Line 22, column "day": expected a date (yyyy-mm-dd), got "2026-02-30".',
  ];
  const problems = form.getByRole("region", { name: /4 problems in the file/ });
  await expect(problems).toBeVisible();
  await expect(problems.getByRole("listitem")).toHaveText(expected);
  await expect(form.getByText(/an import of this file would save nothing/)).toBeVisible();
  await expectAxeClean(page);

  // The import reads the file again on the server and refuses the same lines.
  await form.getByRole("button", { name: "Import dataset" }).click();
  const refusal = form.getByRole("alert");
  await expect(refusal).toContainText("4 lines have problems; nothing was changed.");
  await expect(refusal.getByRole("listitem")).toHaveText(expected);

  // Typing the revenue column as text clears its two problems; the others stay.
  await form.getByLabel("Type of column revenue").selectOption("string");
  await expect(form.getByRole("region", { name: /2 problems in the file/ })).toBeVisible();
  await page.goto("/admin/datasets");
  await expect(page.getByRole("link", { name })).toHaveCount(0);
  await context.close();
});

test("columns are saved under the name and type chosen in the preview", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const form = page.getByRole("region", { name: "Import a file" });
  await form.getByLabel("Name of the new dataset").fill(uniqueName("Codes"));
  await form
    .getByLabel("Or paste the rows (CSV, JSON or NDJSON text)")
    .fill("code,amount\n001,5\n002,7\n010,9\n");

  const codeType = form.getByLabel("Type of column code");
  await expect(codeType).toHaveValue("detected");
  // Codes with leading zeros are identifiers: detected as text, so "001" is never 1.
  await expect(codeType.locator("option:checked")).toHaveText("As detected: text");
  const codeName = form.getByLabel("Name for column code");
  await codeName.fill("Product code");
  await codeType.selectOption("string");
  const preview = form.getByRole("region", { name: "Preview of the rows" });
  await expect(preview.getByRole("columnheader", { name: "Product code (text)" })).toBeVisible();
  await expect(preview.getByRole("cell", { name: "001", exact: true })).toBeVisible();
  // The rename stays when the type changes back.
  await codeType.selectOption("detected");
  await expect(codeName).toHaveValue("Product code");
  await expect(preview.getByRole("columnheader", { name: "Product code (text)" })).toBeVisible();

  // A name that clashes with another column is named before anything is saved.
  await codeName.fill("amount");
  await expect(form.getByText(/"amount" is already the name of column 2/).first()).toBeVisible();
  await expect(form.getByText(/an import of this file would save nothing/)).toBeVisible();
  // A name too long is counted and refused in words, never cut.
  const long = "A product code as the supplier writes it on every delivery note sent";
  await codeName.fill(long);
  await expect(codeName).toHaveValue(long);
  await expect(codeName).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText(`${long.length} characters: keep it under 65.`)).toBeVisible();
  await expect(form.getByText("A column's name has at most 64 characters.")).toBeVisible();
  await form.getByRole("button", { name: "Import dataset" }).click();
  await expect(form.getByRole("alert")).toContainText("A column's new name is too long");
  await expectAxeClean(page);

  await codeName.fill("Product code");
  await expect(preview.getByRole("columnheader", { name: "Product code (text)" })).toBeVisible();
  await form.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/);
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
