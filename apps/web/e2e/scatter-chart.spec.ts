import { type Browser, expect, type Page, test } from "@playwright/test";
import {
  createDatasetThroughForm,
  expectAxeClean,
  expectFitsPhone,
  signedInPage,
  uniqueName,
  withoutScripts,
} from "./content-support";
import { publishWeatherBoard, weatherDays } from "./weather-board";

// Scatter charts in the app (issue 27), on real data: vega-datasets' Seattle weather, a row per
// day 2012-2015. One tile plots every day's rain against its warmth (wind sizing the points),
// one the average rain per warmth coloured by the weather, one every day's rain coloured by its
// weather (raw values split by a breakdown). In the server's HTML before any
// script, read by keyboard, filtering the dashboard from a colour, and made in the editor.

async function publishScatterBoard(browser: Browser): Promise<string> {
  return publishWeatherBoard(browser, "scatter", (dataset) => [
    "title: Seattle weather in points",
    "published: true",
    "filters: { categories: [weather] }",
    "tiles:",
    "  - key: days",
    "    kind: chart",
    "    chart:",
    "      title: Rain against warmth",
    "      type: scatter",
    `      dataset: ${dataset}`,
    "      query:",
    "        x: { column: temp_max }",
    "        measures:",
    "          - { column: precipitation, aggregate: none }",
    "          - { column: wind, aggregate: none }",
    "  - key: kinds",
    "    kind: chart",
    "    chart:",
    "      title: Average rain by warmth and weather",
    "      type: scatter",
    `      dataset: ${dataset}`,
    "      query:",
    "        x: { column: temp_max }",
    "        measures: [{ column: precipitation, aggregate: avg }]",
    "        breakdown: { column: weather, top: 5 }",
    "  - key: every",
    "    kind: chart",
    "    chart:",
    "      title: Every day's rain by weather",
    "      type: scatter",
    `      dataset: ${dataset}`,
    "      query:",
    "        x: { column: temp_max }",
    "        measures: [{ column: precipitation, aggregate: none }]",
    "        breakdown: { column: weather, top: 5 }",
    "layout:",
    "  days: { x: 0, y: 0, w: 6, h: 5 }",
    "  kinds: { x: 6, y: 0, w: 6, h: 5 }",
    "  every: { x: 0, y: 5, w: 12, h: 5 }",
  ]);
}

/** Circles drawn in a figure's server drawing: each starts its own subpath. */
async function serverPoints(page: Page, title: string): Promise<number> {
  return page
    .getByRole("figure", { name: title })
    .locator(".seed-chart-fallback path")
    .evaluateAll((paths) =>
      paths.reduce((sum, path) => sum + (path.getAttribute("d")?.match(/M/g)?.length ?? 0), 0),
    );
}

test("a scatter chart is drawn in the page before any script, read by keyboard, and filters the dashboard by a colour", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const board = await publishScatterBoard(browser);
  const home = `/d/${board}`;
  const days = weatherDays();
  const lowest = Math.min(...days.map((day) => day.tempMax));
  const highest = Math.max(...days.map((day) => day.tempMax));

  // Before any script: the server drew every day (fewer than the 2,000 drawn one by one).
  await withoutScripts(browser, home, async (plain) => {
    expect(await serverPoints(plain, "Rain against warmth")).toBe(days.length);
    expect(await serverPoints(plain, "Average rain by warmth and weather")).toBeGreaterThan(0);
    // Every day again, each a point of its weather's colour.
    expect(await serverPoints(plain, "Every day's rain by weather")).toBe(days.length);
  });

  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await page.goto(home);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const daysChart = page.getByRole("figure", { name: "Rain against warmth" });
  // The kit's summary counts the file's days and reads the file's warmest and coldest.
  await expect(daysChart).toHaveAccessibleDescription(
    new RegExp(`^Scatter chart of ${days.length} points, temp_max from ${lowest} to ${highest},`),
  );
  await expect(daysChart.locator(".seed-scatter-points path").first()).toBeAttached();
  // Points may share a warmth: a scatter is not told to combine them.
  await expect(page.getByText(/share an x value/)).toHaveCount(0);

  // Colours: one legend entry per kind of weather in the file.
  const kinds = page.getByRole("figure", { name: "Average rain by warmth and weather" });
  const weathers = [...new Set(days.map((day) => day.weather))].sort();
  const legend = await kinds.getByRole("button").allTextContents();
  expect(legend.map((text) => text.trim()).sort()).toEqual(weathers);
  // Raw values coloured by weather: a point per day, a legend entry per weather, the commonest first.
  const every = page.getByRole("figure", { name: "Every day's rain by weather" });
  await expect(every).toHaveAccessibleDescription(
    new RegExp(`^Scatter chart of ${days.length} points, temp_max from ${lowest} to ${highest},`),
  );
  const byCount = weathers
    .map((weather) => ({ weather, n: days.filter((day) => day.weather === weather).length }))
    .sort((a, b) => b.n - a.n || (a.weather < b.weather ? -1 : 1))
    .map((entry) => entry.weather);
  const everyLegend = await every.getByRole("button").allTextContents();
  expect(everyLegend.map((text) => text.trim())).toEqual(byCount);
  // Both coloured tiles say how to filter by a colour.
  await expect(
    page.getByText("Select a point or legend entry to filter the dashboard by weather."),
  ).toHaveCount(2);
  await expectAxeClean(page);

  // By keyboard: the warmest point is told with its weather, and Enter filters by that weather.
  await kinds.locator(".recharts-surface").focus();
  await page.keyboard.press("End");
  const live = kinds.locator("[aria-live=polite]");
  await expect(live).toContainText(`temp_max ${highest}`);
  const told = /weather (\w+)/.exec((await live.textContent()) ?? "")?.[1];
  expect(weathers).toContain(told);
  const warmest = days.filter((day) => day.tempMax === highest).map((day) => day.weather);
  expect(warmest).toContain(told);
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.pathname === home && url.search === `?weather=${told}`);
  await expect(page.getByRole("link", { name: `Remove weather: ${told}` })).toBeVisible();

  // A legend entry chooses its weather too; the other tile draws that weather's days only.
  const snowDays = days.filter((day) => day.weather === "snow").length;
  await page.goto(home);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await kinds.getByRole("button", { name: "snow", exact: true }).click();
  await page.waitForURL((url) => url.pathname === home && url.search === "?weather=snow");
  await expect(daysChart).toHaveAccessibleDescription(
    new RegExp(`^Scatter chart of ${snowDays} points,`),
  );
  await expect(every).toHaveAccessibleDescription(
    new RegExp(`^Scatter chart of ${snowDays} points,`),
  );
  expect((await every.getByRole("button").allTextContents()).map((text) => text.trim())).toEqual([
    "snow",
  ]);
  await visitor.close();

  // A phone: the charts fit, nothing scrolls sideways.
  await expectFitsPhone(browser, home);
});

test("an editor makes a scatter chart: x moves to a number, y and a size are kept, a text x is refused at its field", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Scatter cities");
  await createDatasetThroughForm(
    page,
    datasetName,
    [
      "city,population,area,income,age",
      "Aston,1200,12.5,31000,41",
      "Brill,950,8,28000,38",
      "Carrow,1800,20.25,35500,36",
      "Dunmore,400,3.5,26000,45",
    ].join("\n"),
  );
  await page.goto("/admin/charts/new");
  await page.getByRole("textbox", { name: "Title" }).fill("Income by area");
  await page.getByLabel("Dataset").selectOption({ label: datasetName });
  await page.getByLabel("Type").selectOption("scatter");
  // A scatter's x is a position: the text column gives way to the first free number column.
  const x = page.getByLabel("X axis (numbers or dates)");
  await expect(x).toHaveValue("area");
  const values = page.getByRole("group", { name: "Y axis, then point size (up to two)" });
  await values.getByRole("checkbox", { name: "income" }).check();
  // A third choice replaces the size; y stays.
  await values.getByRole("checkbox", { name: "age" }).check();
  await expect(values.getByRole("checkbox", { name: "population" })).toBeChecked();
  await expect(values.getByRole("checkbox", { name: "age" })).toBeChecked();
  await expect(values.getByRole("checkbox", { name: "income" })).not.toBeChecked();
  const preview = page.getByTestId("chart-preview");
  await expect(preview.getByRole("figure", { name: "Income by area" })).toHaveAccessibleDescription(
    /^Scatter chart of 4 points, area from 3\.5 to 20\.25, Population from 400 to 1,800\./i,
  );
  await expect(preview.locator(".seed-scatter-points path").first()).toBeAttached();
  // No value labels, stacking or date grouping on a scatter.
  await expect(page.getByLabel("Group dates by")).toHaveCount(0);
  await expect(page.getByLabel("Value labels")).toHaveCount(0);
  await expectAxeClean(page);

  // A text x is refused at the x field; nothing is saved.
  await x.selectOption("city");
  await page.getByRole("button", { name: "Create chart" }).click();
  await expect(
    page.getByText('"city" is a string column; a scatter chart\'s x holds numbers or dates.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/charts\/new/);
  await x.selectOption("area");
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await expect(page.getByLabel("Type")).toHaveValue("scatter");
  await expect(values.getByRole("checkbox", { name: "age" })).toBeChecked();
  await context.close();
});

test("an editor colours a scatter's raw values by a category; a line chart does not split them", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Scatter regions");
  await createDatasetThroughForm(
    page,
    datasetName,
    [
      "city,region,area,income",
      "Aston,North,12.5,31000",
      "Brill,South,8,28000",
      "Carrow,North,20.25,35500",
      "Dunmore,East,3.5,26000",
      "Elton,North,6,30500",
      "Fulham,South,9.75,27250",
    ].join("\n"),
  );
  await page.goto("/admin/charts/new");
  await page.getByRole("textbox", { name: "Title" }).fill("Income by area and region");
  await page.getByLabel("Dataset").selectOption({ label: datasetName });
  await page.getByLabel("Type").selectOption("scatter");
  await page.getByLabel("X axis (numbers or dates)").selectOption("area");
  await page.getByLabel("Combine rows with").selectOption("none");
  await page.getByLabel("Colour points by").selectOption("region");
  // Colours split one measure: y is one choice now, and no size.
  const values = page.getByRole("group", { name: /^Y axis/ });
  await values.getByRole("radio", { name: "income" }).check();
  const preview = page.getByTestId("chart-preview");
  const figure = preview.getByRole("figure", { name: "Income by area and region" });
  // Every row is a point; the regions with the most rows come first.
  await expect(figure).toHaveAccessibleDescription(
    /^Scatter chart of 6 points, area from 3\.5 to 20\.25,/,
  );
  await expect
    .poll(async () => (await figure.getByRole("button").allTextContents()).map((t) => t.trim()))
    .toEqual(["North", "South", "East"]);
  await expectAxeClean(page);

  // A line chart splits aggregates only: its split field is gone while values are raw, and the
  // choice comes back with the scatter.
  await page.getByLabel("Type").selectOption("line");
  await expect(page.getByLabel("Split into series by")).toHaveCount(0);
  await page.getByLabel("Type").selectOption("scatter");
  await expect(page.getByLabel("Colour points by")).toHaveValue("region");

  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await expect(page.getByLabel("Colour points by")).toHaveValue("region");
  await expect(page.getByLabel("Combine rows with")).toHaveValue("none");
  await expect(
    page.getByTestId("chart-preview").getByRole("figure", { name: "Income by area and region" }),
  ).toHaveAccessibleDescription(/^Scatter chart of 6 points,/);
  await context.close();
});
