import { readFileSync } from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectAxeClean, openImportCard, previewCell, uniqueName } from "./content-support";
import { horizontalOverflow, importFileLabel, vegaDataPath } from "./support";

// One import flow with a preview (issue 25): a file chosen, dropped or pasted is read by the
// server with the import's own rules before anything is saved; its encoding, each column's type
// and format and its first rows are shown and can be changed, and the import stores what the
// preview showed.

const pasteLabel = "Or paste the rows (CSV, JSON or NDJSON text)";

async function importAndOpen(page: Page, card: Locator) {
  await card.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/, { timeout: 90_000 });
}

test("a Latin-1 file: its encoding is detected and shown, another one names the line that fails, and it imports as written", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Latin-1"));
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "cities.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("name,city\nJosé,München\nFrançois,Köln\n", "latin1"),
  });
  await expect(importCard.getByText(/^Read as (windows-1252|ISO-8859-1) \(detected/)).toBeVisible();
  await expect(previewCell(importCard, "München")).toBeVisible();
  await expect(previewCell(importCard, "François")).toBeVisible();

  await importCard.getByLabel("Encoding", { exact: true }).selectOption("UTF-8");
  await expect(importCard.getByText(/^Line 2: .*not valid UTF-8/)).toBeVisible();
  await expect(importCard.getByText(/an import of this file would save nothing/)).toBeVisible();
  await expectAxeClean(page);

  await importCard.getByLabel("Encoding", { exact: true }).selectOption("auto");
  await expect(previewCell(importCard, "München")).toBeVisible();
  await importAndOpen(page, importCard);
  await expect(page.getByRole("cell", { name: "München", exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "François", exact: true })).toBeVisible();
  await context.close();
});

test("stocks.csv: 'Jan 1 2000' is read as MMM d yyyy, a column retyped in the preview is stored as chosen", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Stocks"));
  await importCard.getByLabel(importFileLabel).setInputFiles(vegaDataPath("stocks.csv"));
  const dateFormat = importCard.getByLabel("Format of column date");
  await expect(dateFormat.locator("option:checked")).toHaveText(
    "As read: Jan 31 2000 (MMM d yyyy)",
  );
  await expect(previewCell(importCard, "2000-01-01")).toBeVisible();
  await importCard.getByLabel("Type of column price").selectOption("string");
  await expect(
    importCard.getByRole("columnheader", { name: "price (text)", exact: true }),
  ).toBeVisible();
  await importAndOpen(page, importCard);
  await expect(page.getByText(/^560 rows · version 1/)).toBeVisible();
  await expect(page.getByRole("cell", { name: "39.81", exact: true }).first()).toBeVisible();
  await context.close();
});

test("pasted rows whose dates cannot tell day from month: the preview says so, and the chosen reading is stored", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Pasted days"));
  await importCard.getByLabel(pasteLabel).fill("day,visits\n01/02/2024,1\n03/04/2024,2\n");
  await expect(importCard.getByText(/the file cannot tell which comes first/)).toBeVisible();
  await expect(previewCell(importCard, "2024-01-02")).toBeVisible();
  await importCard.getByLabel("Format of column day").selectOption("d/M/yyyy");
  await expect(previewCell(importCard, "2024-02-01")).toBeVisible();
  await expect(previewCell(importCard, "2024-04-03")).toBeVisible();
  await importAndOpen(page, importCard);
  await expect(page.getByRole("cell", { name: "2024-02-01", exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "2024-04-03", exact: true })).toBeVisible();
  await context.close();
});

test("zipcodes.csv, past the preview's first megabyte: postal codes stay text in the preview and in all 42,049 rows", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Zip codes"));
  await importCard.getByLabel(importFileLabel).setInputFiles(vegaDataPath("zipcodes.csv"));
  await expect(
    importCard.getByRole("columnheader", { name: "zip_code (text)", exact: true }),
  ).toBeVisible();
  await expect(previewCell(importCard, "00501")).toBeVisible();
  await expect(importCard.getByText(/^The first 1,000 rows fit\./)).toBeVisible();
  await importAndOpen(page, importCard);
  await expect(page.getByText(/^42,049 rows · version 1/)).toBeVisible();
  await expect(page.getByRole("cell", { name: "00501", exact: true }).first()).toBeVisible();
  await context.close();
});

test("a dropped file is previewed as a chosen one; the preview is keyboard-usable, axe-clean and fits 375 px", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Dropped"));
  await page.setViewportSize({ width: 375, height: 800 });
  const csv = readFileSync(vegaDataPath("seattle-weather.csv"), "utf8");
  const transfer = await page.evaluateHandle((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], "seattle-weather.csv", { type: "text/csv" }));
    return data;
  }, csv);
  const dropZone = importCard.getByLabel(importFileLabel).locator("..");
  await dropZone.dispatchEvent("dragover", { dataTransfer: transfer });
  await dropZone.dispatchEvent("drop", { dataTransfer: transfer });
  await expect(previewCell(importCard, "drizzle")).toBeVisible();
  await expect(
    importCard.getByRole("columnheader", { name: "date (date)", exact: true }),
  ).toBeVisible();
  // The pickers are reached from the keyboard.
  const typePicker = importCard.getByLabel("Type of column weather");
  await typePicker.focus();
  await expect(typePicker).toBeFocused();
  await expectAxeClean(page);
  expect(await horizontalOverflow(page)).toBe(0);
  await context.close();
});

test("yes/no and TRUE/FALSE columns come in as true/false columns, empty markers empty", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Booleans"));
  await importCard
    .getByLabel(pasteLabel)
    .fill("order,paid,gift\nA-1,yes,TRUE\nA-2,No,false\nA-3,N/A,True\n");
  await expect(
    importCard.getByRole("columnheader", { name: "paid (true/false)", exact: true }),
  ).toBeVisible();
  await expect(
    importCard.getByRole("columnheader", { name: "gift (true/false)", exact: true }),
  ).toBeVisible();
  await expect(importCard.getByLabel("Type of column paid").locator("option:checked")).toHaveText(
    "As detected: true/false",
  );
  await importAndOpen(page, importCard);
  await expect(page.getByText(/^3 rows · version 1/)).toBeVisible();
  await expect(page.getByRole("columnheader", { name: /paid/ })).toContainText("boolean");
  await expect(page.getByRole("cell", { name: "false", exact: true }).first()).toBeVisible();
  await context.close();
});

test("every bad line of the rows read is listed, with the total, before anything is saved; retyping the column clears them", async ({
  browser,
}) => {
  const name = uniqueName("Bad lines");
  const { context, page, importCard } = await openImportCard(browser, name);
  // 160 rows, every twentieth "n/k" in a number column: 8 misfits, few enough (at most 10%) for
  // the column to stay a number column, so each is named at its line.
  const lines = Array.from({ length: 160 }, (_, i) => `${i},${i % 20 === 0 ? "n/k" : i * 2}`);
  await importCard.getByLabel(pasteLabel).fill(`id,amount\n${lines.join("\n")}\n`);
  const problems = importCard.getByRole("list").filter({ hasText: 'column "amount"' });
  await expect(problems.getByRole("listitem")).toHaveCount(8);
  await expect(problems.getByRole("listitem").first()).toHaveText(
    /^Line 2, column "amount": expected a number, got "n\/k"\./,
  );
  await expect(importCard.getByText(/^8 problems in the file/)).toBeVisible();
  await importCard.getByLabel("Type of column amount").selectOption("string");
  await expect(importCard.getByText(/problems in the file/)).toHaveCount(0);
  await importAndOpen(page, importCard);
  await expect(page.getByText(/^160 rows · version 1/)).toBeVisible();
  await context.close();
});

test("importing into a dataset: the preview keeps the dataset's types and names a header that does not match", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Into"));
  await importCard.getByLabel(pasteLabel).fill("day,visits\n31.01.2024,5\n");
  await importAndOpen(page, importCard);
  const intoCard = page.getByRole("region", { name: "Import rows from a file" });
  await intoCard.getByLabel(pasteLabel).fill("day,visits\n29.02.2024,7\n");
  await expect(intoCard.getByText("date (the dataset's)")).toBeVisible();
  await expect(previewCell(intoCard, "2024-02-29")).toBeVisible();
  await intoCard.getByLabel(pasteLabel).fill("when,visits\n29.02.2024,7\n");
  await expect(intoCard.getByText(/the header must name the dataset's columns/)).toBeVisible();
  await intoCard.getByLabel(pasteLabel).fill("day,visits\n29.02.2024,7\n");
  await expect(previewCell(intoCard, "2024-02-29")).toBeVisible();
  await intoCard.getByRole("button", { name: "Import rows" }).click();
  await expect(page.getByText(/^2 rows · version 2/)).toBeVisible({ timeout: 60_000 });
  await context.close();
});

test("NDJSON with nested fields: the preview shows the dotted columns, typed", async ({
  browser,
}) => {
  const { context, importCard } = await openImportCard(browser, uniqueName("Nested"));
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "orders.ndjson",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(
      '{"id":"A-1","customer":{"city":"Köln","zip":"01067"},"total":12.5,"paid":true}\n' +
        '{"id":"A-2","customer":{"city":"Lyon","zip":"69001"},"total":7,"paid":false}\n',
    ),
  });
  for (const header of [
    "customer.city (text)",
    "customer.zip (text)",
    "total (number)",
    "paid (true/false)",
  ]) {
    await expect(importCard.getByRole("columnheader", { name: header, exact: true })).toBeVisible();
  }
  await expect(previewCell(importCard, "01067")).toBeVisible();
  await expect(importCard.getByText(/^Read as UTF-8/)).toBeVisible();
  await context.close();
});

test("a table below a title and notes: the preview offers its header row, and the rows import from there", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Below notes"));
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "report.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      "Sales report,,\nExported 2024-03-01,,\n\nregion,month,revenue\nNorth,2024-01,10\nSouth,2024-01,7\n",
    ),
  });
  await expect(
    importCard.getByText("The table seems to start on line 4; the lines above it look like notes."),
  ).toBeVisible();
  await expectAxeClean(page);
  await importCard.getByRole("button", { name: "Read line 4 as the header row" }).click();
  await expect(importCard.getByLabel("Header row (the line that names the columns)")).toHaveValue(
    "4",
  );
  await expect(
    importCard.getByRole("columnheader", { name: "revenue (number)", exact: true }),
  ).toBeVisible();
  await expect(importCard.getByText(/problems in the file/)).toHaveCount(0);
  await importAndOpen(page, importCard);
  await expect(page.getByText(/^2 rows · version 1/)).toBeVisible();
  await expect(page.getByRole("cell", { name: "North", exact: true })).toBeVisible();
  await context.close();
});

test("a bad line past the rows the preview reads: the import names it and offers the fix, and nothing is saved", async ({
  browser,
}) => {
  const name = uniqueName("Late bad line");
  const { context, page, importCard } = await openImportCard(browser, name);
  const lines = Array.from({ length: 1_500 }, (_, i) => `${i},${i === 1_200 ? "twelve" : i * 3}`);
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "late.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`id,amount\n${lines.join("\n")}\n`),
  });
  await expect(
    importCard.getByRole("columnheader", { name: "amount (number)", exact: true }),
  ).toBeVisible();
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  const alert = importCard.getByRole("alert");
  await expect(alert).toContainText('Line 1202, column "amount": expected a number, got "twelve".');
  await expect(alert).toContainText("Nothing was changed.");
  await expect(alert).toContainText("Retype the column or pick another format in the preview");
  await page.goto("/admin/datasets");
  await expect(page.getByText(name)).toHaveCount(0);
  await context.close();
});
