import { expect, test } from "@playwright/test";
import { expectAxeClean, openImportCard, previewCell, uniqueName } from "./content-support";
import { importFileLabel } from "./support";

// The dates, times and numbers people's files hold (issue 25), each through the form in Chromium:
// detected and shown in the preview as they will be stored, the serial ones (Unix seconds and
// milliseconds, Excel day numbers) read as times once the person picks their format, and the
// dataset holds what the preview showed.

const formatsCsv = [
  "iso,dotted,long,stamp,price,share,delta,unix,millis,serial",
  '2024-02-01T10:00:00+02:00,31.01.2024,1 January 2000,2024-02-01 10:00,"$1,234.50",12.5%,"(1,234.5)",946684800,946684800000,36526',
  "2024-02-02T23:30:00-05:00,29.02.2024,15 March 2001,2024-02-02 18:45,$99.00,0.5%,(7),946771200,946771200000,36527",
].join("\n");

test("dates, times and numbers as files write them are read, retyped and stored as the preview shows", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Formats"));
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "formats.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(formatsCsv),
  });
  const preview = importCard.getByRole("region", { name: "Preview of the rows" });
  const header = (name: string) => preview.getByRole("columnheader", { name, exact: true });
  // Detected: ISO 8601 with offsets, day-first dots, month names, a time without seconds.
  await expect(header("iso (date and time)")).toBeVisible();
  await expect(previewCell(importCard, "2024-02-01T08:00:00.000Z")).toBeVisible();
  await expect(previewCell(importCard, "2024-02-03T04:30:00.000Z")).toBeVisible();
  await expect(header("dotted (date)")).toBeVisible();
  await expect(previewCell(importCard, "2024-01-31")).toBeVisible();
  await expect(previewCell(importCard, "2024-02-29")).toBeVisible();
  await expect(header("long (date)")).toBeVisible();
  await expect(previewCell(importCard, "2000-01-01")).toBeVisible();
  await expect(previewCell(importCard, "2001-03-15")).toBeVisible();
  await expect(header("stamp (date and time)")).toBeVisible();
  await expect(previewCell(importCard, "2024-02-02T18:45:00.000Z")).toBeVisible();
  // Numbers: grouping, currency, percent, negatives in parentheses.
  await expect(header("price (number)")).toBeVisible();
  await expect(previewCell(importCard, "1234.5")).toBeVisible();
  await expect(header("share (number)")).toBeVisible();
  await expect(previewCell(importCard, "0.125")).toBeVisible();
  await expect(header("delta (number)")).toBeVisible();
  await expect(previewCell(importCard, "-1234.5")).toBeVisible();
  await expect(previewCell(importCard, "-7")).toBeVisible();

  // Serial numbers stay numbers until the person says what they count.
  await expect(header("unix (number)")).toBeVisible();
  for (const [column, type, format, first] of [
    ["unix", "timestamp", "seconds since 1970", "2000-01-01T00:00:00.000Z"],
    ["millis", "timestamp", "milliseconds since 1970", "2000-01-02T00:00:00.000Z"],
    ["serial", "date", "Excel day number", "2000-01-01"],
  ] as const) {
    await importCard.getByLabel(`Type of column ${column}`).selectOption(type);
    const formatPicker = importCard.getByLabel(`Format of column ${column}`);
    const option = formatPicker.locator("option", { hasText: format }).first();
    await formatPicker.selectOption({ label: (await option.textContent()) ?? format });
    await expect(previewCell(importCard, first)).toBeVisible();
  }
  await expect(importCard.getByRole("region", { name: /problems? in the file/ })).toHaveCount(0);
  await expectAxeClean(page);

  await importCard.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/, { timeout: 60_000 });
  for (const [label, value] of [
    ["iso, row 1", "2024-02-01T08:00:00.000Z"],
    ["dotted, row 2", "2024-02-29"],
    ["long, row 1", "2000-01-01"],
    ["stamp, row 1", "2024-02-01T10:00:00.000Z"],
    ["price, row 1", "1234.5"],
    ["share, row 2", "0.005"],
    ["delta, row 1", "-1234.5"],
    ["unix, row 2", "2000-01-02T00:00:00.000Z"],
    ["millis, row 1", "2000-01-01T00:00:00.000Z"],
    ["serial, row 2", "2000-01-02"],
  ] as const) {
    await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
  }
  await context.close();
});

test("a UTF-16 file with its byte order mark is read as UTF-16, and says so", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("UTF-16"));
  const text = "city,people\nZürich,421878\n東京,13960000\n";
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "cities.csv",
    mimeType: "text/csv",
    buffer: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]),
  });
  await expect(
    importCard.getByText(/^Read as UTF-16LE \(from the file's byte order mark\)/),
  ).toBeVisible();
  await expect(previewCell(importCard, "東京")).toBeVisible();
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/);
  await expect(page.getByLabel("city, row 2", { exact: true })).toHaveValue("東京");
  await expect(page.getByLabel("people, row 1", { exact: true })).toHaveValue("421878");
  await context.close();
});

test("a file that is not text (an old .xls workbook) is named as what it seems, and nothing is saved", async ({
  browser,
}) => {
  const name = uniqueName("Old workbook");
  const { context, page, importCard } = await openImportCard(browser, name);
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "report.xls",
    mimeType: "application/vnd.ms-excel",
    buffer: Buffer.from([
      0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0, 0x3e, 0, 3, 0,
    ]),
  });
  await expect(
    importCard.getByText(/looks like an Excel 97-2003 workbook \(\.xls\)/),
  ).toBeVisible();
  await expect(importCard.getByRole("region", { name: "Preview of the rows" })).toHaveCount(0);
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  await expect(importCard.getByRole("alert")).toContainText("Excel 97-2003 workbook");
  await page.goto("/admin/datasets");
  await expect(page.getByRole("link", { name })).toHaveCount(0);
  await context.close();
});
