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

  it("keeps the first and last category labels of a crowded axis (issue 11)", async () => {
    if (!browser) throw new Error("Chromium did not start");
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(`http://127.0.0.1:${port}/`);
    const axes = await page.waitForFunction(() => {
      const result: Record<string, { labels: string[]; inside: boolean }> = {};
      for (const kind of ["line", "area", "bar", "many"]) {
        const svg = document.querySelector(`[data-example="${kind}"] svg.recharts-surface`);
        if (!svg) return false;
        const box = svg.getBoundingClientRect();
        const ticks = [
          ...svg.querySelectorAll(
            ".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value",
          ),
        ];
        if (ticks.length === 0) return false;
        result[kind] = {
          // a cut label keeps its full name in an SVG <title>
          labels: ticks.map(
            (tick) =>
              tick.querySelector("title")?.textContent ??
              tick.parentElement?.querySelector("title")?.textContent ??
              tick.textContent ??
              "",
          ),
          // every label drawn whole inside the chart, none cut at its left or right edge
          inside: ticks.every((tick) => {
            const r = tick.getBoundingClientRect();
            return r.width > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
          }),
        };
      }
      return result;
    });
    const found = (await axes.jsonValue()) as Record<string, { labels: string[]; inside: boolean }>;
    console.log("[consumers] first and last axis labels", found.many?.labels.length, "of 60 shown");
    for (const kind of ["line", "area", "bar"]) {
      expect(found[kind]?.labels[0]).toBe("Jan");
      expect(found[kind]?.labels.at(-1)).toBe("Dec");
      expect(found[kind]?.inside).toBe(true);
    }
    expect(found.many?.labels[0]).toBe("Store 1");
    expect(found.many?.labels.at(-1)).toBe("Store 60");
    expect(found.many?.labels.length).toBeLessThan(60);
    expect(found.many?.inside).toBe(true);
    await page.close();
  });

  it("keeps a tooltip at the window's bottom-right corner inside the window (issue 11)", async () => {
    if (!browser) throw new Error("Chromium did not start");
    // narrower and shorter than the page: the line chart runs past the right and bottom edges
    const page = await browser.newPage({ viewport: { width: 560, height: 420 } });
    await page.goto(`http://127.0.0.1:${port}/`);
    await waitForChartDrawn(page, "line");
    const point = await page.evaluate(() => {
      const svg = document.querySelector('[data-example="line"] svg.recharts-surface');
      if (!svg) return null;
      const box = svg.getBoundingClientRect();
      // the plot's lower part at the window's bottom edge
      window.scrollBy(0, box.bottom - window.innerHeight - 40);
      return { x: window.innerWidth - 8, y: window.innerHeight - 24 };
    });
    if (!point) throw new Error("no line chart");
    await page.mouse.move(point.x - 20, point.y - 20);
    await page.mouse.move(point.x, point.y, { steps: 3 });
    const handle = await page.waitForFunction(
      () => {
        const tooltip = document.querySelector('[data-example="line"] .seed-chart-tooltip');
        if (!tooltip) return false;
        const r = tooltip.getBoundingClientRect();
        const inside =
          r.left >= 0 &&
          r.top >= 0 &&
          r.right <= document.documentElement.clientWidth &&
          r.bottom <= document.documentElement.clientHeight;
        return inside ? { left: r.left, top: r.top, right: r.right, bottom: r.bottom } : false;
      },
      undefined,
      { timeout: 10_000 },
    );
    console.log("[consumers] corner tooltip box", await handle.jsonValue());
    await page.close();
  });

  it("draws every chart's marks in system colours under forced colours (issue 11)", async () => {
    if (!browser) throw new Error("Chromium did not start");
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.emulateMedia({ forcedColors: "active" });
    await page.goto(`http://127.0.0.1:${port}/`);
    for (const kind of chartKinds) await waitForChartDrawn(page, kind);
    const marks = await page.evaluate(() => {
      const selectors: Record<string, string> = {
        line: ".recharts-line-curve",
        area: ".recharts-area-curve",
        bar: ".recharts-bar-rectangle path",
        pie: ".recharts-pie-sector path",
      };
      const canvas = getComputedStyle(document.body).backgroundColor;
      const result: Record<
        string,
        { count: number; visible: number; canvas: string; first: Record<string, string> }
      > = {};
      for (const [kind, selector] of Object.entries(selectors)) {
        const found = [...document.querySelectorAll(`[data-example="${kind}"] ${selector}`)];
        const visible = found.filter((mark) => {
          const style = getComputedStyle(mark);
          return (
            style.stroke !== "none" &&
            style.stroke !== canvas &&
            !/^rgba\(.*,\s*0\)$/.test(style.stroke) &&
            Number.parseFloat(style.strokeWidth) > 0 &&
            style.visibility !== "hidden" &&
            Number(style.opacity) > 0
          );
        });
        const first = found[0] ? getComputedStyle(found[0]) : null;
        result[kind] = {
          count: found.length,
          visible: visible.length,
          canvas,
          first: {
            stroke: first?.stroke ?? "",
            strokeWidth: first?.strokeWidth ?? "",
            fill: first?.fill ?? "",
            opacity: first?.opacity ?? "",
          },
        };
      }
      return {
        result,
        forced: matchMedia("(forced-colors: active)").matches,
      };
    });
    console.log("[consumers] forced colours", JSON.stringify(marks));
    expect(marks.forced).toBe(true);
    for (const kind of chartKinds) {
      expect(marks.result[kind]?.count).toBeGreaterThan(0);
      expect(marks.result[kind]?.visible).toBe(marks.result[kind]?.count);
    }
    await page.close();
  });
});
