// Paint and hover benchmark of LineChart vs raw Recharts in headless Chromium. Prints; never fails.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { build, preview } from "vite";

const configFile = fileURLToPath(new URL("./vite.config.ts", import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 3);
const port = Number(process.env.BENCH_PORT ?? 4173);

if (!existsSync(fileURLToPath(new URL("../dist/index.js", import.meta.url)))) {
  console.error("dist/ is missing: run `pnpm --filter @seed/charts build` first.");
  process.exit(0);
}

await build({ configFile, mode: "production" });
const server = await preview({
  configFile,
  preview: { port, strictPort: true, host: "127.0.0.1" },
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-dev-shm-usage",
  ],
});

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(lib, points, series, times) {
  const paints = [];
  const hovers = [];
  for (let i = 0; i < times; i++) {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    await page.goto(`http://127.0.0.1:${port}/?lib=${lib}&points=${points}&series=${series}`);
    await page.waitForFunction(() => window.benchResult || window.benchError, null, {
      timeout: 180_000,
    });
    const result = await page.evaluate(() => window.benchResult ?? { error: window.benchError });
    await page.close();
    if (result.error) throw new Error(result.error);
    paints.push(result.paintMs);
    if (result.hoverUpdateMs !== null) hovers.push(result.hoverUpdateMs);
  }
  return { paint: median(paints), hover: hovers.length ? median(hovers) : null };
}

const rows = [];
try {
  for (const points of [1_000, 100_000, 1_000_000]) {
    for (const series of [1, 3]) {
      const r = await measure("seed", points, series, runs);
      rows.push({ lib: "@seed/charts", points, series, ...r });
      console.log(
        `@seed/charts ${points} x ${series}: paint ${r.paint.toFixed(0)} ms, hover ${r.hover?.toFixed(1)} ms`,
      );
    }
  }
  for (const points of [1_000, 10_000, 100_000]) {
    for (const series of [1, 3]) {
      const r = await measure("recharts", points, series, points >= 100_000 ? 1 : runs);
      rows.push({ lib: "recharts", points, series, ...r });
      console.log(
        `recharts ${points} x ${series}: paint ${r.paint.toFixed(0)} ms, hover ${r.hover?.toFixed(1)} ms`,
      );
    }
  }
} finally {
  await browser.close();
  await new Promise((resolve) => server.httpServer.close(resolve));
}

const find = (lib, points, series) =>
  rows.find((r) => r.lib === lib && r.points === points && r.series === series);
console.log("\nlibrary        points     series  paint ms  hover ms");
for (const r of rows) {
  console.log(
    `${r.lib.padEnd(14)} ${String(r.points).padStart(9)}  ${String(r.series).padStart(6)}  ${r.paint.toFixed(0).padStart(8)}  ${(r.hover === null ? "-" : r.hover.toFixed(1)).padStart(8)}`,
  );
}
const seed1k3 = find("@seed/charts", 1_000, 3);
const seed1m3 = find("@seed/charts", 1_000_000, 3);
const seed100k3 = find("@seed/charts", 100_000, 3);
const raw100k3 = find("recharts", 100_000, 3);
console.log("\ntarget                                   figure    goal");
console.log(
  `1M x 3 paint / 1k x 3 paint               ${(seed1m3.paint / seed1k3.paint).toFixed(2)}x     <= 1.2x`,
);
console.log(
  `raw Recharts / @seed/charts at 100k x 3    ${(raw100k3.paint / seed100k3.paint).toFixed(1)}x     >= 20x`,
);
console.log(`hover tooltip update at 1M x 3             ${seed1m3.hover?.toFixed(1)} ms   <= 8 ms`);
