import { type Browser, expect, type Page, test } from "@playwright/test";
import { expectAxeClean } from "./content-support";
import { publishWeatherBoard, weatherTotals } from "./weather-board";

// Cross-filter on real data (vega-datasets' Seattle weather): a donut of days by weather and a
// line of rain by year split by weather, on a dashboard filtering by weather. A donut's legend
// entry chooses its slice's value; a breakdown's legend entry chooses its series' value; the
// keyboard does the same; every tile then shows that weather alone, and a chip undoes it.

const weatherKinds = ["drizzle", "fog", "rain", "snow", "sun"];

/** The dataset's slug, from the API's pages of datasets. */
async function publishCrossFilterBoard(browser: Browser): Promise<string> {
  return publishWeatherBoard(browser, "cross-filter", (dataset) => [
    "title: Seattle weather, cross-filtered",
    "published: true",
    "filters: { categories: [weather] }",
    "tiles:",
    "  - key: days",
    "    kind: chart",
    "    chart:",
    "      title: Days by weather",
    "      type: pie",
    `      dataset: ${dataset}`,
    "      options: { donut: true, otherThreshold: 0 }",
    "      query:",
    "        x: { column: weather }",
    "        measures: [{ aggregate: count }]",
    "  - key: rain",
    "    kind: chart",
    "    chart:",
    "      title: Rain by year and weather",
    "      type: line",
    `      dataset: ${dataset}`,
    "      query:",
    "        x: { column: date, grain: year }",
    "        measures: [{ column: precipitation, aggregate: sum }]",
    "        breakdown: { column: weather }",
    "layout:",
    "  days: { x: 0, y: 0, w: 6, h: 4 }",
    "  rain: { x: 6, y: 0, w: 6, h: 4 }",
  ]);
}

function table(page: Page, title: string) {
  return page.getByRole("figure", { name: title }).getByTestId("seed-chart-table");
}

async function waitForQuery(page: Page, pathname: string, search: string) {
  await page.waitForURL((url) => url.pathname === pathname && url.search === search);
}

test("a donut's legend entry and a breakdown's legend entry filter the whole dashboard by their weather, by mouse and keyboard", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const board = await publishCrossFilterBoard(browser);
  const home = `/d/${board}`;
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await page.goto(home);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const days = page.getByRole("figure", { name: "Days by weather" });
  const rain = page.getByRole("figure", { name: "Rain by year and weather" });
  await expect(page.getByText("Select a slice to filter the dashboard by weather.")).toBeVisible();
  // A line of years drills on a click; its legend entries filter.
  await expect(
    page.getByText(
      "Select a point to see its quarters, a legend entry to filter the dashboard by weather.",
    ),
  ).toBeVisible();
  await expect(days.getByRole("list", { name: /press a series to select it/ })).toBeVisible();
  for (const kind of weatherKinds) await expect(table(page, "Days by weather")).toContainText(kind);

  // The donut's "snow" entry: every tile shows snow alone, the donut its whole count of days.
  await days.getByRole("button", { name: "snow", exact: true }).click();
  await waitForQuery(page, home, "?weather=snow");
  const snowDays = weatherTotals().get("snow")?.days as number;
  await expect(table(page, "Days by weather")).toContainText(String(snowDays));
  await expect(table(page, "Days by weather")).not.toContainText("rain");
  await expect(rain.getByRole("button", { name: "snow", exact: true })).toBeVisible();
  await expect(rain.getByRole("button", { name: "rain", exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Remove weather: snow" })).toBeVisible();
  await expectAxeClean(page);

  // The chip brings every weather back.
  await page.getByRole("link", { name: "Remove weather: snow" }).click();
  await waitForQuery(page, home, "");
  await expect(rain.getByRole("button", { name: "rain", exact: true })).toBeVisible();

  // By keyboard, the line's "fog" series: its legend entry chooses fog instead of hiding it.
  await rain.getByRole("button", { name: "fog", exact: true }).focus();
  await page.keyboard.press("Enter");
  await waitForQuery(page, home, "?weather=fog");
  await expect(table(page, "Days by weather")).toContainText(
    String(weatherTotals().get("fog")?.days as number),
  );
  await expect(table(page, "Days by weather")).not.toContainText("sun");
  // Pressing the chosen value again undoes it.
  await days.getByRole("button", { name: "fog", exact: true }).click();
  await waitForQuery(page, home, "");
  await expect(table(page, "Days by weather")).toContainText("sun");
  await visitor.close();
});
