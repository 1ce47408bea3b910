import type { Page } from "playwright-core";

export const chartKinds = ["line", "area", "bar", "pie"] as const;
export type ChartKind = (typeof chartKinds)[number];

/** Waits until the chart in `[data-example=kind]` has drawn an SVG with real path geometry. */
export async function waitForChartDrawn(page: Page, kind: ChartKind): Promise<number> {
  const handle = await page.waitForFunction(
    (chart) => {
      const paths = document.querySelectorAll(
        `[data-example="${chart}"] svg.recharts-surface path`,
      );
      const drawn = [...paths].filter((path) => (path.getAttribute("d") ?? "").length > 10);
      return drawn.length > 0 ? drawn.length : false;
    },
    kind,
    { timeout: 30_000 },
  );
  return (await handle.jsonValue()) as number;
}

/**
 * Moves the mouse onto the chart (onto a slice for a pie, the plot for the others) and returns
 * the text of the Recharts tooltip once it is visible.
 */
export async function hoverForTooltip(page: Page, kind: ChartKind): Promise<string> {
  const point = await page.evaluate((chart) => {
    const section = document.querySelector(`[data-example="${chart}"]`);
    const target = section?.querySelector(
      chart === "pie" ? ".recharts-pie-sector" : "svg.recharts-surface",
    );
    if (!target) return null;
    target.scrollIntoView({ block: "center" });
    const box = target.getBoundingClientRect();
    // The first grid point from the middle outwards that lands on the target itself.
    const fractions = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8];
    for (const fy of fractions) {
      for (const fx of fractions) {
        const x = box.left + box.width * fx;
        const y = box.top + box.height * fy;
        const hit = document.elementFromPoint(x, y);
        if (hit && target.contains(hit)) return { x, y };
      }
    }
    return null;
  }, kind);
  if (!point) throw new Error(`found no point on the ${kind} chart to hover`);
  // The pointer enters from outside the chart exactly once: the first entry must open the tooltip.
  await page.mouse.move(1, 1);
  await page.mouse.move(point.x, point.y, { steps: 3 });
  const handle = await page.waitForFunction(
    (chart) => {
      const wrapper = document.querySelector(`[data-example="${chart}"] .recharts-tooltip-wrapper`);
      if (!wrapper || getComputedStyle(wrapper).visibility !== "visible") return false;
      const text = wrapper.textContent?.trim() ?? "";
      return text.length > 0 ? text : false;
    },
    kind,
    { timeout: 10_000 },
  );
  return (await handle.jsonValue()) as string;
}

/** Theme tokens as the page resolved them: empty strings mean a stylesheet export was not applied. */
export function readThemeTokens(page: Page): Promise<{ chartPalette: string; uiAccent: string }> {
  return page.evaluate(() => {
    const chart = document.querySelector(".seed-chart");
    return {
      chartPalette: chart ? getComputedStyle(chart).getPropertyValue("--seed-chart-1").trim() : "",
      uiAccent: getComputedStyle(document.documentElement)
        .getPropertyValue("--seed-color-accent")
        .trim(),
    };
  });
}
