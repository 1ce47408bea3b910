import { expect, test } from "@playwright/test";
import ExcelJS from "exceljs";
import { expectAxeClean, openImportCard, uniqueName } from "./content-support";
import { importFileLabel } from "./support";

// Excel workbooks through the import form (issue 25): the sheet named in the form comes in, typed
// as a CSV file's columns are (real dates as days, postal codes with their leading zeros as text);
// a sheet the workbook does not have is refused by name, with its sheets listed and nothing saved.

/** A workbook of two sheets, as a person's would be: notes first, then the table. */
async function salesWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet("Notes").addRow(["Exported from the shop"]);
  const sales = workbook.addWorksheet("Sales 2024");
  sales.addRow(["day", "zip", "region", "revenue"]);
  sales.addRow([new Date("2024-02-29T00:00:00Z"), "00501", "North", 1234.5]);
  sales.addRow([
    new Date("2024-03-01T00:00:00Z"),
    "02134",
    "München",
    { formula: "D2*2", result: 2469 },
  ]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The import card with the sales workbook chosen. */
async function chooseWorkbook(browser: import("@playwright/test").Browser, name: string) {
  const opened = await openImportCard(browser, name);
  await opened.importCard.getByLabel(importFileLabel).setInputFiles({
    name: "sales.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: await salesWorkbook(),
  });
  return opened;
}

test("an Excel workbook's named sheet imports with days, numbers and postal codes as a person would type them", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { context, page, importCard } = await chooseWorkbook(browser, uniqueName("Workbook"));
  await expect(importCard.getByText(/^Read as an Excel workbook/)).toBeVisible();
  await expect(importCard.getByLabel("Separator")).toHaveCount(0);
  await importCard.getByLabel("Sheet to import (optional)").fill("Sales 2024");
  await expectAxeClean(page);
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/, { timeout: 60_000 });
  await expect(page.getByText(/^2 rows · version 1/)).toBeVisible();
  for (const text of ["2024-02-29", "00501", "02134", "München"]) {
    await expect(page.getByRole("cell", { name: text, exact: true }).first()).toBeVisible();
  }
  await context.close();
});

test("a sheet the workbook does not have is refused by name, and nothing is saved", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const name = uniqueName("Workbook missing sheet");
  const { context, page, importCard } = await chooseWorkbook(browser, name);
  await importCard.getByLabel("Sheet to import (optional)").fill("Sales 2025");
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  const alert = importCard.getByRole("alert");
  await expect(alert).toContainText('no sheet named "Sales 2025"');
  await expect(alert).toContainText('"Notes", "Sales 2024"');
  await page.goto("/admin/datasets");
  await expect(page.getByText(name)).toHaveCount(0);
  await context.close();
});
