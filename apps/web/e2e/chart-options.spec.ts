import { expect, type Page, test } from "@playwright/test";
import {
  createDatasetThroughForm,
  expectAxeClean,
  openNewChart,
  publishDashboard,
  signedInPage,
  uniqueName,
} from "./content-support";
import { horizontalOverflow } from "./support";

// The chart editor's display options: offered only where the chart types table says, reset when
// a change of type or columns leaves them behind, and drawn on the published dashboard.

// Orders by day, with a second date column and a name column to switch the x axis to.
const ordersCsv = [
  "day,shipped,region,amount,units",
  "2024-01-01,2024-02-03,North,1234.5,3",
  "2024-02-01,2024-03-05,South,2200,5",
  "2024-03-01,2024-04-07,East,150.25,1",
  "2024-04-01,2024-05-09,West,980,2",
].join("\n");

async function ordersDataset(page: Page): Promise<string> {
  const name = uniqueName("Orders options");
  await createDatasetThroughForm(page, name, ordersCsv);
  return name;
}

async function createChart(page: Page) {
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
}

test("each option is offered only where the chart type and query allow it", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  await openNewChart(page, await ordersDataset(page), uniqueName("Offered options"));
  await page.getByLabel("Index column (x axis)").selectOption("day");
  await page.getByRole("checkbox", { name: "amount" }).check();
  const other = page.getByLabel("Group slices under this share into Other (%)");
  const valueLabels = page.getByLabel("Value labels");
  const sliceLabels = page.getByLabel("Slice labels");
  const dateFormat = page.getByLabel("Date format");

  // A line chart: legend, locale and date format (x holds dates); no labels, no Other.
  await page.getByLabel("Type").selectOption({ label: "Line" });
  await expect(page.getByLabel("Legend", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Numbers and dates written for")).toBeVisible();
  await expect(dateFormat).toBeVisible();
  await expect(other).toHaveCount(0);
  await expect(valueLabels).toHaveCount(0);

  // One bar series: value labels (none or values), no stacking, no Other.
  await page.getByLabel("Type").selectOption({ label: "Bar" });
  await expect(valueLabels).toBeVisible();
  await expect(valueLabels.locator("option")).toHaveText(["None", "Values"]);
  await expect(page.getByLabel("Stacking")).toHaveCount(0);
  await expect(other).toHaveCount(0);

  // A pie: slice labels and Other.
  await page.getByLabel("Type").selectOption({ label: "Pie" });
  await expect(other).toHaveValue("3");
  await expect(sliceLabels).toHaveValue("percent");
  await expect(page.getByLabel("Stacking")).toHaveCount(0);
  await expectAxeClean(page);

  // Names on x: no date format.
  await page.getByLabel("Slice names (index column)").selectOption("region");
  await expect(dateFormat).toHaveCount(0);

  // The store's limit comes back on the field, and nothing is saved.
  await other.fill("60");
  await page.getByRole("button", { name: "Create chart" }).click();
  await expect(other).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#chart-other-error")).toHaveText("Group at most slices under 50%.");
  await expect(page).toHaveURL(/\/admin\/charts\/new$/);
  await context.close();
});

test("a change of type or columns resets the options that no longer apply, in the preview too", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Reset options");
  await openNewChart(page, await ordersDataset(page), title);
  await page.getByLabel("Type").selectOption({ label: "Bar" });
  await page.getByLabel("Index column (x axis)").selectOption("day");
  await page.getByRole("checkbox", { name: "amount" }).check();
  await page.getByRole("checkbox", { name: "units" }).check();
  const preview = page.getByTestId("chart-preview");
  const labels = preview.locator(".seed-chart-value-label");

  await page.getByLabel("Stacking").selectOption("stacked");
  await page.getByLabel("Value labels").selectOption("value");
  await page.getByLabel("Date format").selectOption("month");
  await expect(labels.first()).toBeVisible();
  await expect(preview.getByRole("rowheader", { name: "Jan 2024" })).toBeAttached();

  // One series left: no stacking; the second series back: stacking starts over.
  await page.getByRole("checkbox", { name: "units" }).uncheck();
  await expect(page.getByLabel("Stacking")).toHaveCount(0);
  await page.getByRole("checkbox", { name: "units" }).check();
  await expect(page.getByLabel("Stacking")).toHaveValue("none");

  // Names on x: the date format goes, and stays gone when dates come back.
  await page.getByLabel("Index column (x axis)").selectOption("region");
  await expect(page.getByLabel("Date format")).toHaveCount(0);
  await page.getByLabel("Index column (x axis)").selectOption("day");
  await expect(page.getByLabel("Date format")).toHaveValue("");
  await expect(preview.getByRole("rowheader", { name: "Jan 1, 2024" })).toBeAttached();

  // A line has no value labels: they leave the preview, and a bar again starts without them.
  await expect(labels.first()).toBeVisible();
  await page.getByLabel("Type").selectOption({ label: "Line" });
  await expect(preview.locator(".recharts-line-curve").first()).toBeVisible();
  await expect(labels).toHaveCount(0);
  await page.getByLabel("Type").selectOption({ label: "Bar" });
  await expect(page.getByLabel("Value labels")).toHaveValue("none");
  await expect(preview.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(labels).toHaveCount(0);

  // Pie slice labels by name are no bar option.
  await page.getByLabel("Type").selectOption({ label: "Pie" });
  await page.getByLabel("Slice labels").selectOption("name");
  await page.getByLabel("Type").selectOption({ label: "Bar" });
  await expect(page.getByLabel("Value labels")).toHaveValue("none");
  await context.close();
});

test("legend position, value labels, Other and locale formats show on the published dashboard", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = await ordersDataset(page);

  const barTitle = uniqueName("German bars");
  await openNewChart(page, datasetName, barTitle);
  await page.getByLabel("Type").selectOption({ label: "Bar" });
  await page.getByLabel("Index column (x axis)").selectOption("day");
  await page.getByRole("checkbox", { name: "amount" }).check();
  await page.getByLabel("Combine rows with").selectOption("sum");
  await page.getByLabel("Legend", { exact: true }).selectOption("top");
  await page.getByLabel("Value labels").selectOption("value");
  await page.getByLabel("Numbers and dates written for").selectOption("de-DE");
  await page.getByLabel("Date format").selectOption("day");
  await page.getByLabel("Number format").selectOption("decimal");
  const preview = page.getByTestId("chart-preview");
  await expect(preview.locator(".seed-chart-value-label").first()).toHaveText("1.234,5");
  await expectAxeClean(page);
  await createChart(page);
  // Saved: the editor opens with each option as chosen.
  await expect(page.getByLabel("Legend", { exact: true })).toHaveValue("top");
  await expect(page.getByLabel("Value labels")).toHaveValue("value");
  await expect(page.getByLabel("Numbers and dates written for")).toHaveValue("de-DE");
  await expect(page.getByLabel("Date format")).toHaveValue("day");

  const pieTitle = uniqueName("Visitor pie");
  await openNewChart(page, datasetName, pieTitle);
  await page.getByLabel("Type").selectOption({ label: "Pie" });
  await page.getByLabel("Slice names (index column)").selectOption("region");
  await page.getByRole("radio", { name: "amount" }).check();
  await page.getByLabel("Combine rows with").selectOption("sum");
  await page.getByLabel("Slice labels").selectOption("value");
  // East (3.3%) and West (21.5%) fall under 25%.
  await page.getByLabel("Group slices under this share into Other (%)").fill("25");
  await page.getByLabel("Numbers and dates written for").selectOption("visitor");
  await expect(preview.getByRole("button", { name: "Other" })).toBeVisible();
  await createChart(page);
  await expect(page.getByLabel("Group slices under this share into Other (%)")).toHaveValue("25");

  const slug = await publishDashboard(page, [barTitle, pieTitle]);
  await context.close();

  // A French visitor: the bar chart keeps German, the pie follows the visitor.
  const visitor = await browser.newContext({ locale: "fr-FR" });
  const visitorPage = await visitor.newPage();
  const consoleErrors: string[] = [];
  visitorPage.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  expect((await visitorPage.goto(`/d/${slug}`))?.status()).toBe(200);
  const bars = visitorPage.getByRole("figure", { name: barTitle });
  await expect(bars).toHaveAttribute("data-legend", "top");
  await expect(bars.locator(".seed-chart-value-label").first()).toHaveText("1.234,5");
  await expect(bars.getByRole("rowheader", { name: "01.01.2024" })).toBeAttached();
  await expect(bars.getByRole("cell", { name: "1.234,5" })).toBeAttached();

  const pie = visitorPage.getByRole("figure", { name: pieTitle });
  await expect(pie.getByRole("button", { name: "Other" })).toBeVisible();
  await expect(pie.getByRole("button", { name: "East" })).toHaveCount(0);
  await expect(pie.getByRole("button", { name: "West" })).toHaveCount(0);
  // The slice's label on the plot, in French digits (a narrow space groups the thousands).
  await expect(pie.locator(".recharts-surface").getByText(/^1\s234,5$/)).toBeVisible();
  // The server's en-US page hydrates into the visitor's locale without a mismatch.
  expect(consoleErrors).toEqual([]);
  await visitor.close();
});

// Population by census year: a number x that reads best without grouping (1900, not 1,900).
const censusCsv = [
  "year,people",
  "1900,76212168",
  "1950,151325798",
  "2000,281421906",
  "2020,331449281",
].join("\n");

test("years on a number x read 1900 in the preview and on the published dashboard", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Census");
  await createDatasetThroughForm(page, datasetName, censusCsv);
  const title = uniqueName("People by year");
  await openNewChart(page, datasetName, title);
  await page.getByLabel("Type").selectOption({ label: "Line" });
  await page.getByLabel("Index column (x axis)").selectOption("year");
  await page.getByRole("checkbox", { name: "people" }).check();
  const xNumbers = page.getByLabel("X-axis numbers");
  const preview = page.getByTestId("chart-preview");

  // Offered for a number x, automatic at first, which writes years as years (no grouping).
  await expect(xNumbers).toHaveValue("auto");
  await expect(preview.getByRole("rowheader", { name: "1900" })).toBeAttached();
  await expect(preview.locator(".recharts-xAxis-tick-labels")).not.toContainText("1,9");
  // Reached with the keyboard from the locale choice before it.
  await page.getByLabel("Numbers and dates written for").focus();
  await page.keyboard.press("Tab");
  await expect(xNumbers).toBeFocused();
  await xNumbers.selectOption("plain");
  await expect(preview.getByRole("rowheader", { name: "1900" })).toBeAttached();
  await expect(preview.locator(".recharts-xAxis-tick-labels")).toContainText("1900");
  await expect(preview.locator(".recharts-xAxis-tick-labels")).not.toContainText("1,900");
  await expectAxeClean(page);

  // On a phone the editor, its new select and the preview fit without scrolling sideways.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(xNumbers).toBeVisible();
  await expect.poll(() => horizontalOverflow(page)).toBe(0);
  await page.setViewportSize({ width: 1280, height: 720 });

  // A pie takes no x number format; a bar does, and starts from automatic again.
  await page.getByLabel("Type").selectOption({ label: "Pie" });
  await expect(xNumbers).toHaveCount(0);
  await page.getByLabel("Type").selectOption({ label: "Bar" });
  await expect(xNumbers).toHaveValue("auto");
  await page.getByLabel("Type").selectOption({ label: "Line" });
  await xNumbers.selectOption("plain");
  await createChart(page);
  await expect(page.getByLabel("X-axis numbers")).toHaveValue("plain");

  const slug = await publishDashboard(page, [title]);
  await context.close();

  const visitor = await browser.newContext({ locale: "en-US" });
  const visitorPage = await visitor.newPage();
  expect((await visitorPage.goto(`/d/${slug}`))?.status()).toBe(200);
  const figure = visitorPage.getByRole("figure", { name: title });
  await expect(figure.getByRole("rowheader", { name: "1900" })).toBeAttached();
  await expect(figure.getByRole("rowheader", { name: "2020" })).toBeAttached();
  await expect(figure.locator(".recharts-xAxis-tick-labels")).toContainText("1900");
  await expect(figure.locator(".recharts-xAxis-tick-labels")).not.toContainText("1,900");
  await visitor.close();
});

test("the preview's tooltip does not outlive a change of the x column", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Tooltip chart");
  await openNewChart(page, await ordersDataset(page), title);
  await page.getByLabel("Type").selectOption("line");
  await page.getByLabel("Index column (x axis)").selectOption("day");
  await page.getByRole("checkbox", { name: "amount" }).check();
  const preview = page.getByTestId("chart-preview");
  const figure = preview.getByRole("figure", { name: title });
  await expect(figure.locator(".recharts-line-curve")).toBeVisible();

  const box = await figure.locator(".recharts-surface").first().boundingBox();
  if (!box) throw new Error("The preview has no plot");
  const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(middle.x, middle.y);
  const tooltip = preview.locator(".seed-chart-tooltip");
  await expect(tooltip).toContainText("2024");

  // The pointer rests while the keyboard picks names for x: the new chart opens no tooltip.
  await page.getByLabel("Index column (x axis)").focus();
  await page.getByLabel("Index column (x axis)").selectOption("region");
  await expect(figure.getByRole("rowheader", { name: "North" })).toBeAttached();
  await expect(figure.locator(".recharts-line-curve")).toBeVisible();
  // Two frames: the browser reports what lies under a resting pointer after a layout.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  );
  await expect(tooltip).toHaveCount(0);

  // Moving the pointer shows the new chart's own tooltip.
  await page.mouse.move(middle.x + 2, middle.y);
  await expect(tooltip).toBeVisible();
  await expect(tooltip).not.toContainText("2024");
  await context.close();
});

// Sales by year with nine years missing (2006 to 2014): a line that runs straight across them
// would say the data goes on.
const gappedCsv = [
  "day,amount",
  ...[2000, 2001, 2002, 2003, 2004, 2005, 2015, 2016, 2017].map(
    (year, index) => `${year}-06-15,${10 + index}`,
  ),
].join("\n");

/** How many separate runs the first line of a figure draws (each starts with a move, M). */
async function lineRuns(figure: ReturnType<Page["getByRole"]>): Promise<number> {
  const d = await figure.locator(".recharts-line-curve").first().getAttribute("d");
  return (d?.match(/M/g) ?? []).length;
}

test("a line over years breaks where years have no data, or connects across them when told", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Gapped sales");
  await createDatasetThroughForm(page, datasetName, gappedCsv);
  const title = uniqueName("Sales by year");
  await openNewChart(page, datasetName, title);
  await page.getByLabel("Type").selectOption({ label: "Line" });
  await page.getByLabel("Index column (x axis)").selectOption("day");
  await page.getByLabel("Group dates by").selectOption("year");
  await page.getByRole("checkbox", { name: "amount" }).check();
  await page.getByLabel("Combine rows with").selectOption("sum");
  const preview = page.getByTestId("chart-preview").getByRole("figure", { name: title });
  const gaps = page.getByLabel("Periods without data");

  // The missing years are rows of their own, empty, and the line is two runs.
  await expect(gaps).toHaveValue("break");
  await expect(preview.getByRole("rowheader", { name: "2010" })).toBeAttached();
  await expect(preview.getByRole("rowheader")).toHaveCount(18);
  await expect.poll(() => lineRuns(preview)).toBe(2);
  await expectAxeClean(page);
  await gaps.selectOption("connect");
  await expect(preview.getByRole("rowheader", { name: "2010" })).toHaveCount(0);
  await expect.poll(() => lineRuns(preview)).toBe(1);
  // A bar chart keeps its bars as they are: no option, no empty years; back to a line, the
  // option starts from its default again.
  await page.getByLabel("Type").selectOption({ label: "Bar" });
  await expect(gaps).toHaveCount(0);
  await expect(preview.getByRole("rowheader", { name: "2010" })).toHaveCount(0);
  await page.getByLabel("Type").selectOption({ label: "Line" });
  await expect(gaps).toHaveValue("break");
  await createChart(page);
  await expect(page.getByLabel("Periods without data")).toHaveValue("break");

  const slug = await publishDashboard(page, [title]);
  await context.close();
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  expect((await visitorPage.goto(`/d/${slug}`))?.status()).toBe(200);
  const figure = visitorPage.getByRole("figure", { name: title });
  await expect(figure.getByRole("rowheader", { name: "2010" })).toBeAttached();
  await expect.poll(() => lineRuns(figure)).toBe(2);
  await visitor.close();
});

test("annotations typed in the editor are drawn in the preview and on the published dashboard", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Annotated orders");
  await openNewChart(page, await ordersDataset(page), title);
  await page.getByLabel("Type").selectOption({ label: "Line" });
  await page.getByLabel("Index column (x axis)").selectOption("day");
  await page.getByRole("checkbox", { name: "amount" }).check();
  const row = (n: number) => page.getByRole("group", { name: `Annotation ${n}` });

  await page.getByRole("button", { name: "Add an annotation" }).click();
  await row(1).getByLabel("Day", { exact: true }).fill("2024-02-01");
  await row(1).getByLabel("Text").fill("Price change");
  await page.getByRole("button", { name: "Add an annotation" }).click();
  await row(2).getByLabel("Day", { exact: true }).fill("2024-03-01");
  await row(2).getByLabel("Last day, for a period").fill("2024-04-01");
  await row(2).getByLabel("Text").fill("Spring sale");
  // A third without a text: the save names it at its row and stores nothing.
  await page.getByRole("button", { name: "Add an annotation" }).click();
  await row(3).getByLabel("Day", { exact: true }).fill("2024-01-01");

  const preview = page.getByTestId("chart-preview");
  await expect(preview.locator(".seed-chart-annotation")).toHaveCount(2);
  await expect(preview.getByRole("rowheader", { name: /— Price change$/ })).toBeAttached();
  await expect(preview.getByRole("rowheader", { name: /— Spring sale$/ })).toHaveCount(2);
  await expectAxeClean(page);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole("button", { name: "Create chart" }).click();
  await expect(row(3).getByText("Write what happened.")).toBeVisible();
  expect(page.url()).toMatch(/\/admin\/charts\/new$/);
  await page.getByRole("button", { name: "Remove annotation 3" }).click();
  await createChart(page);
  // Saved: the editor opens with both, as typed.
  await expect(row(1).getByLabel("Day", { exact: true })).toHaveValue("2024-02-01");
  await expect(row(2).getByLabel("Last day, for a period")).toHaveValue("2024-04-01");
  await expect(row(2).getByLabel("Text")).toHaveValue("Spring sale");
  await expect(row(3)).toHaveCount(0);

  const slug = await publishDashboard(page, [title]);
  await context.close();
  const visiting = await browser.newContext();
  const visitor = await visiting.newPage();
  expect((await visitor.goto(`/d/${slug}`))?.status()).toBe(200);
  const chart = visitor.getByRole("figure", { name: title });
  // the kit's drawing (the server's stays in the page, hidden, under it)
  const drawn = chart.locator(".recharts-wrapper");
  await expect(drawn.locator(".seed-chart-annotation")).toHaveCount(2);
  await expect(drawn.locator(".seed-chart-annotation line")).toHaveCount(1);
  await expect(drawn.locator(".seed-chart-annotation rect")).toHaveCount(1);
  await expect(chart.getByRole("rowheader", { name: /— Price change$/ })).toBeAttached();
  await expectAxeClean(visitor);
  await visiting.close();
  // Before any script runs, the server's drawing has them too.
  const scriptless = await browser.newContext({ javaScriptEnabled: false });
  const reader = await scriptless.newPage();
  await reader.goto(`/d/${slug}`);
  const fallback = reader.getByRole("figure", { name: title }).locator(".seed-chart-fallback");
  await expect(fallback.locator(".seed-chart-annotation")).toHaveCount(2);
  await expect(fallback.locator(".seed-chart-annotation title")).toHaveText([
    "Price change",
    "Spring sale",
  ]);
  await scriptless.close();
});
