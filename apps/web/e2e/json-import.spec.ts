import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { expectAxeClean, openImportCard, uniqueName } from "./content-support";
import { horizontalOverflow, importFileLabel, vegaDataPath } from "./support";

// JSON and NDJSON files through the import form (issue 25): a real table of the vega-datasets
// package comes in with its types; a broken NDJSON file is named by its line and saves nothing.

const carsJson = readFileSync(vegaDataPath("cars.json"));

test("a JSON file of cars (vega-datasets) imports as a dataset with numbers, days and empty values", async ({
  browser,
}) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Cars"));
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "cars.json",
    mimeType: "application/json",
    buffer: carsJson,
  });
  // JSON has no separator to choose: the form says how it reads the file instead.
  await expect(importCard.getByText(/^Read as JSON: an array of objects/)).toBeVisible();
  await expect(importCard.getByLabel("Separator")).toHaveCount(0);
  await expectAxeClean(page);
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/);
  await expect(page.getByText(/^406 rows · version 1/)).toBeVisible();
  await expect(page.getByLabel("Name, row 1", { exact: true })).toHaveValue(
    "chevrolet chevelle malibu",
  );
  await expect(page.getByLabel("Year, row 1", { exact: true })).toHaveValue("1970-01-01");
  await expect(page.getByLabel("Horsepower, row 1", { exact: true })).toHaveValue("130");
  await context.close();
});

test("a JSON array larger than the preview reads (movies.json) is previewed from its first rows and imported whole", async ({
  browser,
}) => {
  const movies = readFileSync(vegaDataPath("movies.json"));
  expect(movies.length).toBeGreaterThan(1024 * 1024);
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Movies"));
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "movies.json",
    mimeType: "application/json",
    buffer: movies,
  });
  const preview = importCard.getByRole("region", { name: "Preview of the rows" });
  await expect(preview.getByText(/the 1,000 rows read so far/)).toBeVisible();
  await expect(
    preview.getByRole("columnheader", { name: "Release Date (date)", exact: true }),
  ).toBeVisible();
  await expect(preview.getByRole("cell", { name: "The Land Girls", exact: true })).toBeVisible();
  // Sixteen columns, each with a name, type and format picker: still no sideways scroll at 375 px.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await expectAxeClean(page);
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/, { timeout: 60_000 });
  await expect(page.getByText(/^3,201 rows · version 1/)).toBeVisible();
  await expect(page.getByLabel("Release Date, row 1", { exact: true })).toHaveValue("1998-06-12");
  await context.close();
});

test("a broken NDJSON line is named, with nothing saved", async ({ browser }) => {
  const { context, page, importCard } = await openImportCard(browser, uniqueName("Broken lines"));
  await importCard.getByLabel(importFileLabel).setInputFiles({
    name: "events.ndjson",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(
      '{"at": "2024-01-01", "n": 1}\n{"at": "2024-01-02", "n": 2}\n{"at": oops}\n',
    ),
  });
  await expect(importCard.getByText(/^Read as NDJSON: one object per line/)).toBeVisible();
  await importCard.getByRole("button", { name: "Import dataset" }).click();
  const alert = importCard.getByRole("alert");
  await expect(alert).toContainText("Line 3: not valid JSON");
  await expect(alert).toContainText("Nothing was changed.");
  await expect(page).toHaveURL(/\/admin\/datasets\/new$/);
  await context.close();
});
