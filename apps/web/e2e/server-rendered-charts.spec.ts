import { expect, test } from "@playwright/test";
import { horizontalOverflow } from "./support";

// Issue 27, charts rendered on the server: a published page's HTML holds each chart's SVG at its
// final size, readable before any script runs; hydration then swaps in the interactive chart with
// no layout shift and no frame in which a chart box is empty.

test("with scripts off, every chart of a published dashboard is drawn, filling its plot box", async ({
  browser,
}) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  const response = await page.goto("/d/demo");
  expect(response?.status()).toBe(200);

  const plots = page.locator(".dashboard-tile .seed-chart-plot");
  const count = await plots.count();
  expect(count).toBeGreaterThan(0);
  const sizes: string[] = [];
  for (let i = 0; i < count; i++) {
    const plot = plots.nth(i);
    const svg = plot.locator("svg.seed-chart-svg");
    await expect(svg).toBeVisible();
    // marks, not an empty frame: lines, areas, bars or slices
    expect(await svg.locator("path, rect").count()).toBeGreaterThan(0);
    const box = await plot.boundingBox();
    const drawn = await svg.boundingBox();
    const width = Number(await svg.getAttribute("width"));
    const height = Number(await svg.getAttribute("height"));
    // drawn at the plot's own size on this screen, not scaled
    sizes.push(
      `box ${box?.width}x${box?.height}, drawn ${width}x${height} shown ${drawn?.width}x${drawn?.height}`,
    );
  }
  const expected = sizes.map((line) => {
    const [, bw, bh] = line.match(/box ([\d.]+)x([\d.]+)/) ?? [];
    return `box ${bw}x${bh}, drawn ${Math.round(Number(bw))}x${Math.round(Number(bh))} shown ${bw}x${bh}`;
  });
  expect(sizes).toEqual(expected);
  await context.close();
});

test("with scripts off at 375 px, the drawn charts fit the screen without sideways scroll", async ({
  browser,
}) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 375, height: 800 },
  });
  const page = await context.newPage();
  await page.goto("/d/demo");
  await expect(page.locator("svg.seed-chart-svg").first()).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);
  await context.close();
});

test("hydration swaps each server drawing for the chart with no layout shift and no empty frame", async ({
  browser,
}) => {
  // a fresh browser, as a first visitor meets the page
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    const state = { shift: 0, emptyFrames: 0, frames: 0, shifted: [] as string[] };
    (window as unknown as { __drawing: typeof state }).__drawing = state;
    new PerformanceObserver((list) => {
      type Shift = PerformanceEntry & {
        value: number;
        sources: {
          node: Node | null;
          previousRect: DOMRectReadOnly;
          currentRect: DOMRectReadOnly;
        }[];
      };
      for (const entry of list.getEntries() as Shift[]) {
        state.shift += entry.value;
        // name what moved, so a failure says where to look
        for (const source of entry.sources) {
          const node = source.node instanceof Element ? source.node : source.node?.parentElement;
          const name = node
            ? `${node.tagName.toLowerCase()}.${[...node.classList].join(".")}`
            : "?";
          const { previousRect: a, currentRect: b } = source;
          state.shifted.push(
            `${name} ${a.x},${a.y},${a.width}x${a.height} -> ${b.x},${b.y},${b.width}x${b.height} at ${Math.round(entry.startTime)} ms`,
          );
        }
      }
    }).observe({ type: "layout-shift", buffered: true });
    // every frame from the first paint: each chart plot shows the server drawing or the chart
    const check = () => {
      state.frames++;
      for (const plot of document.querySelectorAll<HTMLElement>(
        ".dashboard-tile .seed-chart-plot",
      )) {
        const fallback = plot.querySelector<HTMLElement>(".seed-chart-fallback");
        const shown = fallback !== null && getComputedStyle(fallback).display !== "none";
        const drawn = plot.querySelector(".recharts-surface *") !== null;
        if (!shown && !drawn) state.emptyFrames++;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  // the drawing code stays on the server: no script the page loads holds it
  const scripts: Promise<string>[] = [];
  page.on("response", (response) => {
    if (/\/_next\/static\/.*\.js$/.test(new URL(response.url()).pathname)) {
      scripts.push(
        response.text().then((text) => (text.includes("seed-chart-svg") ? response.url() : "")),
      );
    }
  });
  await page.goto("/d/demo");
  const plots = page.locator(".dashboard-tile .seed-chart-plot");
  const count = await plots.count();
  expect(count).toBeGreaterThan(0);
  // every chart has drawn itself, and every server drawing is gone from view
  await expect(page.locator(".dashboard-tile .seed-chart-plot svg.recharts-surface")).toHaveCount(
    count,
  );
  for (let i = 0; i < count; i++) {
    await expect(plots.nth(i).locator(".seed-chart-fallback")).toBeHidden();
  }
  await page.waitForFunction(
    () => (window as unknown as { __drawing: { frames: number } }).__drawing.frames > 10,
  );
  const state = await page.evaluate(
    () =>
      (
        window as unknown as {
          __drawing: { shift: number; emptyFrames: number; shifted: string[] };
        }
      ).__drawing,
  );
  expect(state.emptyFrames).toBe(0);
  expect(state.shifted).toEqual([]);
  expect(state.shift).toBe(0);
  expect(errors).toEqual([]);
  expect(scripts.length).toBeGreaterThan(0);
  expect((await Promise.all(scripts)).filter(Boolean)).toEqual([]);
  await context.close();
});
