import { expect, type Locator, type Page, test } from "@playwright/test";
import {
  createDashboardThroughForm,
  createDatasetThroughForm,
  expectAxeClean,
  previewSeries,
  previewValues,
  signedInPage,
  slugOf,
  uniqueName,
} from "./content-support";
import { horizontalOverflow } from "./support";

// The chart editor builds a query with controls, by keyboard alone: "revenue per month per
// region, last 12 months, top 5 regions" from the demo's daily rows.

/** A new chart's form, titled, over the demo's daily rows, as a chart of `type` (its label). */
async function startChart(page: Page, title: string, type: string) {
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page.getByLabel("Dataset").selectOption({ label: "Daily revenue by region" });
  await page.getByLabel("Type").selectOption({ label: type });
}

/** Moves a focused <select> with the arrow keys until the wanted option is chosen. */
async function chooseWithKeys(page: Page, select: Locator, label: string) {
  await select.focus();
  // As many steps as the menu has options: other tests add datasets to the shared server.
  const steps = await select.evaluate((element: HTMLSelectElement) => element.options.length);
  for (let step = 0; step < steps; step++) {
    const chosen = await select.evaluate(
      (element: HTMLSelectElement) => element.selectedOptions[0]?.textContent ?? "",
    );
    if (chosen === label) return;
    await page.keyboard.press("ArrowDown");
  }
  throw new Error(`No option "${label}" reached with the arrow keys`);
}

test("an editor builds revenue per month per region, last 12 months, top 5, with the keyboard", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Revenue per month by region");
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  await page.getByRole("textbox", { name: "Title" }).focus();
  await page.keyboard.type(title);
  await chooseWithKeys(page, page.getByLabel("Dataset"), "Daily revenue by region");
  await chooseWithKeys(page, page.getByLabel("Type"), "Bar");
  await expect(page.getByLabel("Index column (x axis)")).toHaveValue("day");
  await chooseWithKeys(page, page.getByLabel("Group dates by"), "Month");
  await chooseWithKeys(page, page.getByLabel("Combine rows with"), "Sum");
  await expect(page.getByRole("checkbox", { name: "revenue" })).toBeChecked();
  await chooseWithKeys(page, page.getByLabel("Split into series by"), "region");
  await expect(page.getByLabel("Series to show (the rest is Other)")).toHaveValue("5");
  await page.getByRole("button", { name: "Add a filter" }).focus();
  await page.keyboard.press("Enter");
  const filter = page.getByRole("group", { name: "Filter 1" });
  await expect(filter.getByLabel("Column")).toHaveValue("day");
  await expect(filter.getByLabel("Condition")).toHaveValue("relative");
  await expect(filter.getByLabel("How many")).toHaveValue("12");
  await expect(filter.getByLabel("Unit")).toHaveValue("month");

  // The preview runs the query in the database: five regions, twelve months at most.
  const preview = page.getByTestId("chart-preview");
  await expect(preview.getByRole("figure", { name: title })).toBeVisible();
  await expect(preview.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expectAxeClean(page);

  await page.getByRole("button", { name: "Create chart" }).focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  // Saved as a query: the editor opens with every part of it.
  await expect(page.getByLabel("Group dates by")).toHaveValue("month");
  await expect(page.getByLabel("Combine rows with")).toHaveValue("sum");
  await expect(page.getByLabel("Split into series by")).toHaveValue("region");
  await expect(page.getByRole("group", { name: "Filter 1" }).getByLabel("Unit")).toHaveValue(
    "month",
  );
  await context.close();
});

test("a query that does not fit shows field errors in the editor and saves nothing", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("textbox", { name: "Title" }).fill(uniqueName("Bad filter"));
  await page.getByLabel("Dataset").selectOption({ label: "Daily revenue by region" });
  await page.getByRole("checkbox", { name: "revenue" }).check();
  await page.getByRole("button", { name: "Add a filter" }).click();
  const filter = page.getByRole("group", { name: "Filter 1" });
  await filter.getByLabel("Column").selectOption("revenue");
  await filter.getByLabel("Condition").selectOption("lt");
  await filter.getByLabel("Value").fill("not a number");
  await page.getByRole("button", { name: "Create chart" }).click();
  await expect(filter.getByText('"revenue" holds numbers; enter a number.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/charts\/new$/);
  await context.close();
});

test("a stat tile counts a period and compares it with the period before", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Period board");
  const slug = slugOf(title);
  await createDashboardThroughForm(page, title, { slug, timeZone: "Europe/Paris" });

  const statForm = page.getByRole("form", { name: "Add a stat tile" });
  await statForm.getByLabel("Label").fill("Revenue last month");
  await statForm.getByLabel("Dataset").selectOption({ label: "Daily revenue by region" });
  await statForm.getByLabel("Column", { exact: true }).selectOption("revenue");
  await statForm.getByLabel("Aggregation").selectOption("sum");
  await statForm.getByLabel("Dates from").selectOption("day");
  await statForm.getByLabel("Range").selectOption("previous");
  await statForm.getByLabel("Unit").selectOption("month");
  await expect(statForm.getByLabel("Compare with the period before")).toBeChecked();
  await statForm.getByRole("button", { name: "Add stat tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await expectAxeClean(page);
  await page.getByRole("button", { name: `Publish ${title}` }).click();
  await expect(page.getByText("Published.")).toBeVisible();
  await context.close();

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  expect((await visitorPage.goto(`/d/${slug}`))?.status()).toBe(200);
  await expect(visitorPage.getByText("Revenue last month")).toBeVisible();
  await expect(visitorPage.getByText("vs previous period")).toBeVisible();
  await visitor.close();
});

test("options follow the chart type and query: stacking only for several series", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Dataset").selectOption({ label: "Daily revenue by region" });
  await page.getByLabel("Type").selectOption({ label: "Bar" });
  const stacking = page.getByLabel("Stacking");
  await expect(page.getByRole("checkbox", { name: "revenue" })).toBeChecked();

  // One measure, no breakdown: nothing to stack.
  await expect(stacking).toHaveCount(0);
  await page.getByLabel("Combine rows with").selectOption({ label: "Sum" });
  await page.getByLabel("Split into series by").selectOption("region");
  await expect(stacking).toBeVisible();
  await page.getByLabel("Split into series by").selectOption("");
  await expect(stacking).toHaveCount(0);

  // Each type shows only its own options.
  for (const [type, present, absent] of [
    ["Line", ["Curve"], ["Horizontal bars", "Donut (hole with the total)"]],
    ["Pie", ["Donut (hole with the total)"], ["Curve", "Horizontal bars", "Stacking"]],
    ["Bar", ["Horizontal bars"], ["Curve", "Donut (hole with the total)"]],
  ] as const) {
    await page.getByLabel("Type").selectOption({ label: type });
    for (const label of present) await expect(page.getByLabel(label)).toBeVisible();
    for (const label of absent) await expect(page.getByLabel(label)).toHaveCount(0);
  }
  await expectAxeClean(page);
  await context.close();
});

/** The preview's first series as it is, an empty value as null. */
async function rawValues(page: Page): Promise<Array<number | null>> {
  return Object.values((await previewSeries(page)).series)[0] ?? [];
}

test("a pie of the top 2 regions and Other keeps the whole: Other is the rest, not dropped", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Top regions and Other");
  await startChart(page, title, "Pie");
  await page.getByLabel("Slice names (index column)").selectOption("region");
  await page.getByLabel("Combine rows with").selectOption({ label: "Sum" });
  await page.getByRole("radio", { name: "revenue" }).check();
  await page.getByLabel("Order", { exact: true }).selectOption({ label: "largest value first" });

  // Every region first: the whole.
  const preview = page.getByTestId("chart-preview");
  await expect(preview.getByRole("figure", { name: title })).toBeVisible();
  await expect.poll(async () => (await previewValues(page)).length).toBe(5);
  const every = await previewValues(page);
  const whole = every.reduce((sum, [, value]) => sum + value, 0);

  // At most 2 with the rest as Other: the two largest, then Other holding exactly the rest.
  await page.getByLabel("Show at most (groups, optional)").fill("2");
  const other = page.getByRole("checkbox", { name: "Group the rest into Other" });
  await other.focus();
  await page.keyboard.press("Space");
  await expect(other).toBeChecked();
  await expect
    .poll(async () => (await previewValues(page)).map(([name]) => name))
    .toEqual([every[0]?.[0], every[1]?.[0], "Other"]);
  const grouped = await previewValues(page);
  const rest = every.slice(2).reduce((sum, [, value]) => sum + value, 0);
  expect(grouped[2]?.[1]).toBeCloseTo(rest, 6);
  expect(grouped.reduce((sum, [, value]) => sum + value, 0)).toBeCloseTo(whole, 6);
  await expectAxeClean(page);

  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await expect(page.getByRole("checkbox", { name: "Group the rest into Other" })).toBeChecked();
  await expect(page.getByLabel("Show at most (groups, optional)")).toHaveValue("2");
  await context.close();
});

test("shares of the total add up to the whole, and a running total ends at it", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("textbox", { name: "Title" }).fill(uniqueName("Shares"));
  await page.getByLabel("Dataset").selectOption({ label: "Daily revenue by region" });
  await page.getByLabel("Type").selectOption({ label: "Bar" });
  await page.getByLabel("Index column (x axis)").selectOption("region");
  await page.getByLabel("Combine rows with").selectOption({ label: "Sum" });
  await expect(page.getByRole("checkbox", { name: "revenue" })).toBeChecked();
  await expect.poll(async () => (await previewValues(page)).length).toBe(5);
  const sums = await previewValues(page);
  const whole = sums.reduce((sum, [, value]) => sum + value, 0);

  const show = page.getByLabel("Show values as");
  await show.selectOption({ label: "Share of the total (percent)" });
  await expect
    .poll(async () => (await previewValues(page)).reduce((sum, [, value]) => sum + value, 0))
    .toBeCloseTo(1, 9);
  for (const [index, [, share]] of (await previewValues(page)).entries()) {
    expect(share).toBeCloseTo((sums[index]?.[1] ?? 0) / whole, 9);
  }
  // Drawn as percentages.
  const table = page.getByTestId("chart-preview").getByTestId("seed-chart-table");
  await expect(table.locator("td").first()).toHaveText(/%$/);

  await show.selectOption({ label: "Running total (along x)" });
  await expect.poll(async () => (await previewValues(page)).at(-1)?.[1] ?? 0).toBeCloseTo(whole, 6);
  const running = await previewValues(page);
  for (const [index, [, value]] of running.entries()) {
    const before = sums.slice(0, index + 1).reduce((sum, [, part]) => sum + part, 0);
    expect(value).toBeCloseTo(before, 6);
  }

  // By month: each month's change from the month before, the first with none.
  await show.selectOption({ label: "Values" });
  await page.getByLabel("Index column (x axis)").selectOption("day");
  await page.getByLabel("Group dates by").selectOption({ label: "Month" });
  // Two years of days by month: more groups than the five regions before.
  await expect.poll(async () => (await previewValues(page)).length).toBeGreaterThan(12);
  const months = await rawValues(page);
  await show.selectOption({ label: "Change from the period before (percent)" });
  await expect.poll(async () => (await rawValues(page))[0]).toBeNull();
  const changes = await rawValues(page);
  expect(changes).toHaveLength(months.length);
  for (let index = 1; index < months.length; index++) {
    const [now, before] = [months[index] ?? 0, months[index - 1] ?? 0];
    expect(changes[index]).toBeCloseTo((now - before) / Math.abs(before), 9);
  }
  await expect(table.locator("td").nth(1)).toHaveText(/^[+\-\u2212]\d/);

  // Each month against the same month a year before (every month of the two years has rows).
  await show.selectOption({ label: "Change from the same period a year before (percent)" });
  await expect.poll(async () => (await rawValues(page))[12]).not.toBeNull();
  const yearOnYear = await rawValues(page);
  expect(yearOnYear).toHaveLength(months.length);
  for (let index = 0; index < months.length; index++) {
    if (index < 12) {
      expect(yearOnYear[index]).toBeNull();
      continue;
    }
    const [now, before] = [months[index] ?? 0, months[index - 12] ?? 0];
    expect(yearOnYear[index]).toBeCloseTo((now - before) / Math.abs(before), 9);
  }
  await expectAxeClean(page);
  await context.close();
});

test("a count where counts each region's rows that pass, the same rows a filter keeps, and keeps every region", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Count where");
  await startChart(page, title, "Bar");
  await page.getByLabel("Index column (x axis)").selectOption("region");
  await expect(page.getByRole("checkbox", { name: "revenue" })).toBeChecked();

  // A threshold inside the data: the mean of the regions' average revenue.
  await page.getByLabel("Combine rows with").selectOption({ label: "Average" });
  await expect.poll(async () => (await previewValues(page)).length).toBe(5);
  const averages = await previewValues(page);
  const threshold = Math.round(averages.reduce((sum, [, v]) => sum + v, 0) / 5);

  await page.getByLabel("Combine rows with").selectOption({ label: "Count of rows with a value" });
  await expect
    .poll(async () => (await previewValues(page)).reduce((sum, [, v]) => sum + v, 0))
    .toBeGreaterThan(100);
  const every = await previewValues(page);
  const total = every.reduce((sum, [, v]) => sum + v, 0);

  const conditions = page.getByRole("group", { name: "Combine only rows where" });
  await conditions.getByRole("button", { name: "Add a condition" }).click();
  await conditions.getByLabel("Column").selectOption("revenue");
  await conditions
    .getByRole("combobox", { name: /^Condition/ })
    .selectOption({ label: "is greater than" });
  await conditions.getByLabel("Value").fill(String(threshold));
  // Fewer rows count, and every region is still drawn.
  await expect
    .poll(async () => (await previewValues(page)).reduce((sum, [, v]) => sum + v, 0))
    .toBeLessThan(total);
  const counted = await previewValues(page);
  expect(counted.map(([name]) => name)).toEqual(every.map(([name]) => name));
  const table = page.getByTestId("chart-preview").getByTestId("seed-chart-table");
  await expect(table.locator("th").nth(1)).toHaveText(
    `Count of revenue where revenue > ${threshold}`,
  );
  await expectAxeClean(page);

  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await expect(conditions.getByLabel("Value")).toHaveValue(String(threshold));

  // The same condition as the query's filter keeps the same rows: the same counts, where the
  // filter leaves a region any rows at all.
  await conditions.getByRole("button", { name: "Remove condition 1" }).click();
  const filters = page.getByRole("group", { name: "Filters" });
  await filters.getByRole("button", { name: "Add a filter" }).click();
  await filters.getByLabel("Column").selectOption("revenue");
  await filters.getByLabel("Condition").selectOption({ label: "is greater than" });
  await filters.getByLabel("Value").fill(String(threshold));
  await expect
    .poll(async () => (await previewValues(page)).reduce((sum, [, v]) => sum + v, 0))
    .toBe(counted.reduce((sum, [, v]) => sum + v, 0));
  const filtered = new Map(await previewValues(page));
  for (const [region, count] of counted) expect(filtered.get(region) ?? 0).toBe(count);
  await context.close();
});

test("a new pie starts as a person draws one: slices named by region, each the sum of its rows", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("textbox", { name: "Title" }).fill(uniqueName("First pie"));
  await page.getByLabel("Dataset").selectOption({ label: "Daily revenue by region" });
  // A new chart starts from the dates and raw values; a pie of those would be thousands of days.
  await expect(page.getByLabel("Index column (x axis)")).toHaveValue("day");
  await page.getByLabel("Type").selectOption({ label: "Pie" });
  await expect(page.getByLabel("Slice names (index column)")).toHaveValue("region");
  await expect(page.getByLabel("Combine rows with")).toHaveValue("sum");
  await expect(page.getByRole("radio", { name: "revenue" })).toBeChecked();
  await expect.poll(async () => (await previewValues(page)).length).toBe(5);
  const slices = await previewValues(page);
  // The same sums a bar of the regions draws.
  await page.getByLabel("Type").selectOption({ label: "Bar" });
  await expect(page.getByLabel("Index column (x axis)")).toHaveValue("region");
  await expect.poll(async () => previewValues(page)).toEqual(slices);
  await expectAxeClean(page);
  await context.close();
});

test("average price per order per month, last 12 months of data, top 5 regions and Other", async ({
  browser,
}) => {
  // Two and a half years of monthly orders for eight regions, ending in June 2015: "the last 12
  // months" of this data are July 2014 to June 2015, whatever today is.
  const regions = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Gum", "Hazel"];
  const rows: Array<{ day: string; region: string; revenue: number; orders: number }> = [];
  for (let month = 0; month < 30; month++) {
    const day = `${2013 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, "0")}-15`;
    regions.forEach((region, r) => {
      const orders = 1 + ((r * 7 + month * 3) % 11) + (r < 2 ? 20 : 0);
      rows.push({
        day,
        region,
        orders,
        revenue: orders * (10 + r * 3) + ((month * 13 + r * 5) % 17),
      });
    });
  }
  const csv = [
    "day,region,revenue,orders",
    ...rows.map((row) => `${row.day},${row.region},${row.revenue},${row.orders}`),
  ].join("\n");
  // The oracle: the ratio of sums in each month, regions ranked by it over the whole period.
  const kept = rows.filter((row) => row.day >= "2014-07-01" && row.day < "2015-07-01");
  const ratio = (of: typeof kept) =>
    of.reduce((total, row) => total + row.revenue, 0) /
    of.reduce((total, row) => total + row.orders, 0);
  const top = regions
    .map((region) => ({ region, value: ratio(kept.filter((row) => row.region === region)) }))
    .sort((a, b) => b.value - a.value || a.region.localeCompare(b.region))
    .slice(0, 5)
    .map((entry) => entry.region);
  const months = [...new Set(kept.map((row) => row.day))].sort();
  const expected: Record<string, number[]> = Object.fromEntries([
    ...top.map((region) => [
      region,
      months.map((day) => ratio(kept.filter((row) => row.day === day && row.region === region))),
    ]),
    [
      "Other",
      months.map((day) =>
        ratio(kept.filter((row) => row.day === day && !top.includes(row.region))),
      ),
    ],
  ]);

  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Regional orders to 2015");
  await createDatasetThroughForm(page, datasetName, csv);
  const title = uniqueName("Price per order by region");
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page.getByLabel("Dataset").selectOption({ label: datasetName });
  await page.getByLabel("Type").selectOption("line");
  await expect(page.getByLabel("Index column (x axis)")).toHaveValue("day");
  await page.getByLabel("Group dates by").selectOption("month");
  await page.getByLabel("Combine rows with").selectOption("formula");
  await page.getByLabel("Formula").fill("sum([revenue]) / sum([orders])");
  await page.getByLabel("Split into series by").selectOption("region");
  await page.getByLabel("Series to show (the rest is Other)").fill("5");
  await page.getByRole("button", { name: "Add a filter" }).click();
  const filter = page.getByRole("group", { name: "Filter 1" });
  await filter.getByLabel("Column").selectOption("day");
  await filter.getByLabel("Condition").selectOption("relative");
  await filter.getByLabel("How many").fill("12");
  await filter.getByLabel("Unit").selectOption("month");
  await filter.getByLabel("Counted back from").selectOption("latest");

  await expect
    .poll(async () => {
      const drawn = (await previewSeries(page)).series;
      return Object.fromEntries(
        Object.entries(drawn).map(([name, values]) => [
          name,
          values.map((value) => (value === null ? null : Math.round(value * 1e9) / 1e9)),
        ]),
      );
    })
    .toEqual(
      Object.fromEntries(
        Object.entries(expected).map(([name, values]) => [
          name,
          values.map((value) => Math.round(value * 1e9) / 1e9),
        ]),
      ),
    );
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await expect(page.getByLabel("Formula")).toHaveValue("sum([revenue]) / sum([orders])");
  await expect(page.getByLabel("Split into series by")).toHaveValue("region");
  await context.close();
});

test("each measure its own: a count beside a count where and a named median, kept when the chart is opened again", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const title = uniqueName("Measures");
  await startChart(page, title, "Bar");
  await page.getByLabel("Index column (x axis)").selectOption("region");
  await page.getByLabel("Combine rows with").selectOption({ label: "Count of rows with a value" });

  // A second measure, added and set up from the keyboard: a count of the rows of one region.
  const more = page.getByRole("group", { name: "More measures" });
  await more.getByRole("button", { name: "Add a measure" }).focus();
  await page.keyboard.press("Enter");
  const second = more.getByRole("group", { name: /^Measure 2:/ });
  await expect(second).toHaveAccessibleName("Measure 2: Count");
  await second.getByRole("button", { name: "Add a condition" }).focus();
  await page.keyboard.press("Enter");
  const condition = second.getByRole("group", { name: "Condition 1" });
  await condition.getByLabel("Column").selectOption("region");
  await condition.getByLabel("Value").fill("North");
  await expect(second).toHaveAccessibleName("Measure 2: Count where region is North");

  // A third: the median revenue, under a name of its own.
  await more.getByRole("button", { name: "Add a measure" }).click();
  const third = more.getByRole("group", { name: /^Measure 3:/ });
  await third.getByLabel("Combine rows with").selectOption({ label: "Median" });
  await expect(third.getByLabel("Column", { exact: true })).toHaveValue("revenue");
  await third.getByLabel("Name (optional)").fill("Median revenue");

  const expected = ["Count of revenue", "Count where region is North", "Median revenue"];
  await expect.poll(async () => Object.keys((await previewSeries(page)).series)).toEqual(expected);
  const { x, series } = await previewSeries(page);
  const counts = series["Count of revenue"] ?? [];
  const north = series["Count where region is North"] ?? [];
  // Each region keeps its place; only North's rows count toward the second measure.
  expect([...x].sort()).toEqual(["East", "Islands", "North", "South", "West"]);
  for (const [index, region] of x.entries()) {
    expect(north[index] ?? 0).toBe(region === "North" ? counts[index] : 0);
    expect(counts[index]).toBeGreaterThan(300);
  }
  for (const median of series["Median revenue"] ?? []) expect(median).toBeGreaterThan(0);
  await expectAxeClean(page);
  // The measures' rows fit a phone without scrolling sideways.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(third.getByLabel("Name (optional)")).toBeVisible();
  await expect.poll(() => horizontalOverflow(page)).toBe(0);
  await page.setViewportSize({ width: 1280, height: 720 });

  // Ordered by the third measure: the choice names every measure.
  await page.getByLabel("Order", { exact: true }).selectOption({ label: "largest value first" });
  await page.getByLabel("Ordered by the values of").selectOption({ label: "Median revenue" });
  await expect
    .poll(async () => {
      const medians = (await previewSeries(page)).series["Median revenue"] ?? [];
      return medians.every(
        (value, index) => index === 0 || (medians[index - 1] ?? 0) >= (value ?? 0),
      );
    })
    .toBe(true);

  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const reopened = page.getByRole("group", { name: "More measures" });
  await expect(reopened.getByRole("group", { name: /^Measure \d:/ })).toHaveCount(2);
  await expect(
    reopened
      .getByRole("group", { name: "Measure 2: Count where region is North" })
      .getByRole("textbox", { name: "Value" }),
  ).toHaveValue("North");
  await expect(
    reopened
      .getByRole("group", { name: "Measure 3: Median revenue" })
      .getByLabel("Name (optional)"),
  ).toHaveValue("Median revenue");
  await expect(page.getByLabel("Ordered by the values of")).toHaveValue("2");

  // Removing a measure takes it out of the query; the others keep their own settings, and the
  // order still follows the median, now the second measure.
  await reopened.getByRole("button", { name: "Remove measure 2" }).click();
  await expect
    .poll(async () => Object.keys((await previewSeries(page)).series))
    .toEqual(["Count of revenue", "Median revenue"]);
  await expect(page.getByLabel("Ordered by the values of")).toHaveValue("1");
  await context.close();
});
