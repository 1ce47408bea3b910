import { type Browser, expect, type Page, request, test } from "@playwright/test";
import fc from "fast-check";
import {
  expectAxeClean,
  importCsvAsEditor,
  publishSummedBarChart,
  signedInPage,
  uniqueName,
} from "./content-support";
import { appBaseURL, horizontalOverflow } from "./support";

// Dashboard filters: the admin picks a date column and a category column; a visitor filters by
// a preset and a value, the address holds the filters (a link shows the same view), back and
// "Clear filters" undo them, bad values are ignored with a message, each combination is cached
// and expired by writes, at a phone's width in both themes, and in the embed too.

function dayBefore(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

interface FilteredBoard {
  slug: string;
  chartTitle: string;
  salesId: string;
  salesVersion: number;
}

/** Sales by region (recent and old rows) and visits without a region, on one published board. */
async function filteredBoard(browser: Browser): Promise<FilteredBoard> {
  const salesName = uniqueName("Filtered sales");
  const recent = dayBefore(2);
  const old = dayBefore(100);
  const sales = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(salesName)}`,
    `day,region,amount\n${recent},Alfa,100\n${recent},Bravo,200\n${old},Alfa,1000\n${old},Charlie,3000\n`,
  );
  const visitsName = uniqueName("Filtered visits");
  await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(visitsName)}`,
    `day,visits\n${recent},7\n${old},70000\n`,
  );
  const { context, page } = await signedInPage(browser, "editor");
  const { slug, chartTitle } = await publishSummedBarChart(page, {
    datasetName: salesName,
    x: "region",
    measure: "amount",
  });
  const statForm = page.getByRole("form", { name: "Add a stat tile" });
  await statForm.getByLabel("Label").fill("Visits total");
  await statForm.getByLabel("Dataset").selectOption({ label: visitsName });
  await statForm.getByLabel("Column").selectOption("visits");
  await statForm.getByLabel("Aggregation").selectOption("sum");
  await statForm.getByRole("button", { name: "Add stat tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();

  const filtersForm = page.getByRole("form", { name: "Dashboard filters" });
  // The server checks each column against the dashboard's datasets, whatever the form offered.
  await filtersForm.getByLabel("Category filter 2").evaluate((select: HTMLSelectElement) => {
    select.add(new Option("nowhere", "nowhere", true, true));
  });
  await filtersForm.getByRole("button", { name: "Save filters" }).click();
  await expect(
    filtersForm.getByText(
      'No dataset on this dashboard has a text or true/false column "nowhere".',
    ),
  ).toBeVisible();
  await expect(filtersForm.getByLabel("Category filter 2")).toHaveAttribute("aria-invalid", "true");
  await expectAxeClean(page);
  await filtersForm.getByLabel("Category filter 2").selectOption("");
  await filtersForm.getByLabel("Date range filter").selectOption("day");
  await filtersForm.getByLabel("Category filter 1").selectOption("region");
  await filtersForm.getByRole("button", { name: "Save filters" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Filters saved." })).toBeVisible();
  await context.close();
  return { slug, chartTitle, salesId: sales.datasetId, salesVersion: sales.version };
}

let sharedBoard: Promise<FilteredBoard> | undefined;

/**
 * One board for the tests that only read it (a file's tests run in order in one worker, and a
 * failure starts a new worker, so a new board); tests that write or count cache entries make
 * their own with filteredBoard.
 */
function readOnlyBoard(browser: Browser): Promise<FilteredBoard> {
  sharedBoard ??= filteredBoard(browser);
  return sharedBoard;
}

/** Waits for the address to be exactly this path and query. */
async function waitForAddress(page: Page, pathname: string, search = "") {
  await page.waitForURL((url) => url.pathname === pathname && url.search === search);
}

function chartTable(page: Page, chartTitle: string) {
  return page.getByRole("figure", { name: chartTitle }).getByTestId("seed-chart-table");
}

test("a visitor filters by a preset and a region; the address is the link, back and clear undo it", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const board = await readOnlyBoard(browser);
  const visitor = await browser.newContext();
  const page = await visitor.newPage();

  await page.goto(`/d/${board.slug}`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const table = chartTable(page, board.chartTitle);
  await expect(table).toContainText("Charlie");
  await expect(page.getByText("Not filtered by")).toHaveCount(0);

  const filters = page.getByRole("region", { name: "Filters" });
  await filters.getByLabel("Period", { exact: true }).selectOption("last-30-days");
  await filters.getByLabel("region", { exact: true }).selectOption(["Alfa"]);
  await filters.getByRole("button", { name: "Apply filters" }).click();

  await waitForAddress(page, `/d/${board.slug}`, "?range=last-30-days&region=Alfa");
  await expect(table).toContainText("Alfa");
  await expect(table).toContainText("100");
  await expect(table).not.toContainText("Bravo");
  await expect(table).not.toContainText("Charlie");
  await expect(table).not.toContainText("1,100");
  const stat = page.locator("[data-tile-kind=stat]");
  await expect(stat).toContainText("Not filtered by region");
  await expect(stat).toContainText("7");
  await expect(stat).not.toContainText("70");
  await expect(page.getByTestId("applied-filters")).toHaveText(
    "Showing: Last 30 days; region: Alfa",
  );
  await expectAxeClean(page);

  // The link, opened fresh (without JavaScript), shows the same view with the same choices in
  // the bar, and the bar still works.
  const fresh = await browser.newContext({ javaScriptEnabled: false });
  const linked = await fresh.newPage();
  await linked.goto(page.url());
  await expect(chartTable(linked, board.chartTitle)).toContainText("Alfa");
  await expect(chartTable(linked, board.chartTitle)).not.toContainText("Bravo");
  await expect(linked.getByLabel("Period", { exact: true })).toHaveValue("last-30-days");
  await expect(linked.getByLabel("region", { exact: true })).toHaveValues(["Alfa"]);
  await linked.getByLabel("region", { exact: true }).selectOption(["Alfa", "Bravo"]);
  await linked.getByRole("button", { name: "Apply filters" }).click();
  await waitForAddress(linked, `/d/${board.slug}`, "?range=last-30-days&region=Alfa&region=Bravo");
  await expect(chartTable(linked, board.chartTitle)).toContainText("Bravo");
  await fresh.close();

  await page.goBack();
  await waitForAddress(page, `/d/${board.slug}`);
  await expect(table).toContainText("Charlie");
  await page.goForward();
  await expect(table).not.toContainText("Charlie");
  await page.getByRole("link", { name: "Clear filters" }).click();
  await waitForAddress(page, `/d/${board.slug}`);
  await expect(table).toContainText("Charlie");
  await expect(page.getByTestId("applied-filters")).toHaveText("Showing: All time");

  // A custom range: both ends.
  // Typing a date switches the period to Custom dates.
  await page.getByLabel("From", { exact: true }).fill(dayBefore(120));
  await page.getByLabel("To", { exact: true }).fill(dayBefore(60));
  await expect(page.getByLabel("Period", { exact: true })).toHaveValue("custom");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await waitForAddress(page, `/d/${board.slug}`, `?from=${dayBefore(120)}&to=${dayBefore(60)}`);
  await expect(table).toContainText("Charlie");
  await expect(table).not.toContainText("Bravo");
  await visitor.close();
});

test("a click or Enter on a bar filters the whole dashboard by its value; a chip or a second click clears it, in the embed too", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const board = await readOnlyBoard(browser);
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  const home = `/d/${board.slug}`;

  await page.goto(home);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const figure = page.getByRole("figure", { name: board.chartTitle });
  const table = chartTable(page, board.chartTitle);
  await expect(page.getByText("Select a bar to filter the dashboard by region.")).toBeVisible();
  await expect(figure.locator(".recharts-bar-rectangle")).toHaveCount(3);

  // Bars in x order: Alfa, Bravo, Charlie.
  await figure.locator(".recharts-bar-rectangle").nth(2).click();
  await waitForAddress(page, home, "?region=Charlie");
  await expect(table).toContainText("Charlie");
  await expect(table).not.toContainText("Alfa");
  // The stat tile's dataset has no region: it says so instead of showing a narrowed number.
  await expect(page.locator("[data-tile-kind=stat]")).toContainText("Not filtered by region");
  await expect(page.getByTestId("applied-filters")).toHaveText(
    "Showing: All time; region: Charlie",
  );
  // The bar shows the choice the click made, so applying it keeps the view.
  await expect(page.getByLabel("region", { exact: true })).toHaveValues(["Charlie"]);
  const chip = page.getByRole("link", { name: "Remove region: Charlie" });
  await expect(chip).toBeVisible();
  await expectAxeClean(page);

  // A second click on the chosen value undoes it.
  await expect(figure.locator(".recharts-bar-rectangle")).toHaveCount(1);
  await figure.locator(".recharts-bar-rectangle").first().click();
  await waitForAddress(page, home);
  await expect(table).toContainText("Alfa");
  await expect(chip).toHaveCount(0);

  // By keyboard: the arrow keys move between bars, Enter chooses one.
  await expect(figure.locator(".recharts-bar-rectangle")).toHaveCount(3);
  await figure.locator("svg.recharts-surface").focus();
  await page.keyboard.press("ArrowRight");
  await expect(figure.locator("[aria-live=polite]")).toContainText("Bravo");
  await page.keyboard.press("Enter");
  await waitForAddress(page, home, "?region=Bravo");
  await expect(table).not.toContainText("Charlie");
  // The chip clears it, and the link is the view without it, range and all.
  await page.getByRole("link", { name: "Remove region: Bravo" }).click();
  await waitForAddress(page, home);
  await expect(table).toContainText("Charlie");

  // The embed filters in its own address.
  await page.goto(`/embed/d/${board.slug}?range=last-30-days`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page
    .getByRole("figure", { name: board.chartTitle })
    .locator(".recharts-bar-rectangle")
    .first()
    .click();
  await waitForAddress(page, `/embed/d/${board.slug}`, "?range=last-30-days&region=Alfa");
  await expect(table).not.toContainText("Bravo");
  await visitor.close();
});

test("bad filter values in the address are ignored with a message and the rest applies", async ({
  browser,
}) => {
  const board = await readOnlyBoard(browser);
  const visitor = await browser.newContext();
  const page = await visitor.newPage();

  await page.goto(
    `/d/${board.slug}?range=forever&region=Alfa&colour=red&region=${"x".repeat(150)}`,
  );

  const problems = page.getByRole("status").filter({ hasText: "were ignored" });
  await expect(problems).toContainText('"forever" is not a date range');
  await expect(problems).toContainText('There is no filter "colour"');
  await expect(problems).toContainText("at most 100 characters");
  const table = chartTable(page, board.chartTitle);
  await expect(table).toContainText("1,100");
  await expect(table).not.toContainText("Bravo");
  await expectAxeClean(page);

  for (const query of ["from=2026-02-30", "from=2026-03-01&to=2026-01-01"]) {
    await page.goto(`/d/${board.slug}?${query}`);
    await expect(page.getByRole("status").filter({ hasText: "were ignored" })).toBeVisible();
    await expect(table).toContainText("Charlie");
  }
  const tooMany = Array.from({ length: 45 }, (_, index) => `region=R${index}`).join("&");
  const response = await page.goto(`/d/${board.slug}?${tooMany}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("status").filter({ hasText: "were ignored" })).toBeVisible();
  await visitor.close();
});

test("a value in another letter case matches, one matching nothing is named, and print keeps only the summary", async ({
  browser,
}) => {
  const board = await readOnlyBoard(browser);
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  const table = chartTable(page, board.chartTitle);

  // "alfa" as a person types it finds Alfa: chosen in the bar, named in the summary, no notice.
  await page.goto(`/d/${board.slug}?region=alfa`);
  await expect(table).toContainText("Alfa");
  await expect(table).not.toContainText("Bravo");
  await expect(page.getByLabel("region", { exact: true })).toHaveValues(["Alfa"]);
  await expect(page.getByTestId("applied-filters")).toHaveText("Showing: All time; region: Alfa");
  await expect(page.getByRole("status").filter({ hasText: "were ignored" })).toHaveCount(0);

  // A value no dataset holds in any case is named; the tiles are not emptied by it.
  await page.goto(`/d/${board.slug}?region=ALFA&region=Zulu`);
  const problems = page.getByRole("status").filter({ hasText: "were ignored" });
  await expect(problems).toContainText('No region is "Zulu" (in any letter case); it was ignored.');
  await expect(table).toContainText("Alfa");
  await expect(table).not.toContainText("Charlie");
  await page.goto(`/d/${board.slug}?region=zulu`);
  await expect(problems).toBeVisible();
  await expect(table).toContainText("Charlie");
  await expectAxeClean(page);

  // Printed, the page keeps the line saying what is shown and drops the form and the notice.
  await page.goto(`/d/${board.slug}?range=last-30-days&region=Alfa`);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("applied-filters")).toBeVisible();
  await expect(page.getByRole("button", { name: "Apply filters" })).toBeHidden();
  await expect(page.getByLabel("Period", { exact: true })).toBeHidden();
  await expect(table).toContainText("Alfa");
  await page.emulateMedia({ media: "screen" });
  await expect(page.getByRole("button", { name: "Apply filters" })).toBeVisible();

  // Another letter case is not one more page to keep: never served from the page cache.
  const client = await request.newContext({ baseURL: appBaseURL() });
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await client.get(`/d/${board.slug}?region=bRAVO`);
    expect(response.status()).toBe(200);
    expect(response.headers()["x-nextjs-cache"]).not.toBe("HIT");
  }
  await client.dispose();
  await visitor.close();
});

test("each filter combination is cached and every write expires it", async ({ browser }) => {
  const board = await filteredBoard(browser);
  const visitor = await request.newContext({ baseURL: appBaseURL() });
  const canonical = `/d/${board.slug}?range=last-30-days&region=Bravo`;

  // Another order and spelling lands on the same canonical address.
  const reordered = await visitor.get(`/d/${board.slug}?region=Bravo&from=&range=last-30-days`, {
    maxRedirects: 0,
  });
  expect(reordered.status()).toBe(303);
  expect(new URL(reordered.headers().location ?? "", appBaseURL()).search).toBe(
    "?range=last-30-days&region=Bravo",
  );

  expect((await visitor.get(canonical)).status()).toBe(200);
  // Served again from the cache (polled: a write by a test running alongside expires every page).
  await expect
    .poll(async () => (await visitor.get(canonical)).headers()["x-nextjs-cache"])
    .toBe("HIT");
  // Another combination is its own entry, not the first one's page.
  const other = await visitor.get(`/d/${board.slug}?region=Charlie`, { headers: { RSC: "1" } });
  expect(await other.text()).toContain("3000");
  const payload = async () => (await visitor.get(canonical, { headers: { RSC: "1" } })).text();
  expect(await payload()).toContain("200");
  expect(await payload()).not.toContain("3000");

  // Only canonical combinations are pages: anything else under /f/ takes no cache space.
  expect((await visitor.get(`/d/${board.slug}/f/not-canonical`)).status()).toBe(404);
  const reversed = Buffer.from("region=Bravo&range=last-30-days").toString("base64url");
  expect((await visitor.get(`/d/${board.slug}/f/${reversed}`)).status()).toBe(404);

  await importCsvAsEditor(
    `/api/datasets/import?datasetId=${board.salesId}&version=${board.salesVersion}&mode=append`,
    `day,region,amount\n${dayBefore(1)},Bravo,55\n`,
  );
  await expect.poll(payload, { timeout: 5_000 }).toContain("255");
  await visitor.dispose();
});

test("made-up parameters and values take no cache space; offered combinations do (issue 22, item 6)", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const board = await filteredBoard(browser);
  const visitor = await request.newContext({ baseURL: appBaseURL() });
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
  console.log(`[page-cache keys] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`);
  const token = fc.stringMatching(/^[a-z0-9]{1,24}$/);
  // Each link asks for something the dashboard does not offer: an unknown parameter, an unknown
  // region, a range that is no preset, or an unknown dashboard; alone or beside real filters.
  const madeUp = fc.oneof(
    token.map((value) => [[`zz${value}`, value]]),
    token.map((value) => [["region", `Zulu-${value}`]]),
    token.map((value) => [["range", `last-${value}`]]),
    fc.tuple(token, fc.constantFrom("Alfa", "Bravo")).map(([value, region]) => [
      ["region", region],
      [`x${value}`, "1"],
    ]),
  );
  await fc.assert(
    fc.asyncProperty(madeUp, fc.boolean(), async (pairs, embed) => {
      const query = new URLSearchParams(pairs as [string, string][]).toString();
      const path = `${embed ? "/embed" : ""}/d/${board.slug}?${query}`;
      for (let attempt = 0; attempt < 3; attempt++) {
        const response = await visitor.get(path);
        expect(response.status()).toBe(200);
        expect(response.headers()["x-nextjs-cache"], path).not.toBe("HIT");
      }
    }),
    { seed, numRuns: 25 },
  );
  await fc.assert(
    fc.asyncProperty(token, async (value) => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await visitor.get(`/d/zz-${value}`);
        expect(response.status()).toBe(404);
        expect(response.headers()["x-nextjs-cache"]).not.toBe("HIT");
      }
    }),
    { seed, numRuns: 10 },
  );
  // The control: a combination the filter bar offers is cached (served again as a HIT).
  for (const offered of [
    `/d/${board.slug}?region=Alfa`,
    `/d/${board.slug}?range=last-7-days&region=Bravo`,
  ]) {
    expect((await visitor.get(offered)).status()).toBe(200);
    await expect
      .poll(async () => (await visitor.get(offered)).headers()["x-nextjs-cache"])
      .toBe("HIT");
  }
  await visitor.dispose();
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the filter bar fits a phone's width (375 px, ${colorScheme}) and passes axe`, async ({
    browser,
  }) => {
    const board = await readOnlyBoard(browser);
    const context = await browser.newContext({
      viewport: { width: 375, height: 812 },
      colorScheme,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(`/d/${board.slug}?range=this-year&region=Alfa&region=Bravo`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(page.getByRole("button", { name: "Apply filters" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Remove region: Bravo" })).toBeVisible();
    const overflow = await horizontalOverflow(page);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAxeClean(page);
    await context.close();
  });
}

test("the embed and the admin preview filter the same way, in their own addresses", async ({
  browser,
}) => {
  const board = await readOnlyBoard(browser);
  const visitor = await browser.newContext();
  const page = await visitor.newPage();

  await page.goto(`/embed/d/${board.slug}`);
  const table = chartTable(page, board.chartTitle);
  await expect(table).toContainText("Charlie");
  await page.getByLabel("region", { exact: true }).selectOption(["Charlie"]);
  await page.getByRole("button", { name: "Apply filters" }).click();

  await waitForAddress(page, `/embed/d/${board.slug}`, "?region=Charlie");
  await expect(table).toContainText("Charlie");
  await expect(table).not.toContainText("Alfa");
  await expectAxeClean(page);
  await page.getByRole("link", { name: "Clear filters" }).click();
  await waitForAddress(page, `/embed/d/${board.slug}`);
  await expect(table).toContainText("Alfa");
  await visitor.close();

  // The admin preview filters per request, with the same bar.
  const editor = await signedInPage(browser, "editor");
  await editor.page.goto(`/admin/preview/${board.slug}?region=Bravo&range=last-30-days`);
  const preview = chartTable(editor.page, board.chartTitle);
  await expect(preview).toContainText("Bravo");
  await expect(preview).not.toContainText("Alfa");
  await expect(editor.page.getByLabel("region", { exact: true })).toHaveValues(["Bravo"]);
  await editor.context.close();
});
