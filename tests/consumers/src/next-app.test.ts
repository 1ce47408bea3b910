import type { ChildProcess } from "node:child_process";
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
import {
  assertPortFree,
  type ConsumerApp,
  catalogVersions,
  createConsumerApp,
  type RunResult,
  runOk,
  startServer,
  stopServer,
  waitForUrl,
} from "./consumer-app";

const port = 3300;
const devPort = 3302;
const pageUrl = `http://127.0.0.1:${port}/`;
// Production React reports a failed hydration only as minified errors 418/423/425.
const hydrationWarning =
  /hydrat|did not match|didn't match|react-error-(418|423|425)|error #(418|423|425)/i;

/** The server HTML of one chart's section: up to the next section or the first script. */
function chartSectionHtml(html: string, kind: string): string {
  const start = html.indexOf(`data-example="${kind}"`);
  if (start === -1) return "";
  const ends = [html.indexOf("data-example=", start + 1), html.indexOf("<script", start)];
  return html.slice(start, Math.min(...ends.filter((end) => end !== -1), html.length));
}

describe("Next.js 16 App Router app using the packed tarballs", () => {
  let app: ConsumerApp;
  let build: RunResult;
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    app = await createConsumerApp({
      fixture: "next-app",
      dependencies: {
        next: catalogVersions.next,
        react: catalogVersions.react,
        "react-dom": catalogVersions["react-dom"],
        typescript: catalogVersions.typescript,
        "@types/react": catalogVersions["@types/react"],
        "@types/react-dom": catalogVersions["@types/react-dom"],
        "@types/node": catalogVersions["@types/node"],
      },
    });
    await assertPortFree(port);
    build = await runOk(join(app.dir, "node_modules/.bin/next"), ["build"], { cwd: app.dir });
    const started = startServer(
      join(app.dir, "node_modules/.bin/next"),
      ["start", "-p", String(port), "-H", "127.0.0.1"],
      { cwd: app.dir },
    );
    server = started.child;
    await waitForUrl(pageUrl, started);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await stopServer(server);
    app?.remove();
  });

  it("builds with next build and no hydration warnings", () => {
    expect(build.code).toBe(0);
    expect(build.output).toMatch(/Compiled successfully|Generating static pages/);
    expect(build.output).not.toMatch(hydrationWarning);
  });

  it("serves the server component page with every chart's labelled frame in the server HTML", async () => {
    const response = await fetch(pageUrl);
    const html = await response.text();

    expect(response.status).toBe(200);
    for (const kind of chartKinds) {
      // Recharts 3 draws its SVG only on the client (recharts#5997): the server sends the labelled
      // frame at its final size, the SVG appears on hydration (checked in the next test).
      const section = chartSectionHtml(html, kind);
      expect(section, kind).toMatch(/<figure[^>]*aria-label="[^"]+"/);
      expect(section, kind).toMatch(/class="recharts-wrapper"/);
    }
  });

  it("hydrates: charts draw, tooltips open, no console errors or hydration warnings", async () => {
    if (!browser) throw new Error("Chromium did not start");
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    const problems = collectProblems(page);

    await page.goto(pageUrl);
    for (const kind of chartKinds) await waitForChartDrawn(page, kind);
    const lineTooltip = await hoverForTooltip(page, "line");
    const tokens = await readThemeTokens(page);
    await page.getByRole("button", { name: "About these figures" }).hover();
    const uiTooltip = await page.locator(".seed-tooltip").first().textContent({ timeout: 10_000 });

    expect(lineTooltip).toContain("Cost");
    expect(tokens.chartPalette).toMatch(/^#|^rgb|^oklch|^hsl/);
    expect(tokens.uiAccent).not.toBe("");
    expect(uiTooltip).toContain("Figures in USD");
    expect(
      describeProblems(problems.filter((problem) => hydrationWarning.test(problem.text))),
    ).toBe("");
    expect(describeProblems(problems)).toBe("");
  });
  it("hydrates under next dev too, where React reports every mismatched attribute", async () => {
    if (!browser) throw new Error("Chromium did not start");
    await assertPortFree(devPort);
    const dev = startServer(
      join(app.dir, "node_modules/.bin/next"),
      ["dev", "-p", String(devPort), "-H", "127.0.0.1"],
      { cwd: app.dir },
    );
    try {
      await waitForUrl(`http://127.0.0.1:${devPort}/`, dev, 180_000);
      const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      const problems = collectProblems(page);

      await page.goto(`http://127.0.0.1:${devPort}/`);
      for (const kind of chartKinds) await waitForChartDrawn(page, kind);
      await hoverForTooltip(page, "line");

      expect(
        describeProblems(problems.filter((problem) => hydrationWarning.test(problem.text))),
      ).toBe("");
      expect(describeProblems(problems)).toBe("");
      expect(dev.output()).not.toMatch(hydrationWarning);
    } finally {
      await stopServer(dev.child);
    }
  }, 300_000);
});
