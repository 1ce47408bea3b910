// @seed/charts vs raw Recharts vs uPlot in headless Chromium, in one run. Prints figures; never fails.
import { existsSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { build, preview } from "vite";
import { fullChromiumLaunchOptions } from "../../../scripts/chromium.mjs";

const configFile = fileURLToPath(new URL("./vite.config.ts", import.meta.url));
// 9 loads each: a median of 5 still moved by 10-15% between runs on 2 cores, enough to flip
// a ratio that sits within 10% of its goal
const runs = Number(process.env.BENCH_RUNS ?? 9);
const port = Number(process.env.BENCH_PORT ?? 4173);
const SERIES = 3;
const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000,1000000").split(",").map(Number);
/** Raw Recharts takes minutes above this (a scatter's SVG element per point: above 10k); printed as "-". */
const RECHARTS_LIMIT = { line: 100_000, scatter: 10_000, combo: Number.POSITIVE_INFINITY };
/**
 * "line" (three random walks), "scatter" (a cloud in five skewed groups) and "combo" (bars and a
 * line on two axes), each its own table.
 */
const CHARTS = (process.env.BENCH_CHARTS ?? "line,scatter,combo").split(",");
/**
 * A combo draws a bar per row (bands are not downsampled: a bar stands for a category), so its
 * sizes are what a dashboard's bars hold, a year of days to a few years of them; uPlot has no
 * such chart of its own to compare.
 */
const COMBO_SIZES = (process.env.BENCH_COMBO_SIZES ?? "100,1000").split(",").map(Number);
const FRAME_MS = 1000 / 60;

if (!existsSync(fileURLToPath(new URL("../dist/index.js", import.meta.url)))) {
  console.error("dist/ is missing: run `pnpm --filter @seed/charts build` first.");
  process.exit(0);
}

await build({ configFile, mode: "production" });
const server = await preview({
  configFile,
  preview: { port, strictPort: true, host: "127.0.0.1" },
});
const browser = await chromium.launch(fullChromiumLaunchOptions);

function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const PLOT_SELECTOR = {
  seed: ".recharts-wrapper",
  seedcols: ".recharts-wrapper",
  recharts: ".recharts-wrapper",
  uplot: ".u-over",
};

/** One fresh page: cold paint, heap after GC, pointer entry from outside, then hover-to-paint. */
async function loadOnce(chart, lib, points) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  try {
    await page.goto(
      `http://127.0.0.1:${port}/?chart=${chart}&lib=${lib}&points=${points}&series=${SERIES}`,
    );
    await page.waitForFunction(() => window.benchResult || window.benchError, null, {
      timeout: 240_000,
      polling: 100,
    });
    const result = await page.evaluate(() => window.benchResult ?? { error: window.benchError });
    if (result.error) throw new Error(result.error);

    const cdp = await page.context().newCDPSession(page);
    await cdp.send("HeapProfiler.collectGarbage");
    const { usedSize } = await cdp.send("Runtime.getHeapUsage");

    const box = await page.locator(PLOT_SELECTOR[lib]).first().boundingBox();
    if (!box) throw new Error(`${lib}: no plot element`);
    const y = box.y + box.height / 2;
    // the pointer comes from outside the chart straight into the plot: does a tooltip show?
    await page.mouse.move(2, 2);
    await page.mouse.move(box.x + box.width * 0.3, y);
    const entryShows = await page
      .waitForFunction(() => window.benchTooltipShown?.(), null, { timeout: 1500, polling: 16 })
      .then(() => true)
      .catch(() => false);
    // one move inside the plot to another point: input to painted tooltip and crosshair
    await page.evaluate(() => {
      window.benchHoverPending = window.benchHover?.();
    });
    await page.mouse.move(box.x + box.width * 0.62, y);
    const hoverMs = await page.evaluate(() => window.benchHoverPending ?? null);
    return {
      paint: result.paintMs,
      commits: result.commits,
      heapMb: usedSize / 2 ** 20,
      hover: hoverMs,
      entryShows,
    };
  } finally {
    await page.close();
  }
}

/** Medians over the loads of one library at one size. */
function summarize(chart, lib, points, loads) {
  return {
    chart,
    lib,
    points,
    paint: median(loads.map((l) => l.paint)),
    hover: median(loads.flatMap((l) => (l.hover === null ? [] : [l.hover]))),
    heapMb: median(loads.map((l) => l.heapMb)),
    commits: median(loads.map((l) => l.commits)),
    entry: `${loads.filter((l) => l.entryShows).length}/${loads.length}`,
  };
}

const LIBS = {
  line: [
    ["seed", "@seed/charts"],
    ["seedcols", "seed, columns"],
    ["recharts", "raw Recharts"],
    ["uplot", "uPlot"],
  ],
  scatter: [
    ["seed", "@seed/charts"],
    ["recharts", "raw Recharts"],
    ["uplot", "uPlot"],
  ],
  combo: [
    ["seed", "@seed/charts"],
    ["recharts", "raw Recharts"],
  ],
};
const cells = CHARTS.flatMap((chart) =>
  (chart === "combo" ? COMBO_SIZES : SIZES).flatMap((points) =>
    LIBS[chart].map(([lib]) => ({ chart, lib, points, loads: [] })),
  ),
);
const skipped = (cell) => cell.lib === "recharts" && cell.points > RECHARTS_LIMIT[cell.chart];
const started = Date.now();
try {
  // round-robin: run r of every library and size before run r + 1 of any, so a busy spell of
  // the machine falls on all of them alike instead of on one library's five loads
  // one load of each library and size first, not counted: the first page of a fresh browser
  // also pays for starting its processes and caches, which no later load does
  for (const cell of cells) if (!skipped(cell)) await loadOnce(cell.chart, cell.lib, cell.points);
  for (let run = 0; run < runs; run++) {
    for (const cell of cells) {
      if (!skipped(cell)) cell.loads.push(await loadOnce(cell.chart, cell.lib, cell.points));
    }
    console.log(`run ${run + 1} of ${runs} done (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
} finally {
  await browser.close();
  await new Promise((resolve) => server.httpServer.close(resolve));
}
const results = cells.map((cell) =>
  skipped(cell)
    ? {
        chart: cell.chart,
        lib: cell.lib,
        points: cell.points,
        paint: null,
        hover: null,
        heapMb: null,
        commits: null,
        entry: "-",
      }
    : summarize(cell.chart, cell.lib, cell.points, cell.loads),
);

const fmt = (value, digits = 0) =>
  value === null || value === undefined ? "-" : value.toFixed(digits);
const CAPTIONS = {
  line: `${SERIES} random-walk series, 800x400 line chart`,
  scatter: "a cloud of points in 5 skewed groups, 800x400 scatter chart",
  combo: "a bar and a line (second axis) per day, 800x400 combo chart",
};
for (const chart of CHARTS) {
  const nameOf = Object.fromEntries(LIBS[chart]);
  console.log(
    `\nmedians of ${runs} fresh page loads, ${CAPTIONS[chart]}, ${((Date.now() - started) / 1000).toFixed(0)} s in all`,
  );
  console.log(
    `library        ${chart === "line" ? "points x 3" : chart === "combo" ? "      days" : "    points"}   paint ms   React commits   hover-to-paint ms   heap MB   tooltip on entry`,
  );
  for (const r of results.filter((result) => result.chart === chart)) {
    console.log(
      `${nameOf[r.lib].padEnd(14)} ${String(r.points).padStart(10)}   ${fmt(r.paint).padStart(8)}   ${(r.lib === "uplot" ? "-" : fmt(r.commits)).padStart(13)}   ${fmt(r.hover, 1).padStart(17)}   ${fmt(r.heapMb, 1).padStart(7)}   ${r.entry.padStart(16)}`,
    );
  }
}

const find = (lib, points, chart = "line") =>
  results.find((r) => r.chart === chart && r.lib === lib && r.points === points);
const ratio = (a, b) => (a?.paint && b?.paint ? a.paint / b.paint : null);
const targets = [
  [
    "paint 1M x 3 / paint 1k x 3",
    ratio(find("seed", 1_000_000), find("seed", 1_000)),
    "<=",
    1.2,
    "x",
  ],
  [
    "same, typed-array columns (seed, columns)",
    ratio(find("seedcols", 1_000_000), find("seedcols", 1_000)),
    "<=",
    1.2,
    "x",
  ],
  [
    "@seed/charts / uPlot at 1M x 3",
    ratio(find("seed", 1_000_000), find("uplot", 1_000_000)),
    "<=",
    3,
    "x",
  ],
  [
    "@seed/charts / uPlot at 1k x 3",
    ratio(find("seed", 1_000), find("uplot", 1_000)),
    "<=",
    4,
    "x",
  ],
  ["hover-to-paint at 1M x 3", find("seed", 1_000_000)?.hover ?? null, "<=", FRAME_MS, " ms"],
  [
    "raw Recharts / @seed/charts at 100k x 3",
    ratio(find("recharts", 100_000), find("seed", 100_000)),
    ">=",
    20,
    "x",
  ],
  // the scatter has no target of its own in PERFORMANCE.md: the line's goals, where they compare
  [
    "scatter: @seed/charts / uPlot at 1M",
    ratio(find("seed", 1_000_000, "scatter"), find("uplot", 1_000_000, "scatter")),
    "<=",
    3,
    "x",
  ],
  [
    "scatter: @seed/charts / uPlot at 1k",
    ratio(find("seed", 1_000, "scatter"), find("uplot", 1_000, "scatter")),
    "<=",
    4,
    "x",
  ],
  [
    "scatter: hover-to-paint at 1M",
    find("seed", 1_000_000, "scatter")?.hover ?? null,
    "<=",
    FRAME_MS,
    " ms",
  ],
  [
    "scatter: raw Recharts / @seed/charts at 10k",
    ratio(find("recharts", 10_000, "scatter"), find("seed", 10_000, "scatter")),
    ">=",
    1,
    "x",
  ],
];
console.log(
  "\ntarget                                      figure     goal      met   distance left",
);
// the combo has no target in PERFORMANCE.md: what it costs over the same Recharts chart drawn raw
for (const days of CHARTS.includes("combo") ? COMBO_SIZES : []) {
  const figure = ratio(find("seed", days, "combo"), find("recharts", days, "combo"));
  console.log(
    `${`combo: @seed/charts / raw Recharts at ${days}`.padEnd(43)} ${(figure === null ? "-" : `${figure.toFixed(2)}x`).padStart(8)}   (no goal: the kit's axes, legend and data table over raw Recharts)`,
  );
}
for (const [label, figure, op, goal, unit] of targets) {
  if (figure === null) {
    console.log(`${label.padEnd(43)} ${"-".padStart(8)}   ${op} ${goal.toFixed(1)}${unit}`);
    continue;
  }
  const met = op === "<=" ? figure <= goal : figure >= goal;
  // how much faster @seed/charts must get to meet the target
  const left = met
    ? ""
    : op === "<="
      ? `${(figure / goal).toFixed(2)}x too slow`
      : `${(goal / figure).toFixed(2)}x too slow`;
  console.log(
    `${label.padEnd(43)} ${(figure.toFixed(2) + unit).padStart(8)}   ${`${op} ${goal.toFixed(1)}${unit}`.padEnd(9)} ${(met ? "yes" : "no").padEnd(5)} ${left}`,
  );
}
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2));
