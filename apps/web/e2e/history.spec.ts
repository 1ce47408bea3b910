import { expect, test } from "@playwright/test";
import {
  expectAxeClean,
  importCsvAsEditor,
  publishSummedBarChart,
  signedInPage,
  uniqueName,
} from "./content-support";

// Charts and dashboards keep their versions: who changed what and when, a readable difference
// between two versions, and a restore that is itself a new, audited version.

test("a chart's history lists who changed what, compares two versions and restores one", async ({
  browser,
}) => {
  const datasetName = uniqueName("History data");
  await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "region,amount\nAlfa,1\nBravo,2\n",
  );
  const { context, page } = await signedInPage(browser, "editor");
  const { chartTitle, chartUrl } = await publishSummedBarChart(page, {
    datasetName,
    x: "region",
    measure: "amount",
  });
  const chartPath = new URL(chartUrl).pathname;
  const renamed = uniqueName("Renamed bars");
  await page.goto(chartPath);
  await page.getByRole("textbox", { name: "Title" }).fill(renamed);
  await page.getByRole("button", { name: "Save chart" }).click();
  await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();

  await page.getByRole("link", { name: "History" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: `History of ${renamed}` }),
  ).toBeVisible();
  const versions = page.getByRole("region", { name: "Versions, newest first" });
  await expect(versions.getByRole("row")).toHaveCount(3);
  await expect(versions.getByRole("row").nth(1)).toContainText("Edited");
  await expect(versions.getByRole("row").nth(2)).toContainText("Created");
  await expect(versions.getByRole("row").nth(1)).toContainText("editor");

  // By default the newest change: version 1 to 2, the title.
  const differences = page.getByRole("region", { name: "Differences" });
  const titleRow = differences.getByRole("row", { name: /Title/ });
  await expect(titleRow.getByRole("cell")).toHaveText([chartTitle, renamed]);
  await expectAxeClean(page);

  await versions.getByRole("button", { name: "Restore version 1" }).click();
  await versions.getByRole("button", { name: "Yes, restore version 1" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Restored as version 3." }),
  ).toBeVisible();
  await expect(
    page.getByRole("heading", { level: 1, name: `History of ${chartTitle}` }),
  ).toBeVisible();
  await expect(versions.getByRole("row").nth(1)).toContainText("Restored (from version 1)");

  // Compare the restore with version 1: nothing differs.
  await page.getByLabel("From version").selectOption("1");
  await page.getByLabel("To version").selectOption("3");
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page.getByText("Versions 1 and 3 are the same.")).toBeVisible();
  await context.close();

  // A viewer reads the history but cannot restore.
  const viewer = await signedInPage(browser, "viewer");
  await viewer.page.goto(`${chartPath}/history`);
  await expect(
    viewer.page.getByRole("region", { name: "Versions, newest first" }).getByRole("row"),
  ).toHaveCount(4);
  await expect(viewer.page.getByRole("button", { name: /Restore version/ })).toHaveCount(0);
  await viewer.context.close();

  const admin = await signedInPage(browser, "admin");
  await admin.page.goto("/admin/audit?action=chart.restore");
  await expect(admin.page.getByRole("table").getByText("chart.restore").first()).toBeVisible();
  await admin.context.close();
});

test("a dashboard's restore brings back its title and tiles as a new version", async ({
  browser,
}) => {
  const datasetName = uniqueName("Board history");
  await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "region,amount\nAlfa,1\nBravo,2\n",
  );
  const { context, page } = await signedInPage(browser, "editor");
  const { dashboardTitle, dashboardUrl } = await publishSummedBarChart(page, {
    datasetName,
    x: "region",
    measure: "amount",
  });
  await page.goto(new URL(dashboardUrl).pathname);
  await page.getByRole("link", { name: "History" }).click();
  const versions = page.getByRole("region", { name: "Versions, newest first" });
  // Created, chart tile added, published.
  await expect(versions.getByRole("row")).toHaveCount(4);
  await expect(versions.getByRole("row").nth(1)).toContainText("Published");
  const differences = page.getByRole("region", { name: "Differences" });
  await expect(differences.getByRole("row", { name: /Status/ }).getByRole("cell")).toHaveText([
    "draft",
    "published",
  ]);

  await versions.getByRole("button", { name: "Restore version 1" }).click();
  await versions.getByRole("button", { name: "Yes, restore version 1" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Restored as version 4." }),
  ).toBeVisible();
  // Version 1 had no tiles; the dashboard stays published (publishing is its own action).
  await page.goto(new URL(dashboardUrl).pathname);
  await expect(page.getByText(`Published · version 4`)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: dashboardTitle })).toBeVisible();
  await expect(page.getByTestId("dashboard-grid")).toHaveCount(0);
  await context.close();
});
