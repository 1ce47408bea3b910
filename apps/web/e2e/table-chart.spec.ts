import { type Browser, expect, type Page, test } from "@playwright/test";
import {
  createDatasetThroughForm,
  expectAxeClean,
  expectFitsPhone,
  signedInPage,
  uniqueName,
  withoutScripts,
} from "./content-support";
import { horizontalOverflow } from "./support";
import { publishWeatherBoard, weatherTotals } from "./weather-board";

// Table charts on real data (vega-datasets' Seattle weather, a row per day 2012-2015): a table of
// days and rain by weather, and one of rain by month. Sorted and paged in the browser, in the
// server's HTML before any script, a cross-filter from its row headers, and in the editor.

async function publishTableBoard(browser: Browser): Promise<string> {
  return publishWeatherBoard(browser, "tables", (dataset) => [
    "title: Seattle weather in tables",
    "published: true",
    "filters: { categories: [weather] }",
    "tiles:",
    "  - key: kinds",
    "    kind: chart",
    "    chart:",
    "      title: Days and rain by weather",
    "      type: table",
    `      dataset: ${dataset}`,
    "      query:",
    "        x: { column: weather }",
    "        measures:",
    "          - { aggregate: count, label: Days }",
    "          - { column: precipitation, aggregate: sum, label: Rain (mm) }",
    "  - key: months",
    "    kind: chart",
    "    chart:",
    "      title: Rain by month",
    "      type: table",
    `      dataset: ${dataset}`,
    "      query:",
    "        x: { column: date, grain: month }",
    "        measures: [{ column: precipitation, aggregate: sum, label: Rain (mm) }]",
    "      options: { pageSize: 25 }",
    "layout:",
    "  kinds: { x: 0, y: 0, w: 6, h: 5 }",
    "  months: { x: 6, y: 0, w: 6, h: 5 }",
  ]);
}

/** A table's shown body rows, as text per cell. */
async function shownRows(page: Page, title: string): Promise<string[][]> {
  return page
    .getByRole("figure", { name: title })
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((row) => [...row.children].map((cell) => (cell.textContent ?? "").trim())),
    );
}

test("a table chart is in the page before any script, sorts and pages in the browser, and filters the dashboard from a row", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const board = await publishTableBoard(browser);
  const home = `/d/${board}`;
  const totals = weatherTotals();

  // Before any script: the server's HTML holds the rows themselves.
  await withoutScripts(browser, home, async (plain) => {
    const plainRows = await shownRows(plain, "Days and rain by weather");
    expect(plainRows.map((row) => row[0])).toEqual([...totals.keys()].sort());
    // the months' table says 25 rows a page; the other keeps the default 10
    await expect(
      plain.getByRole("figure", { name: "Rain by month" }).locator("tbody tr"),
    ).toHaveCount(25);
  });

  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await page.goto(home);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const kinds = page.getByRole("figure", { name: "Days and rain by weather" });
  // Every number is the file's: days exactly, rain to the one decimal written.
  for (const [kind, { days, rain }] of totals) {
    const row = (await shownRows(page, "Days and rain by weather")).find(
      (cells) => cells[0] === kind,
    );
    expect(row?.[1]).toBe(days.toLocaleString("en-US"));
    expect(Number(row?.[2]?.replace(/,/g, ""))).toBeCloseTo(rain, 0);
  }

  // Sorting by Days: the header says so, and the order is the counts' order.
  const daysHeader = kinds.getByRole("columnheader", { name: /Days/ });
  await daysHeader.getByRole("button").click();
  await expect(daysHeader).toHaveAttribute("aria-sort", "ascending");
  const ascending = [...totals].sort((a, b) => a[1].days - b[1].days).map(([kind]) => kind);
  expect((await shownRows(page, "Days and rain by weather")).map((row) => row[0])).toEqual(
    ascending,
  );
  await daysHeader.getByRole("button").press("Enter");
  await expect(daysHeader).toHaveAttribute("aria-sort", "descending");
  expect((await shownRows(page, "Days and rain by weather")).map((row) => row[0])).toEqual(
    [...ascending].reverse(),
  );

  // 48 months, 25 to a page as the chart says: the pager moves through them.
  const months = page.getByRole("figure", { name: "Rain by month" });
  await expect(months.getByText("Rows 1–25 of 48")).toBeVisible();
  expect((await shownRows(page, "Rain by month"))[0]?.[0]).toBe("Jan 2012");
  await months.getByRole("button", { name: "Next page" }).click();
  await expect(months.getByText("Rows 26–48 of 48")).toBeVisible();
  expect((await shownRows(page, "Rain by month"))[0]?.[0]).toBe("Feb 2014");
  expect(await shownRows(page, "Rain by month")).toHaveLength(23);
  await expectAxeClean(page);

  // A row's header filters the dashboard by its weather; the other table follows.
  await expect(page.getByText("Select a row to filter the dashboard by weather.")).toBeVisible();
  await kinds.getByRole("button", { name: "snow", exact: true }).click();
  await page.waitForURL((url) => url.pathname === home && url.search === "?weather=snow");
  await expect(kinds.locator("tbody tr")).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Remove weather: snow" })).toBeVisible();
  // Only CSV is offered for a table (it has no drawing to save as an image).
  await expect(kinds.getByRole("button", { name: /as PNG/ })).toHaveCount(0);
  await expect(
    page.getByRole("button", { name: "Download Days and rain by weather as CSV" }),
  ).toBeVisible();
  await visitor.close();

  // A phone: the tables fit, nothing scrolls sideways.
  await expectFitsPhone(browser, home);
});

test("an editor makes a table chart: its preview is the table, with only the options a table has and colour rules", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Table sales");
  await createDatasetThroughForm(
    page,
    datasetName,
    ["region,revenue", "North,1200", "South,950", "North,300", "East,1800"].join("\n"),
  );
  await page.goto("/admin/charts/new");
  await page.getByRole("textbox", { name: "Title" }).fill("Revenue table");
  await page.getByLabel("Dataset").selectOption({ label: datasetName });
  await page.getByLabel("Type").selectOption("table");
  await page.getByLabel("Index column (each row's name)").selectOption("region");
  await page
    .getByRole("group", { name: "Value columns" })
    .getByRole("checkbox", { name: "revenue" })
    .check();
  await page.getByLabel("Combine rows with").selectOption("sum");
  const preview = page.getByTestId("chart-preview");
  const table = preview.getByRole("table");
  await expect(table).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(3);
  await expect(table.getByRole("row", { name: /North/ })).toContainText("1,500");
  // A table has no legend and no axes: only how numbers, dates and the locale read.
  await expect(page.getByLabel("Legend")).toHaveCount(0);
  await expect(page.getByLabel("Number format", { exact: true })).toBeVisible();
  // Rows per page: ten unless told; the choice is kept with the chart.
  await expect(page.getByLabel("Rows per page")).toHaveValue("10");
  await page.getByLabel("Rows per page").selectOption({ label: "50 rows" });

  // Colour rules: South's 950 is under 1,000, so its cell is toned, marked and says why.
  const rules = page.getByRole("group", { name: "Colour rules" });
  await rules.getByRole("button", { name: "Add a colour rule" }).click();
  const rule = (n: number) => rules.getByRole("group", { name: `Rule ${n}` });
  await rule(1).getByLabel("When the value").selectOption("below");
  await rule(1).getByLabel("Number").fill("1000");
  await rule(1).getByLabel("Words beside it (optional)").fill("below plan");
  const south = table.getByRole("row", { name: /South/ }).getByRole("cell");
  await expect(south).toHaveText("✕950 (below plan)");
  await expect(south).toHaveAttribute("data-tone", "bad");
  // A rule whose number is not one is refused at its own field; nothing is saved.
  await rules.getByRole("button", { name: "Add a colour rule" }).click();
  await rule(2).getByLabel("Number").fill("a lot");
  await expectAxeClean(page);
  await page.getByRole("button", { name: "Create chart" }).click();
  await expect(rule(2).getByText("Enter the rule's number, e.g. 0 or 1500.")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/charts\/new/);
  await rule(2).getByRole("button", { name: "Remove rule 2" }).click();
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await expect(page.getByLabel("Type")).toHaveValue("table");
  // Reopened, the rule and the page size are there and the preview tones the same cell.
  await expect(rule(1).getByLabel("Number")).toHaveValue("1000");
  await expect(page.getByLabel("Rows per page")).toHaveValue("50");
  await expect(
    page.getByTestId("chart-preview").getByRole("row", { name: /South/ }).getByRole("cell"),
  ).toHaveText("✕950 (below plan)");
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await context.close();
});
