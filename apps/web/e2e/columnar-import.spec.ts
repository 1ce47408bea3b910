import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { expectAxeClean, openImportCard, uniqueName } from "./content-support";
import { e2eRowsLimits, importFileLabel, vegaDataPath } from "./support";

// Parquet and Arrow files through the import form (issue 25): the vega-datasets package's own
// flights files. The Arrow file comes in whole with its column types; the 3,000,000-row Parquet
// file comes in where a dataset may hold that many rows (the DuckDB data file) and is refused by
// name where it may not (PostgreSQL), with nothing saved.

test("an Arrow file of flights (vega-datasets) imports whole, with its number columns", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Flights"));
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "flights-200k.arrow",
    mimeType: "application/vnd.apache.arrow.file",
    buffer: readFileSync(vegaDataPath("flights-200k.arrow")),
  });
  // A columnar file has no separator to choose: the form says how it reads the file instead.
  await expect(importCard.getByText(/^Read as an Arrow IPC file/)).toBeVisible();
  await expect(importCard.getByLabel("Separator")).toHaveCount(0);
  await expectAxeClean(page);
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/, { timeout: 60_000 });
  await expect(page.getByText(/^200,000 rows · version 1/)).toBeVisible();
  for (const name of ["delay", "distance", "time"]) {
    await expect(page.getByRole("columnheader", { name: new RegExp(`^${name}`) })).toBeVisible();
  }
  await context.close();
});

test("a Parquet file of 3,000,000 flights imports where the engine holds it, and is refused by name where not", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const name = uniqueName("Flights 3m");
  const { context, page, importCard } = await openImportCard(browser, name);
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "flights-3m.parquet",
    mimeType: "application/vnd.apache.parquet",
    buffer: readFileSync(vegaDataPath("flights-3m.parquet")),
  });
  await expect(importCard.getByText(/^Read as Parquet/)).toBeVisible();
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  if (e2eRowsLimits.maxImportRows >= 3_000_000) {
    await page.waitForURL(/saved=import/, { timeout: 150_000 });
    await expect(page.getByText(/^3,000,000 rows · version 1/)).toBeVisible();
  } else {
    const alert = importCard.getByRole("alert");
    await expect(alert).toContainText(
      `a dataset holds at most ${e2eRowsLimits.maxImportRows.toLocaleString("en-US")} rows`,
      { timeout: 150_000 },
    );
    await page.goto("/admin/datasets");
    await expect(page.getByText(name)).toHaveCount(0);
  }
  await context.close();
});
