import { expect, request, test } from "@playwright/test";
import ExcelJS from "exceljs";
import { importEventsHeader } from "../src/features/datasets/import-events";
import { expectAxeClean, openImportCard, uniqueName } from "./content-support";
import { appBaseURL, horizontalOverflow, importFileLabel, testUser } from "./support";

// Excel workbooks through the import form (issue 25): the sheet chosen in the form comes in, typed
// as a CSV file's columns are (real dates as days, postal codes with their leading zeros as text);
// the preview lists the workbook's sheets to choose from; a sheet the workbook does not have is
// refused by name, with its sheets listed and nothing saved.

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
  const { context, page, importCard } = await chooseWorkbook(browser, uniqueName("Workbook"));
  await expect(importCard.getByText(/^Read as an Excel workbook/)).toBeVisible();
  await expect(importCard.getByLabel("Separator")).toHaveCount(0);
  // The preview lists the workbook's sheets; the first (notes only) is read until one is chosen.
  const sheet = importCard.getByLabel("Sheet to import");
  await expect(sheet.locator("option")).toHaveText(["Notes", "Sales 2024"]);
  await expect(sheet.locator("option:checked")).toHaveText("Notes");
  // Chosen from the keyboard; the list stays (and keeps focus) while the preview reloads.
  await sheet.focus();
  await page.keyboard.press("ArrowDown");
  await expect(sheet).toHaveValue("Sales 2024");
  const preview = importCard.getByRole("region", { name: "Preview of the rows" });
  await expect(preview.getByRole("columnheader", { name: "day (date)" })).toBeVisible();
  await expect(preview.getByRole("cell", { name: "00501", exact: true })).toBeVisible();
  await expect(sheet).toBeFocused();
  await expectAxeClean(page);
  // The workbook's preview fits a phone: no sideways scroll at 375 px.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/, { timeout: 60_000 });
  await expect(page.getByText(/^2 rows · version 1/)).toBeVisible();
  for (const text of ["2024-02-29", "00501", "02134", "München"]) {
    await expect(page.getByRole("cell", { name: text, exact: true }).first()).toBeVisible();
  }
  await context.close();
});

test("a sheet the workbook does not have is refused by name, and nothing is saved", async () => {
  // The form offers only the workbook's sheets; the route is asked directly for another one.
  const name = uniqueName("Workbook missing sheet");
  const editor = await request.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("editor").storageState,
  });
  const response = await editor.post(
    `/api/datasets/import?name=${encodeURIComponent(name)}&format=xlsx&sheet=${encodeURIComponent("Sales 2025")}`,
    {
      headers: {
        Origin: appBaseURL(),
        "Content-Type": "application/octet-stream",
        [importEventsHeader]: "1",
      },
      data: await salesWorkbook(),
    },
  );
  const events = (await response.text()).trim().split("\n");
  const last = JSON.parse(events.at(-1) ?? "{}") as { type?: string; message?: string };
  expect(last.type).toBe("error");
  expect(last.message).toContain('no sheet named "Sales 2025"');
  expect(last.message).toContain('"Notes", "Sales 2024"');
  const list = await editor.get("/admin/datasets");
  expect(await list.text()).not.toContain(name);
  await editor.dispose();
});
