import type { Server } from "node:http";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectProblems, describeProblems, launchChromium } from "./browser";
import {
  chartKinds,
  hoverForTooltip,
  readThemeTokens,
  waitForChartDrawn,
} from "./chart-page-checks";
import { type ConsumerApp, catalogVersions, createConsumerApp, runOk } from "./consumer-app";
import { serveStatic } from "./static-server";

const port = 3301;

describe("Vite + React app using the packed tarballs", () => {
  let app: ConsumerApp;
  let server: Server | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    app = await createConsumerApp({
      fixture: "vite-app",
      dependencies: {
        react: catalogVersions.react,
        "react-dom": catalogVersions["react-dom"],
        vite: catalogVersions.vite,
        "@vitejs/plugin-react": catalogVersions["@vitejs/plugin-react"],
      },
    });
    await runOk(join(app.dir, "node_modules/.bin/vite"), ["build"], { cwd: app.dir });
    server = await serveStatic(join(app.dir, "dist"), port);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolvePromise) =>
      server ? server.close(resolvePromise) : resolvePromise(null),
    );
    app?.remove();
  });

  it("draws every chart, opens each chart's tooltip, and logs no console errors or warnings", async () => {
    if (!browser) throw new Error("Chromium did not start");
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    const problems = collectProblems(page);

    await page.goto(`http://127.0.0.1:${port}/`);
    const drawnPaths: Record<string, number> = {};
    const tooltips: Record<string, string> = {};
    for (const kind of chartKinds) drawnPaths[kind] = await waitForChartDrawn(page, kind);
    for (const kind of chartKinds) tooltips[kind] = await hoverForTooltip(page, kind);
    const tokens = await readThemeTokens(page);
    console.log("[consumers] vite app: paths drawn", drawnPaths, "tooltips", tooltips);

    for (const kind of chartKinds) expect(drawnPaths[kind]).toBeGreaterThan(0);
    expect(tokens.chartPalette).toMatch(/^#|^rgb|^oklch|^hsl/);
    expect(tokens.uiAccent).not.toBe("");
    expect(tooltips.line).toContain("Cost");
    expect(tooltips.bar).toMatch(/revenue/i);
    expect(tooltips.pie).toMatch(/Jan|Feb|Mar|Apr/);
    expect(describeProblems(problems)).toBe("");
  });

  it("shows the tooltip for the nearest x where a finger taps the plot, and moves it on the next tap", async () => {
    if (!browser) throw new Error("Chromium did not start");
    const context = await browser.newContext({
      viewport: { width: 1000, height: 800 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await waitForChartDrawn(page, "line");
    const plot = page.locator('[data-example="line"] svg.recharts-surface');
    await plot.scrollIntoViewIfNeeded();
    const box = await plot.boundingBox();
    if (!box) throw new Error("the line chart has no plot");
    const tooltip = page.locator('[data-example="line"] .seed-chart-tooltip');

    await page.touchscreen.tap(box.x + box.width * 0.15, box.y + box.height / 2);
    await expect.poll(() => tooltip.textContent()).toMatch(/^(Jan|Feb)/);
    const first = await tooltip.textContent();
    await page.touchscreen.tap(box.x + box.width * 0.9, box.y + box.height / 2);
    await expect.poll(() => tooltip.textContent()).toMatch(/^(Nov|Dec)/);
    expect(await tooltip.textContent()).not.toBe(first);
    await context.close();
  });
});
