import { type Browser, expect, test } from "@playwright/test";
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

// Combo charts in the app (issue 27), on real data: vega-datasets' Seattle weather, a row per
// day 2012-2015. One tile draws each month's total rain as bars and its average warmth as a line
// on a second axis; in the server's HTML before any script, read by keyboard, and made in the
// editor.

interface Month {
  rain: number;
  warmth: number;
}

/** Each month of the file (yyyy-mm, in order): its total rain and average highest temperature. */
function weatherMonths(): [string, Month][] {
  const months = new Map<string, { rain: number; warmth: number; days: number }>();
  for (const day of weatherDays()) {
    const month = day.date.slice(0, 7);
    const entry = months.get(month) ?? { rain: 0, warmth: 0, days: 0 };
    entry.rain += day.precipitation;
    entry.warmth += day.tempMax;
    entry.days += 1;
    months.set(month, entry);
  }
  return [...months]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([month, { rain, warmth, days }]) => [month, { rain, warmth: warmth / days }]);
}

async function publishComboBoard(browser: Browser): Promise<string> {
  return publishWeatherBoard(browser, "combo", (dataset) => [
    "title: Seattle weather by month",
    "published: true",
    "tiles:",
    "  - key: months",
    "    kind: chart",
    "    chart:",
    "      title: Rain and warmth by month",
    "      type: combo",
    `      dataset: ${dataset}`,
    "      query:",
    "        x: { column: date, grain: month }",
    "        measures:",
    "          - { column: precipitation, aggregate: sum, label: Rain (mm) }",
    "          - { column: temp_max, aggregate: avg, label: Warmth }",
    "      options:",
    "        comboSeries: [{ type: bar }, { type: line, axis: right }]",
    "layout:",
    "  months: { x: 0, y: 0, w: 12, h: 5 }",
  ]);
}

/** Numbers of tick labels on one side of a drawing, as written ("1,200" is 1200). */
function tickNumbers(texts: readonly string[]): number[] {
  return texts.map((text) => Number(text.replaceAll(",", ""))).filter(Number.isFinite);
}

test("a combo chart is drawn in the page before any script, bars on one axis and a line on its own, and read by keyboard", async ({
  browser,
}) => {
  const board = await publishComboBoard(browser);
  const home = `/d/${board}`;
  const months = weatherMonths();
  const wettest = Math.max(...months.map(([, month]) => month.rain));
  const warmest = Math.max(...months.map(([, month]) => month.warmth));

  // Before any script: a bar per month of the file, and two value axes, each scaled to its own.
  await withoutScripts(browser, home, async (plain) => {
    const drawing = plain
      .getByRole("figure", { name: "Rain and warmth by month" })
      .locator(".seed-chart-fallback svg");
    await expect(drawing.locator("rect")).toHaveCount(months.length);
    await expect(drawing.locator("path")).toHaveCount(1);
    const left = tickNumbers(await drawing.locator('text[text-anchor="end"]').allTextContents());
    const right = tickNumbers(await drawing.locator('text[text-anchor="start"]').allTextContents());
    expect(Math.max(...left)).toBeGreaterThanOrEqual(wettest);
    expect(Math.max(...right)).toBeGreaterThanOrEqual(warmest);
    // the warmth's axis is its own: not stretched to the rain (well over 100 mm some months)
    expect(Math.max(...right)).toBeLessThan(wettest);
  });

  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await page.goto(home);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const figure = page.getByRole("figure", { name: "Rain and warmth by month" });
  await expect(figure).toHaveAccessibleDescription(
    new RegExp(`^Combo chart of Rain \\(mm\\) and Warmth by .*${months.length} points`),
  );
  // a bar per month with rain: the file has two dry months (Aug 2012, Jul 2013), bars of no height
  const wet = months.filter(([, month]) => month.rain > 0).length;
  expect(wet).toBeLessThan(months.length);
  await expect(figure.locator(".recharts-bar-rectangle")).toHaveCount(wet);
  await expect(figure.locator(".recharts-line-curve")).toHaveCount(1);
  await expect(figure.locator(".recharts-yAxis")).toHaveCount(2);
  await expectAxeClean(page);

  // By keyboard: each month is told with its total rain, as the file adds it up, and its warmth.
  await figure.locator(".recharts-surface").focus();
  const live = figure.locator("[aria-live=polite]");
  for (const [at, [, month]] of months.slice(0, 3).entries()) {
    if (at > 0) await page.keyboard.press("ArrowRight");
    await expect(live).toContainText(`Rain (mm) ${month.rain.toLocaleString("en-US")}, Warmth `);
  }
  await visitor.close();

  // A phone: the chart fits, nothing scrolls sideways.
  await expectFitsPhone(browser, home);
});

test("an editor makes a combo chart: one measure is refused with what to do, a second goes on the right axis and is kept", async ({
  browser,
}) => {
  const datasetName = uniqueName("Combo sales");
  await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    [
      "month,revenue,margin",
      "2026-01-01,1200,0.25",
      "2026-02-01,1500,0.31",
      "2026-03-01,900,0.18",
    ].join("\n"),
  );
  const { context, page } = await signedInPage(browser, "editor");
  await openNewChart(page, datasetName, "Revenue and margin");
  await page.getByLabel("Type").selectOption("combo");
  const values = page.getByRole("group", {
    name: "Series columns (two or more, with the measures below)",
  });
  await values.getByRole("checkbox", { name: "revenue" }).check();
  await values.getByRole("checkbox", { name: "margin" }).uncheck();
  // One measure: said in the preview, with what to do.
  await expect(
    page.getByText(
      "A combo chart draws at least 2 measures, as bars and lines; add another measure.",
    ),
  ).toBeVisible();
  await values.getByRole("checkbox", { name: "margin" }).check();

  // A row per measure: revenue as bars, margin as a line, both on the left until told.
  const combo = page.getByRole("group", { name: "Bars and lines" });
  const revenue = combo.getByRole("group", { name: "revenue" });
  const margin = combo.getByRole("group", { name: "margin" });
  await expect(revenue.getByLabel("Drawn as")).toHaveValue("bar");
  await expect(margin.getByLabel("Drawn as")).toHaveValue("line");
  await expect(margin.getByLabel("Axis")).toHaveValue("left");
  const preview = page.getByTestId("chart-preview");
  await expect(preview.locator(".recharts-bar-rectangle")).toHaveCount(3);
  await expect(preview.locator(".recharts-yAxis")).toHaveCount(1);
  await margin.getByLabel("Axis").selectOption("right");
  await expect(preview.locator(".recharts-yAxis")).toHaveCount(2);
  // No stacking or horizontal bars on a combo: its measures are side by side on their axes.
  await expect(page.getByLabel("Stacking")).toHaveCount(0);
  await expect(page.getByLabel("Horizontal bars")).toHaveCount(0);
  await expectAxeClean(page);

  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await expect(page.getByLabel("Type")).toHaveValue("combo");
  await expect(margin.getByLabel("Axis")).toHaveValue("right");
  await expect(margin.getByLabel("Drawn as")).toHaveValue("line");
  await expect(revenue.getByLabel("Drawn as")).toHaveValue("bar");
  // On a phone the saved chart's editor fits the width: nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await context.close();
});

test("a bar of a combo chart filters the dashboard by its category; both value axes stay", async ({
  browser,
}) => {
  const board = await publishWeatherBoard(browser, "combo-filter", (dataset) => [
    "title: Seattle weather by kind",
    "published: true",
    "filters: { categories: [weather] }",
    "tiles:",
    "  - key: kinds",
    "    kind: chart",
    "    chart:",
    "      title: Days and warmth by weather",
    "      type: combo",
    `      dataset: ${dataset}`,
    "      query:",
    "        x: { column: weather }",
    "        measures:",
    "          - { aggregate: count, label: Days }",
    "          - { column: temp_max, aggregate: avg, label: Warmth }",
    "      options:",
    "        comboSeries: [{}, { axis: right }]",
    "layout:",
    "  kinds: { x: 0, y: 0, w: 12, h: 5 }",
  ]);
  const home = `/d/${board}`;
  const days = weatherDays();
  const kinds = [...new Set(days.map((day) => day.weather))].sort();
  const page = await (await browser.newContext()).newPage();
  await page.goto(home);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const figure = page.getByRole("figure", { name: "Days and warmth by weather" });
  await expect(
    page.getByText("Select a bar or point to filter the dashboard by weather."),
  ).toBeVisible();
  const bars = figure.locator(".recharts-bar-rectangle");
  await expect(bars).toHaveCount(kinds.length);
  await bars.nth(kinds.indexOf("snow")).click();
  await page.waitForURL((url) => url.pathname === home && url.search === "?weather=snow");
  await expect(page.getByRole("link", { name: "Remove weather: snow" })).toBeVisible();
  const snowDays = days.filter((day) => day.weather === "snow").length;
  await expect(bars).toHaveCount(1);
  await expect(figure.getByTestId("seed-chart-table")).toContainText(
    snowDays.toLocaleString("en-US"),
  );
  await expect(figure.locator(".recharts-yAxis")).toHaveCount(2);
  await page.context().close();
});
