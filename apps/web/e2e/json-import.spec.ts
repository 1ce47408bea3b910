import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { expectAxeClean, signedInPage, uniqueName } from "./content-support";
import { importFileLabel, vegaDataPath } from "./support";

// JSON and NDJSON files through the import form (issue 25): a real table of the vega-datasets
// package comes in with its types; a broken NDJSON file is named by its line and saves nothing.

const carsJson = readFileSync(vegaDataPath("cars.json"));

test("a JSON file of cars (vega-datasets) imports as a dataset with numbers, days and empty values", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const importCard = page.getByRole("region", { name: "Import a file" });
  await importCard.getByLabel("Name of the new dataset").fill(uniqueName("Cars"));
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

test("a broken NDJSON line is named, with nothing saved", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const importCard = page.getByRole("region", { name: "Import a file" });
  await importCard.getByLabel("Name of the new dataset").fill(uniqueName("Broken lines"));
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
