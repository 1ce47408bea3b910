import { readFileSync } from "node:fs";
import { expect, type Locator, test } from "@playwright/test";
import {
  createDashboardThroughForm,
  expectAxeClean,
  importCsvAsEditor,
  signedInPage,
  slugOf,
  uniqueName,
} from "./content-support";
import { vegaDataPath } from "./support";

// Periods anchored to the data, with real data: Seattle's weather (vega-datasets) ends on
// 2015-12-31. "The last 30 days of the data" counts back from that day, whatever today is; a tile
// counted back from today finds no rows there and says which period it looked at.

const weatherCsv = readFileSync(vegaDataPath("seattle-weather.csv"), "utf8");

/** Rain over the file's last 30 days, read from the file itself: the oracle. */
function rainOverLast30Days(): number {
  const [, ...lines] = weatherCsv.trim().split("\n");
  let total = 0;
  for (const line of lines) {
    const [date, precipitation] = line.split(",");
    if (date && date >= "2015-12-02" && date <= "2015-12-31") total += Number(precipitation);
  }
  return total;
}

async function addRainTile(form: Locator, label: string, countedFrom: string) {
  await form.getByLabel("Label").fill(label);
  await form.getByLabel("Column", { exact: true }).selectOption("precipitation");
  await form.getByLabel("Aggregation").selectOption("sum");
  await form.getByLabel("Dates from").selectOption("date");
  await form.getByLabel("Range").selectOption("last_n");
  await form.getByLabel('How many (for "the last")').fill("30");
  await form.getByLabel("Unit").selectOption("day");
  await form.getByLabel("Counted back from").selectOption({ label: countedFrom });
  await form.getByLabel("Compare with the period before").uncheck();
  await form.getByRole("button", { name: "Add stat tile" }).click();
}

test("a stat tile sums the last 30 days of a file that ends in 2015, and an empty one says why", async ({
  browser,
}) => {
  const datasetName = uniqueName("Seattle weather");
  await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    weatherCsv,
  );

  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Rain board");
  const slug = slugOf(title);
  await createDashboardThroughForm(page, title, { slug });

  const statForm = page.getByRole("form", { name: "Add a stat tile" });
  await statForm.getByLabel("Dataset").selectOption({ label: datasetName });
  await addRainTile(statForm, "Rain, last 30 days of the data", "the newest value in the data");
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await statForm.getByLabel("Dataset").selectOption({ label: datasetName });
  await addRainTile(statForm, "Rain, last 30 days", "today");
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await expectAxeClean(page);
  await page.getByRole("button", { name: `Publish ${title}` }).click();
  await expect(page.getByText("Published.")).toBeVisible();
  await context.close();

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  expect((await visitorPage.goto(`/d/${slug}`))?.status()).toBe(200);
  const anchored = visitorPage.locator(".seed-stat-tile", {
    hasText: "Rain, last 30 days of the data",
  });
  const expected = rainOverLast30Days();
  expect(expected).toBeGreaterThan(0);
  await expect(anchored.locator(".seed-stat-tile__value")).toHaveText(
    new Intl.NumberFormat("en-US").format(expected),
  );
  // Counted back from today: 2015's file holds no row there, and the tile says which days it read.
  const fromToday = visitorPage
    .locator(".seed-stat-tile")
    .filter({ has: visitorPage.getByText("Rain, last 30 days", { exact: true }) });
  await expect(fromToday.locator(".seed-stat-tile__empty")).toHaveText(
    /^No rows in the last 30 days \(\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\)\.$/,
  );
  await expectAxeClean(visitorPage);
  await visitor.close();
});

test("a stat tile compares last month with the same month a year before", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Year over year");
  const slug = slugOf(title);
  await createDashboardThroughForm(page, title, { slug });

  // The demo holds two years of daily revenue, ending yesterday: last month has a year before.
  const statForm = page.getByRole("form", { name: "Add a stat tile" });
  await statForm.getByLabel("Label").fill("Revenue last month, year over year");
  await statForm.getByLabel("Dataset").selectOption({ label: "Daily revenue by region" });
  await statForm.getByLabel("Column", { exact: true }).selectOption("revenue");
  await statForm.getByLabel("Aggregation").selectOption("sum");
  await statForm.getByLabel("Dates from").selectOption("day");
  await statForm.getByLabel("Range").selectOption("previous");
  await statForm.getByLabel("Unit").selectOption("month");
  await expect(statForm.getByLabel("Compare with the period before")).toBeChecked();
  await statForm
    .getByLabel("Compared with")
    .selectOption({ label: "the same period a year before" });
  await statForm.getByRole("button", { name: "Add stat tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await page.getByRole("button", { name: `Publish ${title}` }).click();
  await expect(page.getByText("Published.")).toBeVisible();
  await context.close();

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  expect((await visitorPage.goto(`/d/${slug}`))?.status()).toBe(200);
  const tile = visitorPage.locator(".seed-stat-tile", {
    hasText: "Revenue last month, year over year",
  });
  await expect(tile.locator(".seed-stat-tile__delta-label")).toHaveText("vs same period last year");
  await expect(tile.locator(".seed-stat-tile__delta-value")).toHaveText(/^[+\-\u2212]?\d/);
  await visitor.close();
});

/** The median of a column over the file's last 30 days, by the percentile rule written out. */
function medianOverLast30Days(column: string): number {
  const [header, ...lines] = weatherCsv.trim().split("\n");
  const at = (header ?? "").split(",").indexOf(column);
  const values = lines
    .map((line) => line.split(","))
    .filter(([date]) => date !== undefined && date >= "2015-12-02" && date <= "2015-12-31")
    .map((cells) => Number(cells[at]))
    .sort((a, b) => a - b);
  const h = (values.length - 1) * 0.5;
  const lo = values[Math.floor(h)] as number;
  const hi = values[Math.ceil(h)] as number;
  return lo === hi ? lo : lo * (1 - (h - Math.floor(h))) + hi * (h - Math.floor(h));
}

test("a stat tile shows the median daily high of the data's last 30 days, from real weather", async ({
  browser,
}) => {
  const datasetName = uniqueName("Seattle highs");
  await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    weatherCsv,
  );
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Highs board");
  const slug = slugOf(title);
  await createDashboardThroughForm(page, title, { slug });

  const form = page.getByRole("form", { name: "Add a stat tile" });
  await form.getByLabel("Dataset").selectOption({ label: datasetName });
  await form.getByLabel("Label").fill("Median high, last 30 days of the data");
  await form.getByLabel("Column", { exact: true }).selectOption("temp_max");
  await form.getByLabel("Aggregation").selectOption({ label: "Median" });
  await form.getByLabel("Dates from").selectOption("date");
  await form.getByLabel("Range").selectOption("last_n");
  await form.getByLabel('How many (for "the last")').fill("30");
  await form.getByLabel("Unit").selectOption("day");
  await form
    .getByLabel("Counted back from")
    .selectOption({ label: "the newest value in the data" });
  await form.getByLabel("Compare with the period before").uncheck();
  await form.getByRole("button", { name: "Add stat tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await expectAxeClean(page);
  await page.getByRole("button", { name: `Publish ${title}` }).click();
  await expect(page.getByText("Published.")).toBeVisible();
  await context.close();

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  expect((await visitorPage.goto(`/d/${slug}`))?.status()).toBe(200);
  const tile = visitorPage.locator(".seed-stat-tile", {
    hasText: "Median high, last 30 days of the data",
  });
  await expect(tile.locator(".seed-stat-tile__value")).toHaveText(
    new Intl.NumberFormat("en-US").format(medianOverLast30Days("temp_max")),
  );
  await visitor.close();
});
