import { expect, test } from "@playwright/test";
import { expectAxeClean, signedInPage, slugOf, uniqueName } from "./content-support";

const salesCsv = [
  "month,revenue,cost,region",
  "2026-01-01,1200,800,North",
  "2026-02-01,1350,820,North",
  "2026-03-01,1500,900,South",
  "2026-04-01,1420,870,South",
].join("\n");

test("editor builds a dataset, chart and dashboard, publishes it, and a visitor sees it", async ({
  browser,
}) => {
  const { context: editor, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Sales");
  const chartTitle = uniqueName("Revenue and cost");
  const dashboardTitle = uniqueName("Sales overview");
  const slug = slugOf(dashboardTitle);

  // Dataset from an uploaded CSV file, previewed with typed columns before saving.
  await page.goto("/admin/datasets/new");
  await expect(page).toHaveTitle(/New dataset/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Name of the new dataset").fill(datasetName);
  await page.getByLabel(/^File to import/).setInputFiles({
    name: "sales.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(salesCsv),
  });
  const preview = page.getByRole("region", { name: "Preview of the rows" });
  await expect(preview.getByText("Preview: 4 columns, the first 4 of 4 rows")).toBeVisible();
  await expect(preview.getByRole("columnheader", { name: "month (date)" })).toBeVisible();
  await expect(preview.getByRole("columnheader", { name: "revenue (number)" })).toBeVisible();
  await expect(preview.getByRole("columnheader", { name: "region (text)" })).toBeVisible();
  await expect(preview.getByRole("cell", { name: "1350" })).toBeVisible();
  await expectAxeClean(page);
  await page.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/\/admin\/datasets\/(?!new)[^/?]+\?saved=import$/);
  await expect(page.getByRole("heading", { level: 1, name: datasetName })).toBeVisible();
  await expectAxeClean(page);

  // Chart with a live preview that follows the form.
  await page.goto("/admin/charts/new");
  await page.getByRole("textbox", { name: "Title" }).fill(chartTitle);
  await page.getByLabel("Dataset").selectOption({ label: datasetName });
  await expect(page.getByLabel("Index column (x axis)")).toHaveValue("month");
  await page.getByLabel("Type").selectOption("bar");
  await page.getByRole("checkbox", { name: "cost" }).check();
  await page.getByRole("combobox", { name: "Stacking" }).selectOption("stacked");
  const chartPreview = page.getByTestId("chart-preview");
  await expect(chartPreview.getByRole("figure", { name: chartTitle })).toBeVisible();
  await expect(chartPreview.locator("svg.recharts-surface").first()).toBeVisible();
  await expect(chartPreview.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expectAxeClean(page);
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await expect(page.getByRole("status").filter({ hasText: "Chart saved." })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "cost" })).toBeChecked();
  await expect(page.getByRole("combobox", { name: "Stacking" })).toHaveValue("stacked");

  // Dashboard with an icon, a chart tile and a stat tile.
  await page.goto("/admin/dashboards/new");
  await page.getByRole("textbox", { name: "Title" }).fill(dashboardTitle);
  await page.getByLabel("Slug").fill(slug);
  await page.getByLabel("Description (optional)").fill("Monthly sales at a glance.");
  await page.getByRole("radio", { name: "database" }).check();
  await expectAxeClean(page);
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await page.waitForURL(/\/admin\/dashboards\/(?!new)[^/?]+$/);
  await expect(page.getByRole("heading", { level: 1, name: dashboardTitle })).toBeVisible();
  await expect(page.getByRole("img", { name: "database" })).toBeVisible();

  await page.getByLabel("Chart", { exact: true }).selectOption({ label: chartTitle });
  await page.getByRole("button", { name: "Add chart tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();

  const statForm = page.getByRole("form", { name: "Add a stat tile" });
  await statForm.getByLabel("Label").fill("Total revenue");
  await statForm.getByLabel("Dataset").selectOption({ label: datasetName });
  await statForm.getByLabel("Column").selectOption("revenue");
  await statForm.getByLabel("Aggregation").selectOption("sum");
  await statForm.getByLabel("Number format").selectOption("currency");
  await statForm.getByLabel("Currency code").fill("USD");
  await statForm.getByLabel("Most decimal places").fill("0");
  await statForm.getByRole("radio", { name: "grid" }).check();
  await statForm.getByRole("button", { name: "Add stat tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();

  // The composer shows both tiles at their default places; the keyboard moves the stat down.
  const handles = page.getByRole("button", { name: /^Move or resize / });
  await expect(handles).toHaveText([new RegExp(chartTitle), /Total revenue/]);
  await page.getByRole("button", { name: "Move or resize Total revenue" }).press("ArrowDown");
  await expect(page.getByTestId("layout-announcement")).toHaveText(
    "Total revenue moved to column 7, row 2.",
  );
  await page.getByRole("button", { name: "Save layout" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Layout saved." })).toBeVisible();
  await expectAxeClean(page);

  await page.getByRole("button", { name: `Publish ${dashboardTitle}` }).click();
  await expect(page.getByText("Published.")).toBeVisible();
  await expect(page.getByRole("button", { name: `Unpublish ${dashboardTitle}` })).toBeVisible();

  // An anonymous visitor sees the published dashboard with the chart drawn.
  const visitor = await browser.newContext({ storageState: undefined });
  const visitorPage = await visitor.newPage();
  const response = await visitorPage.goto(`/d/${slug}`);
  expect(response?.status()).toBe(200);
  await expect(visitorPage.getByRole("heading", { level: 1, name: dashboardTitle })).toBeVisible();
  await expect(visitorPage.getByText("Total revenue")).toBeVisible();
  await expect(visitorPage.getByText("$5,470")).toBeVisible();
  const figure = visitorPage.getByRole("figure", { name: chartTitle });
  await expect(figure.locator("svg.recharts-surface")).toBeVisible();
  await expect(figure.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await visitor.close();
  await editor.close();
});
