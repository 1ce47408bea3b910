// One instance against two behind nginx (deploy/nginx.conf) on one PostgreSQL, under load:
// autocannon, 50 connections for 60 s each, on a public dashboard (served from each instance's
// page cache) and on a signed-in admin page (rendered per request, session checked in the
// database). Prints req/s, p50 and p99 for each, errors and non-2xx, and the two-to-one ratio.
// Run: pnpm bench:web   (SEED_BENCH_SECONDS, SEED_BENCH_CONNECTIONS to change the load)
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import { chromium } from "playwright-core";
import { fullChromiumLaunchOptions } from "../../../scripts/chromium.mjs";
import { startCluster } from "../scripts/cluster.mjs";
import { appDir } from "../scripts/next-instance.mjs";

const seconds = Number(process.env.SEED_BENCH_SECONDS ?? 60);
const connections = Number(process.env.SEED_BENCH_CONNECTIONS ?? 50);
const port = Number(process.env.SEED_BENCH_PORT ?? 3800);

/**
 * @param {string} url
 * @param {Record<string, string>} headers
 * @returns {Promise<import("autocannon").Result>}
 */
function load(url, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/**
 * An admin made with the app's CLI, signed in through the balancer's login page.
 * @param {Awaited<ReturnType<typeof startCluster>>} cluster
 */
async function adminCookie(cluster) {
  const email = "bench-admin@bench.seed-charts.test";
  const password = `${randomBytes(18).toString("base64url")}!9a`;
  execFileSync(
    process.execPath,
    ["scripts/create-admin.mjs", "--email", email, "--name", "Bench"],
    {
      cwd: appDir,
      env: {
        ...process.env,
        SEED_DATA_DIR: cluster.dataDirs[0],
        DATABASE_URL: cluster.databaseUrl,
        SEED_ADMIN_PASSWORD: password,
      },
      stdio: "ignore",
    },
  );
  const browser = await chromium.launch(fullChromiumLaunchOptions);
  try {
    const page = await browser.newPage({ baseURL: cluster.url });
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/admin(?:$|[/?])/);
    return (await page.context().cookies())
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ");
  } finally {
    await browser.close();
  }
}

/** @type {{ instances: number; page: string; result: import("autocannon").Result }[]} */
const results = [];
for (const instances of [1, 2]) {
  const cluster = await startCluster({ port, instances, e2eBuild: false });
  try {
    const cookie = await adminCookie(cluster);
    /** @type {{ page: string; url: string; headers: Record<string, string> }[]} */
    const pages = [
      { page: "public /d/demo", url: `${cluster.url}/d/demo`, headers: {} },
      { page: "admin /admin/datasets", url: `${cluster.url}/admin/datasets`, headers: { cookie } },
    ];
    for (const { page, url, headers } of pages) {
      // Warm each instance (first render fills its cache) before measuring.
      for (let i = 0; i < instances * 2; i += 1) await fetch(url, { headers });
      results.push({ instances, page, result: await load(url, headers) });
    }
  } finally {
    await cluster.stop();
  }
}

console.log(
  `\nThrough nginx (deploy/nginx.conf) on one PostgreSQL, ${connections} connections, ${seconds} s each:`,
);
console.log("page                     instances    req/s   p50 ms   p99 ms   errors   non-2xx");
for (const { instances, page, result } of results) {
  console.log(
    `${page.padEnd(24)} ${String(instances).padStart(9)}   ${result.requests.average.toFixed(0).padStart(6)}   ${String(result.latency.p50).padStart(6)}   ${String(result.latency.p99).padStart(6)}   ${String(result.errors).padStart(6)}   ${String(result.non2xx).padStart(7)}`,
  );
}
for (const page of new Set(results.map((entry) => entry.page))) {
  const one = results.find((entry) => entry.page === page && entry.instances === 1);
  const two = results.find((entry) => entry.page === page && entry.instances === 2);
  if (one && two) {
    const ratio = two.result.requests.average / Math.max(one.result.requests.average, 1);
    console.log(`${page}: two instances serve ${ratio.toFixed(2)}x the requests of one`);
  }
}
const failed = results.filter((entry) => entry.result.errors > 0 || entry.result.non2xx > 0);
console.log(
  failed.length === 0
    ? "0 errors and 0 non-2xx responses in every run."
    : `Errors or non-2xx in: ${failed.map((entry) => `${entry.page} x${entry.instances}`).join(", ")}`,
);
if (failed.length > 0) process.exitCode = 1;
