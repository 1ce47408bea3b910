import { expect, test } from "@playwright/test";
import {
  expectAxeClean,
  expectFitsPhone,
  importCsvAsEditor,
  openNewChart,
  signedInPage,
  uniqueName,
  withoutScripts,
} from "./content-support";
import { horizontalOverflow } from "./support";
import { publishWeatherBoard, weatherDays } from "./weather-board";

// Calendar heatmaps in the app (issue 27), on real data: vega-datasets' Seattle weather, a row
// per day 2012-2015, each day coloured by its rain; in the server's HTML before any script, read
// by keyboard, and made in the editor.

/** The file's days (yyyy-mm-dd, in order) and each one's rain. */
function rainByDay(): [string, number][] {
  return weatherDays()
    .map((day) => [day.date, day.precipitation] as [string, number])
    .sort(([a], [b]) => a.localeCompare(b));
}

test("a calendar heatmap is drawn in the page before any script, lists every day in its table, and is read by keyboard", async ({
  browser,
}) => {
  const board = await publishWeatherBoard(browser, "calendar", (dataset) => [
    "title: Seattle rain by day",
    "published: true",
    "tiles:",
    "  - key: rain",
    "    kind: chart",
    "    chart:",
    "      title: Rain by day",
    "      type: calendar",
    `      dataset: ${dataset}`,
    "      query:",
    "        x: { column: date }",
    "        measures: [{ column: precipitation, aggregate: sum, label: Rain (mm) }]",
    "layout:",
    "  rain: { x: 0, y: 0, w: 12, h: 8 }",
  ]);
  const home = `/d/${board}`;
  const days = rainByDay();
  const wettest = Math.max(...days.map(([, rain]) => rain));

  // Before any script: the server drew the calendar, titled, in the page's HTML.
  await withoutScripts(browser, home, async (plain) => {
    const drawing = plain
      .getByRole("figure", { name: "Rain by day" })
      .locator(".seed-chart-fallback svg");
    await expect(drawing).toHaveAttribute("role", "img");
    await expect(drawing.locator("text", { hasText: "2012" }).first()).toBeAttached();
    await expect(drawing.locator("text", { hasText: "2015" }).first()).toBeAttached();
  });

  const page = await (await browser.newContext()).newPage();
  await page.goto(home);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const figure = page.getByRole("figure", { name: "Rain by day" });
  await expect(figure).toHaveAccessibleDescription(
    new RegExp(
      `^Calendar heatmap of Rain \\(mm\\), ${days.length.toLocaleString("en-US")} days from Jan 1, 2012 to Dec 31, 2015; from 0 to ${wettest.toLocaleString("en-US")}\\.`,
    ),
  );
  // The hidden data table lists every day of the file.
  await expect(figure.getByRole("table").locator("tbody tr")).toHaveCount(days.length);
  await expectAxeClean(page);

  // By keyboard: the first day, then the next, each told with its rain.
  const grid = figure.getByRole("application");
  await grid.focus();
  const live = figure.locator("[aria-live=polite]");
  const [, first] = days[0] as [string, number];
  const [, second] = days[1] as [string, number];
  await page.keyboard.press("Home");
  await expect(live).toContainText("Jan 1, 2012");
  await expect(live).toContainText(first.toLocaleString("en-US"));
  await page.keyboard.press("ArrowDown");
  await expect(live).toContainText("Jan 2, 2012");
  await expect(live).toContainText(second.toLocaleString("en-US"));
  await page.context().close();

  // A phone: the calendar fits its box, nothing scrolls the page sideways.
  await expectFitsPhone(browser, home);
});

test("an editor makes a calendar heatmap: x moves to the date column, days are the only grain, one value", async ({
  browser,
}) => {
  const datasetName = uniqueName("Calendar visits");
  await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    [
      "city,day,visits,orders",
      "Aston,2026-01-05,120,3",
      "Brill,2026-01-06,80,1",
      "Aston,2026-01-06,40,2",
      "Carrow,2026-02-14,300,9",
    ].join("\n"),
  );
  const { context, page } = await signedInPage(browser, "editor");
  await openNewChart(page, datasetName, "Visits by day");
  await page.getByLabel("Index column (x axis)").selectOption("city");
  await page.getByLabel("Type").selectOption("calendar");
  // Days: the text x gives way to the date column; dates group by day or not at all.
  const x = page.getByLabel("Days (a date column)");
  await expect(x).toHaveValue("day");
  await expect(page.getByLabel("Group dates by").locator("option")).toHaveText([
    "Exact values",
    "Day",
  ]);
  const values = page.getByRole("group", { name: "Value column (one, colouring each day)" });
  await values.getByRole("radio", { name: "visits" }).check();
  await page.getByLabel("Combine rows with").selectOption("sum");
  const preview = page.getByTestId("chart-preview");
  // Two rows of 6 January are added up: three days with visits.
  await expect(preview.getByRole("figure", { name: "Visits by day" })).toHaveAccessibleDescription(
    /^Calendar heatmap of .*visits.*, 3 days from Jan 5, 2026 to Feb 14, 2026; from 120 to 300\./i,
  );
  await expect(page.getByLabel("Stacking")).toHaveCount(0);
  await expect(page.getByLabel("Curve")).toHaveCount(0);
  await expectAxeClean(page);

  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await expect(page.getByLabel("Type")).toHaveValue("calendar");
  await expect(x).toHaveValue("day");
  // On a phone the saved chart's editor fits the width: nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await context.close();
});
