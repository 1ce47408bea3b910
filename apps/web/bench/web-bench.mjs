// Public pages under load, on the production build (`next start`), with autocannon: /d/demo and a
// dashboard over a 1,000,000-row dataset, next to the static 404 page in the same run.
// Prints req/s, p50, p99 and bytes per response, and each page's ratio to the 404 page.
// Target (issue 9): /d/demo serves at least 50% of the 404 page's req/s.
// Run: pnpm --filter @seed/web bench   (after `next build`; SEED_BENCH_ROWS, SEED_BENCH_SECONDS)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { salesCsvChunks } from "@seed/sample-data";
import { openStore } from "@seed/store";
import autocannon from "autocannon";

const rows = Number(process.env.SEED_BENCH_ROWS ?? 1_000_000);
const seconds = Number(process.env.SEED_BENCH_SECONDS ?? 10);
const connections = 20;
const appDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dataDir = mkdtempSync(path.join(tmpdir(), "seed-web-bench-"));
/** @type {import("@seed/store").Actor} */
const actor = { id: "bench", email: "bench@example.com", role: "editor" };

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function seedMillionDashboard() {
  const store = await openStore({ databaseUrl: null, dataDir });
  try {
    const started = performance.now();
    const imported = await store.importNewDataset(
      {
        name: "A million days",
        source: (async function* () {
          yield* salesCsvChunks(rows, { seed: 7 });
        })(),
      },
      actor,
    );
    const chart = await store.createChart(
      {
        title: "Revenue per month by region",
        type: "bar",
        datasetId: imported.datasetId,
        query: {
          x: { column: "day", grain: "month" },
          measures: [{ column: "revenue", aggregate: "sum" }],
          breakdown: { column: "region", top: 5 },
        },
        options: { stack: "stacked" },
      },
      actor,
    );
    const raw = await store.createChart(
      {
        title: "Revenue, every row",
        type: "line",
        datasetId: imported.datasetId,
        query: { x: { column: "day" }, measures: [{ column: "revenue", aggregate: "none" }] },
      },
      actor,
    );
    await store.createDashboard(
      {
        title: "A million rows",
        slug: "million",
        published: true,
        tiles: [
          { kind: "chart", chartId: chart.id },
          { kind: "chart", chartId: raw.id },
        ],
      },
      actor,
    );
    const took = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Seeded ${imported.rowCount.toLocaleString("en-US")} rows in ${took} s`);
  } finally {
    await store.close();
  }
}

/** @param {string} url */
async function waitForHealth(url) {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not become healthy`);
}

/**
 * @param {string} url
 * @returns {Promise<import("autocannon").Result>}
 */
function run(url) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration: seconds },
      (/** @type {Error | null} */ error, /** @type {import("autocannon").Result} */ result) =>
        error ? reject(error) : resolve(result),
    );
  });
}

await seedMillionDashboard();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn("pnpm", ["exec", "next", "start", "-p", String(port)], {
  cwd: appDir,
  env: {
    ...process.env,
    NODE_ENV: "production",
    SEED_DATA_DIR: dataDir,
    DATABASE_URL: "",
    BETTER_AUTH_URL: base,
  },
  stdio: ["ignore", "ignore", "inherit"],
  detached: true,
});
try {
  await waitForHealth(base);
  const pages = [
    ["static 404 page", "/no-such-page"],
    ["/d/demo", "/d/demo"],
    ["/d/million (1,000,000 rows)", "/d/million"],
  ];
  // One warm-up request each: the first renders and fills the cache.
  for (const [, pagePath] of pages) await fetch(`${base}${pagePath}`);
  /** @type {{ label: string, result: import("autocannon").Result }[]} */
  const results = [];
  for (const [label = "", pagePath] of pages) {
    const result = await run(`${base}${pagePath}`);
    results.push({ label, result });
  }
  const baseline = results[0]?.result.requests.average ?? 1;
  console.log(
    `\nPublic pages, ${connections} connections, ${seconds} s each (autocannon, next start):`,
  );
  console.log("page                           req/s    p50 ms   p99 ms   bytes/resp  vs 404");
  for (const { label, result } of results) {
    const perResponse =
      result.requests.total > 0 ? result.throughput.total / result.requests.total : 0;
    const ratio = result.requests.average / baseline;
    console.log(
      `${label.padEnd(30)} ${result.requests.average.toFixed(0).padStart(6)}   ${String(result.latency.p50).padStart(6)}   ${String(result.latency.p99).padStart(6)}   ${perResponse.toFixed(0).padStart(10)}  ${(ratio * 100).toFixed(0).padStart(4)}%`,
    );
    if (result.non2xx > 0 && !label.includes("404")) {
      console.log(`  ${result.non2xx} responses were not 2xx`);
    }
  }
  const demo = results[1]?.result.requests.average ?? 0;
  const share = demo / baseline;
  console.log(
    `\n/d/demo at ${(share * 100).toFixed(0)}% of the 404 page: ${share >= 0.5 ? "meets" : "MISSES"} the 50% target (before: 4.6%, 120 vs 2,631 req/s)`,
  );
} finally {
  try {
    if (server.pid !== undefined) process.kill(-server.pid, "SIGTERM");
  } catch {
    // already gone
  }
  rmSync(dataDir, { recursive: true, force: true });
}
