import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { expectAxeClean } from "./content-support";
import { horizontalOverflow } from "./support";

// The public pages as a product: a styled header, the home page's dashboards with icon,
// description and last update, a phone's width without horizontal scroll in both themes,
// each chart's PNG, SVG and CSV, and a dashboard that prints cleanly.

test("the header is styled navigation and the home page lists dashboards with their last update", async ({
  page,
}) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Site" });
  const current = nav.getByRole("link", { name: "Dashboards" });
  await expect(current).toHaveAttribute("aria-current", "page");
  // Navigation links, not plain underlined text links.
  expect(await current.evaluate((link) => getComputedStyle(link).textDecorationLine)).toBe("none");

  const list = page.getByRole("list", { name: "Published dashboards" });
  const demo = list.getByRole("listitem").filter({ hasText: "Store performance" });
  await expect(demo.getByRole("link", { name: "Store performance" }).locator("svg")).toHaveCount(1);
  await expect(demo).toContainText("Sales, orders and traffic of the demo store across 2025.");
  const updated = demo.locator("time");
  await expect(updated).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
  await expect(demo).toContainText(/updated \S/);
  await expectAxeClean(page);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`at a phone's width (375 px, ${colorScheme}) no public page scrolls sideways`, async ({
    browser,
  }) => {
    const context = await browser.newContext({
      viewport: { width: 375, height: 812 },
      colorScheme,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    for (const path of ["/", "/d/demo", "/login", "/no-such-page"]) {
      await page.goto(path);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      expect(await horizontalOverflow(page), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
    await context.close();
  });
}

test("each chart downloads as a PNG of its size, an SVG and the CSV of what it draws", async ({
  page,
}) => {
  await page.goto("/d/demo");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const title = "Revenue per month by region";
  const surface = page.getByRole("figure", { name: title }).locator("svg.recharts-surface").first();
  await surface.waitFor();
  const box = await surface.boundingBox();
  const ratio = await page.evaluate(() => window.devicePixelRatio);

  const save = async (format: "PNG" | "SVG" | "CSV") => {
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: `Download ${title} as ${format}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(
      `Revenue-per-month-by-region.${format.toLowerCase()}`,
    );
    return readFileSync((await download.path()) ?? "");
  };

  const png = await save("PNG");
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  expect(width).toBe(Math.round(Math.round(box?.width ?? 0) * ratio));
  // The plot's height, plus the legend drawn under it.
  expect(height).toBeGreaterThanOrEqual(Math.round(Math.round(box?.height ?? 0) * ratio));

  const svg = (await save("SVG")).toString("utf8");
  expect(svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
  expect(svg).toContain(`width="${Math.round(box?.width ?? 0)}"`);

  const csv = (await save("CSV")).toString("utf8").split("\r\n");
  expect(csv[0]).toBe("day,South,North,East,Other");
  expect(csv.length).toBeGreaterThan(12);
});

test("a dashboard prints one tile per row, light, without navigation or buttons", async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto("/d/demo");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.emulateMedia({ media: "print", colorScheme: "dark" });

  await expect(page.locator(".site-header")).toBeHidden();
  await expect(page.getByRole("button", { name: /^Download / }).first()).toBeHidden();
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe("rgb(255, 255, 255)");
  const tiles = await page
    .locator(".dashboard-tile")
    .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect()));
  expect(tiles.length).toBeGreaterThan(1);
  // One per row: every tile starts at the same left edge, each below the one before.
  for (const [index, tile] of tiles.entries()) {
    expect(tile.left).toBeCloseTo(tiles[0]?.left ?? 0, 0);
    if (index > 0) expect(tile.top).toBeGreaterThanOrEqual(tiles[index - 1]?.bottom ?? 0);
  }
  const pdf = await page.pdf({ format: "A4" });
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  await context.close();
});
