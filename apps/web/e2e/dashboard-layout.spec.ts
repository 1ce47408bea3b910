import { type Browser, expect, type Page, test } from "@playwright/test";
import {
  createDashboardThroughForm,
  createDatasetThroughForm,
  expectAxeClean,
  publishSummedBarChart,
  signedInPage,
  slugOf,
  uniqueName,
} from "./content-support";

// An action waits for its element at most 30 s here: CI twice saw the first flow of this file
// run into the test's 2-minute limit with no step named (its retry passed in 19 s); a stuck
// action now fails at its own step.
test.use({ actionTimeout: 30_000 });

const salesCsv = [
  "month,revenue",
  "2026-01-01,1200",
  "2026-02-01,1350",
  "2026-03-01,1500",
  "2026-04-01,1420",
].join("\n");

async function versionOf(page: Page): Promise<number> {
  const text = await page.getByText(/· version \d+ ·/).textContent();
  return Number(/version (\d+)/.exec(text ?? "")?.[1]);
}

async function createDashboard(page: Page, prefix: string) {
  const title = uniqueName(prefix);
  const slug = slugOf(title);
  await createDashboardThroughForm(page, title, { slug });
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return { title, slug };
}

async function publish(page: Page, title: string) {
  await page.getByRole("button", { name: `Publish ${title}` }).click();
  await expect(page.getByText("Published.")).toBeVisible();
}

async function visitorPage(browser: Browser, viewport?: { width: number; height: number }) {
  const context = await browser.newContext({
    storageState: undefined,
    ...(viewport ? { viewport } : {}),
  });
  return { context, page: await context.newPage() };
}

test("an editor arranges tiles by keyboard and drag, undoes, and saves one version", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Layout sales");
  await createDatasetThroughForm(page, datasetName, salesCsv);
  const { chartTitle, dashboardTitle, dashboardUrl, slug } = await publishSummedBarChart(page, {
    datasetName,
    x: "month",
    measure: "revenue",
  });
  const statForm = page.getByRole("form", { name: "Add a stat tile" });
  await statForm.getByLabel("Label").fill("Total revenue");
  await statForm.getByLabel("Dataset").selectOption({ label: datasetName });
  await statForm.getByLabel("Column").selectOption("revenue");
  await statForm.getByRole("button", { name: "Add stat tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const versionBefore = await versionOf(page);
  const announcement = page.getByTestId("layout-announcement");
  const chartHandle = page.getByRole("button", { name: `Move or resize ${chartTitle}` });
  const statHandle = page.getByRole("button", { name: "Move or resize Total revenue" });

  // Keyboard: arrows move the focused tile, Shift+arrows resize it; each step is announced.
  await chartHandle.focus();
  for (const key of ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowDown"]) {
    await page.keyboard.press(key);
  }
  await expect(announcement).toHaveText(
    `${chartTitle} moved to column 4, row 2. Tiles in the way moved down.`,
  );
  await expect(chartHandle).toBeFocused();
  await page.keyboard.press("Shift+ArrowRight");
  await expect(announcement).toHaveText(`${chartTitle} resized to 7 columns wide, 4 rows tall.`);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(announcement).toHaveText("Undid the last layout change.");
  await expect(page.getByText("column 4, row 2, 6 columns wide, 4 rows tall")).toBeAttached();

  // Drag: the stat tile (pushed below the chart) goes to the top by its handle, 2 columns left;
  // the chart, now in its way, moves down below it.
  await page.setViewportSize({ width: 1280, height: 1400 });
  await page.locator(".composer-grid").scrollIntoViewIfNeeded();
  const grid = page.locator(".composer-grid");
  const gridBox = await grid.boundingBox();
  const handleBox = await statHandle.boundingBox();
  if (!gridBox || !handleBox) throw new Error("The composer is not laid out.");
  const column = (gridBox.width - 16) / 12;
  const row = 80 + 16;
  const start = { x: handleBox.x + 10, y: handleBox.y + handleBox.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x - 2 * column, start.y - 5 * row, { steps: 8 });
  await page.mouse.up();
  await expect(announcement).toHaveText(
    "Total revenue moved to column 5, row 1. Tiles in the way moved down.",
  );
  await expect(page.getByTestId("layout-state")).toHaveText("Unsaved layout changes.");
  await expectAxeClean(page);

  // Leaving with unsaved changes asks first; dismissing stays on the page.
  const asked: string[] = [];
  page.once("dialog", async (dialog) => {
    asked.push(dialog.message());
    await dialog.dismiss();
  });
  await page.getByRole("link", { name: "Back to dashboards" }).click();
  await expect.poll(() => asked).toEqual(["Leave this page? Your layout changes are not saved."]);
  await expect(page).toHaveURL((url) => url.pathname === new URL(dashboardUrl).pathname);
  await expect(page.getByTestId("layout-state")).toHaveText("Unsaved layout changes.");

  // Save: the whole arrangement is one change, one new version.
  await page.getByRole("button", { name: "Save layout" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Layout saved." })).toBeVisible();
  expect(await versionOf(page)).toBe(versionBefore + 1);
  await expect(page.getByTestId("layout-state")).toHaveText("No unsaved changes.");
  await expectAxeClean(page);

  // The public page draws the same grid.
  const visitor = await visitorPage(browser);
  await visitor.page.goto(`/d/${slug}`);
  await expect(visitor.page.getByRole("heading", { level: 1, name: dashboardTitle })).toBeVisible();
  const chartTile = visitor.page.locator('.dashboard-tile[data-tile-kind="chart"]');
  const statTile = visitor.page.locator('.dashboard-tile[data-tile-kind="stat"]');
  await expect(chartTile.getByRole("figure", { name: chartTitle })).toBeVisible();
  const chartBox = await chartTile.boundingBox();
  const statBox = await statTile.boundingBox();
  const publicGrid = await visitor.page.getByTestId("dashboard-grid").boundingBox();
  if (!chartBox || !statBox || !publicGrid) throw new Error("The public grid is not laid out.");
  // Stat from column 5 on the first row, the chart from column 4 below it.
  expect(statBox.x - publicGrid.x).toBeGreaterThan(publicGrid.width / 4);
  expect(chartBox.x - publicGrid.x).toBeGreaterThan(publicGrid.width / 5);
  expect(chartBox.x).toBeLessThan(statBox.x);
  expect(chartBox.y).toBeGreaterThan(statBox.y + statBox.height - 2);
  await expectAxeClean(visitor.page);
  await visitor.context.close();

  // A phone's width: one column, nothing wider than the screen.
  const phone = await visitorPage(browser, { width: 375, height: 800 });
  await phone.page.goto(`/d/${slug}`);
  await expect(phone.page.getByRole("figure", { name: chartTitle })).toBeVisible();
  const widths = await phone.page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    tiles: [...document.querySelectorAll(".dashboard-tile")].map(
      (tile) => tile.getBoundingClientRect().width,
    ),
    grid: document.querySelector(".dashboard-grid")?.getBoundingClientRect().width ?? 0,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  for (const width of widths.tiles) expect(Math.abs(width - widths.grid)).toBeLessThan(1);
  await expectAxeClean(phone.page);
  await phone.context.close();

  // Status messages replace each other: removing a tile replaces "Layout saved.", and
  // unpublishing replaces "Tile removed."
  await page.getByRole("button", { name: "Remove Total revenue" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile removed." })).toBeVisible();
  await expect(page.getByText("Layout saved.")).toHaveCount(0);
  await page.getByRole("button", { name: `Unpublish ${dashboardTitle}` }).click();
  await expect(page.getByText("Moved back to draft.")).toBeVisible();
  await expect(page.getByText("Tile removed.")).toHaveCount(0);
  await context.close();
});

test("Close gaps moves every tile up as far as it goes, undoably, and the layout saves", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Gap sales");
  await createDatasetThroughForm(page, datasetName, salesCsv);
  await publishSummedBarChart(page, { datasetName, x: "month", measure: "revenue" });
  const statForm = page.getByRole("form", { name: "Add a stat tile" });
  await statForm.getByLabel("Label").fill("Gap total");
  await statForm.getByLabel("Dataset").selectOption({ label: datasetName });
  await statForm.getByLabel("Column").selectOption("revenue");
  await statForm.getByRole("button", { name: "Add stat tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const announcement = page.getByTestId("layout-announcement");
  const closeGaps = page.getByRole("button", { name: "Close gaps" });

  // Nothing to close yet; then the stat tile goes five rows down, leaving a gap above it.
  await closeGaps.click();
  await expect(announcement).toHaveText("There are no gaps to close.");
  await page.getByRole("button", { name: "Move or resize Gap total" }).focus();
  for (let step = 0; step < 5; step++) await page.keyboard.press("ArrowDown");
  await expect(page.getByText("column 7, row 6, 3 columns wide, 2 rows tall")).toBeAttached();
  // Saved with the gap, as a removal or an older layout leaves one.
  const save = page.getByRole("button", { name: "Save layout" });
  await save.click();
  await expect(page.getByRole("status").filter({ hasText: "Layout saved." })).toBeVisible();
  await expect(page.getByTestId("layout-state")).toHaveText("No unsaved changes.");
  await closeGaps.click();
  await expect(announcement).toHaveText(
    "Closed the gaps: 1 tile moved up. Save to keep the layout.",
  );
  await expect(page.getByText("column 7, row 1, 3 columns wide, 2 rows tall")).toBeAttached();
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("column 7, row 6, 3 columns wide, 2 rows tall")).toBeAttached();
  await closeGaps.click();
  await expect(page.getByTestId("layout-state")).toHaveText("Unsaved layout changes.");
  await save.click();
  await expect(page.getByTestId("layout-state")).toHaveText("No unsaved changes.");
  await page.reload();
  await expect(page.getByText("column 7, row 1, 3 columns wide, 2 rows tall")).toBeAttached();
  await expectAxeClean(page);
  await context.close();
});

test("adding and removing a tile changes the composer in place, keeping unsaved moves", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("In place sales");
  await createDatasetThroughForm(page, datasetName, salesCsv);
  const { chartTitle, dashboardUrl, slug } = await publishSummedBarChart(page, {
    datasetName,
    x: "month",
    measure: "revenue",
  });
  await page.goto(dashboardUrl);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const versionBefore = await versionOf(page);
  const addressBefore = page.url();
  const announcement = page.getByTestId("layout-announcement");
  const chartHandle = page.getByRole("button", { name: `Move or resize ${chartTitle}` });

  // The page itself is never drawn again before the tile shows: every request for it (a
  // reload, a redirect's page, the background refresh) waits until the tile is on screen.
  const held: Array<() => Promise<void>> = [];
  let holding = true;
  await page.route(
    (url) => url.pathname === new URL(dashboardUrl).pathname,
    async (route) => {
      const request = route.request();
      if (!holding || request.method() !== "GET") return route.continue();
      held.push(() => route.continue());
    },
  );
  const release = async () => {
    holding = false;
    for (const next of held.splice(0)) await next();
  };

  // An unsaved move of the chart: one column right.
  await chartHandle.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("layout-state")).toHaveText("Unsaved layout changes.");

  // Add a stat tile while the move is unsaved: no question about leaving, no page load.
  const asked: string[] = [];
  page.on("dialog", async (dialog) => {
    asked.push(dialog.message());
    await dialog.dismiss();
  });
  const statForm = page.getByRole("form", { name: "Add a stat tile" });
  await statForm.getByLabel("Label").fill("In place total");
  await statForm.getByLabel("Dataset").selectOption({ label: datasetName });
  await statForm.getByLabel("Column").selectOption("revenue");
  await statForm.getByRole("button", { name: "Add stat tile" }).click();
  const statHandle = page.getByRole("button", { name: "Move or resize In place total" });
  await expect(statHandle).toBeVisible();
  await expect(statForm.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  // The new tile is drawn (its value), the fields are empty for the next one, and the page's
  // version line moved on, all before the page was asked for again.
  await expect(
    page
      .locator(".composer-tile[data-tile-id] .composer-preview")
      .filter({ hasText: "In place total" }),
  ).toContainText("5,470");
  await expect(statForm.getByLabel("Label")).toHaveValue("");
  expect(await versionOf(page)).toBe(versionBefore + 1);
  expect(page.url()).toBe(addressBefore);
  expect(asked).toEqual([]);
  // The chart kept its unsaved place, and the move is still unsaved.
  await expect(page.getByText("column 2, row 1, 6 columns wide, 4 rows tall")).toBeAttached();
  await expect(page.getByTestId("layout-state")).toHaveText("Unsaved layout changes.");
  await expectAxeClean(page);

  // Removing it (moves still unsaved) takes it out in place; focus goes to the tile left.
  await page.getByRole("button", { name: "Remove In place total" }).click();
  await expect(statHandle).toHaveCount(0);
  await expect(announcement).toHaveText("Tile removed.");
  await expect(chartHandle).toBeFocused();
  expect(await versionOf(page)).toBe(versionBefore + 2);
  await expect(page.getByTestId("layout-state")).toHaveText("Unsaved layout changes.");
  await release();

  // Every form writes at the version the page holds now: the layout saves as one more version.
  await page.getByRole("button", { name: "Save layout" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Layout saved." })).toBeVisible();
  expect(await versionOf(page)).toBe(versionBefore + 3);
  await expect(page.getByTestId("layout-state")).toHaveText("No unsaved changes.");
  await page.reload();
  await expect(page.getByText("column 2, row 1, 6 columns wide, 4 rows tall")).toBeAttached();
  await expect(statHandle).toHaveCount(0);

  // A tile added in place is on the published page for a visitor at once.
  await page.getByLabel("Chart", { exact: true }).selectOption({ label: chartTitle });
  await page.getByRole("button", { name: "Add chart tile" }).click();
  await expect(chartHandle).toHaveCount(2);
  const visitor = await visitorPage(browser);
  await visitor.page.goto(`/d/${slug}`);
  await expect(visitor.page.getByRole("figure", { name: chartTitle })).toHaveCount(2);
  await visitor.context.close();
  await context.close();
});

test("a text tile's Markdown reaches the public page without scripts, handlers or unsafe links", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const { title, slug } = await createDashboard(page, "Notes board");
  const textForm = page.getByRole("form", { name: "Add a text tile" });
  const markdown = textForm.getByLabel("Text (Markdown)");

  // An unsafe Markdown link is refused on its field; nothing is written.
  await markdown.fill("[Open](javascript:alert(1))");
  await textForm.getByRole("button", { name: "Add text tile" }).click();
  await expect(
    textForm.getByText(/Links must start with http:\/\/, https:\/\/ or mailto:/),
  ).toBeVisible();
  await expect(markdown).toHaveAttribute("aria-invalid", "true");

  await markdown.fill(
    [
      "## Quarterly notes",
      "",
      "<script>window.__pwned = 'script'</script>",
      "",
      '<img src="/x" onerror="window.__pwned = \'img\'">',
      "",
      "**Revenue** is up. See [the report](https://example.com/report) or <a href=\"javascript:window.__pwned='a'\" onclick=\"window.__pwned='click'\">this</a>.",
    ].join("\n"),
  );
  await textForm.getByRole("button", { name: "Add text tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await expect(
    page.getByRole("button", { name: "Move or resize Text: Quarterly notes" }),
  ).toBeVisible();
  await expectAxeClean(page);
  await publish(page, title);
  await expect(page.getByText("Tile added.")).toHaveCount(0);

  const visitor = await visitorPage(browser);
  await visitor.page.goto(`/d/${slug}`);
  const tile = visitor.page.locator(".dashboard-text");
  await expect(tile.getByRole("heading", { level: 2, name: "Quarterly notes" })).toBeVisible();
  await expect(tile.locator("strong")).toHaveText("Revenue");
  await expect(tile.getByRole("link", { name: "the report" })).toHaveAttribute(
    "href",
    "https://example.com/report",
  );
  await expect(tile.locator("script, img, iframe")).toHaveCount(0);
  await expect(visitor.page.locator("[onerror], [onclick], [onload]")).toHaveCount(0);
  await expect(visitor.page.locator('a[href^="javascript:" i]')).toHaveCount(0);
  await expect(tile).not.toContainText("<script");
  await tile.getByText("this").click();
  expect(
    await visitor.page.evaluate(() => (window as { __pwned?: string }).__pwned),
  ).toBeUndefined();
  await expectAxeClean(visitor.page);
  await visitor.context.close();
  await context.close();
});

test("stat thresholds colour the value and say it in words", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Threshold sales");
  await createDatasetThroughForm(page, datasetName, salesCsv);
  const { title, slug } = await createDashboard(page, "Targets board");
  const statForm = page.getByRole("form", { name: "Add a stat tile" });
  const addStat = async (label: string, rules: [string, string]) => {
    await statForm.getByLabel("Label").fill(label);
    await statForm.getByLabel("Dataset").selectOption({ label: datasetName });
    await statForm.getByLabel("Column").selectOption("revenue");
    await statForm.getByLabel("Rule 1: target").fill(rules[0]);
    await statForm.getByLabel("Rule 2: target").fill(rules[1]);
    await statForm.getByRole("button", { name: "Add stat tile" }).click();
  };

  // A target that is not a number is refused on its own field.
  await addStat("Short of target", ["lots", "10000"]);
  await expect(statForm.getByLabel("Rule 1: target")).toHaveAttribute("aria-invalid", "true");
  await expect(statForm.getByText("Enter the target as a number.")).toBeVisible();

  // Revenue sums to 5,470: below 10,000 is bad; at or above 1,000 is good.
  await statForm.getByLabel("Rule 1: target").fill("10000");
  await statForm.getByRole("button", { name: "Add stat tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await addStat("On target", ["1000", "1000"]);
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await expectAxeClean(page);
  await publish(page, title);

  const visitor = await visitorPage(browser);
  await visitor.page.goto(`/d/${slug}`);
  const short = visitor.page.locator(".seed-stat-tile").filter({ hasText: "Short of target" });
  const met = visitor.page.locator(".seed-stat-tile").filter({ hasText: "On target" });
  await expect(short.locator(".seed-stat-tile__value")).toHaveAttribute("data-tone", "bad");
  await expect(short.locator(".seed-stat-tile__value")).toHaveCSS("color", "rgb(185, 28, 28)");
  await expect(short.getByText("below target")).toBeVisible();
  await expect(met.locator(".seed-stat-tile__value")).toHaveAttribute("data-tone", "good");
  await expect(met.locator(".seed-stat-tile__value")).toHaveCSS("color", "rgb(21, 128, 61)");
  await expect(met.getByText("at or above target")).toBeVisible();
  await expectAxeClean(visitor.page);
  await visitor.context.close();
  await context.close();
});
