import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import {
  createThrowawayDatabase,
  startThrowawayPostgres,
  throwawaySqlReaderUrl,
} from "../../scripts/throwaway-postgres.mjs";
import { startSmtpSink } from "./e2e/smtp-sink.mjs";
import { chromiumLaunchOptions, e2eTrace } from "./e2e/support";

// Workers re-read this file but inherit the environment, so every process sees the same fresh folders.
process.env.SEED_E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "seed-web-e2e-"));
process.env.SEED_E2E_PRODUCTION_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "seed-web-e2e-prod-"));
// The live sources' password key of this run's test servers (never a fixed or default key).
process.env.SEED_E2E_SOURCES_KEY ??= randomBytes(32).toString("base64");

// SEED_E2E_DATABASE=postgres runs the whole suite on PostgreSQL: one throwaway cluster for the
// run (stopped by global-teardown.ts), a fresh database for each server.
if (process.env.SEED_E2E_DATABASE === "postgres" && !process.env.SEED_E2E_PG_ADMIN_URL) {
  const cluster = startThrowawayPostgres({ prefix: "seed-web-e2e-pg-" });
  process.env.SEED_E2E_PG_DIR = cluster.dir;
  process.env.SEED_E2E_PG_ADMIN_URL = cluster.url;
  process.env.SEED_E2E_APP_DATABASE_URL = createThrowawayDatabase(cluster.url, "e2e_app");
  process.env.SEED_E2E_PRODUCTION_DATABASE_URL = createThrowawayDatabase(cluster.url, "e2e_prod");
}

// A real SMTP server for the run's scheduled reports (stopped by global-teardown.ts): the app
// server sends to it on loopback; e2e/reports.spec.ts reads what arrived from its folder.
if (!process.env.SEED_E2E_SMTP_DIR) {
  const sink = startSmtpSink();
  process.env.SEED_E2E_SMTP_DIR = sink.dir;
  process.env.SEED_E2E_SMTP_PORT = String(sink.port);
}

/**
 * On PostgreSQL, `pnpm test` runs the specs whose path through the app itself differs there (its
 * own roles, backups, job queue, sessions and throttle kept in rows, reads behind collections);
 * `@seed/store`'s own suite runs every query, import, write, limit and migration on both
 * databases, and what the pages do with the answers (forms, permissions, layout, axe) is the same
 * on either, so it runs once, on SQLite. SEED_E2E_ALL=1 runs every spec on PostgreSQL too.
 */
const postgresSpecs = [
  "sql-questions", // questions run as PostgreSQL's read-only role, with its statement timeout
  "collection-leaks", // every route, for another collection's records, with PostgreSQL's reads
  "operations", // backup and restore of a PostgreSQL database
  "alerts", // checks and deliveries through the job queue and conditional updates
  "reports", // scheduled runs through the job queue
  "push-api", // appends and their versions in PostgreSQL rows
  "import-formats", // files streamed into PostgreSQL rows
  "security/sign-in-throttle", // the throttle kept in the database
  "security/sessions", // sessions kept in the database
];
const postgresOnlyListed =
  process.env.SEED_E2E_DATABASE === "postgres" && process.env.SEED_E2E_ALL !== "1";
const appSpecs = postgresOnlyListed
  ? { testMatch: postgresSpecs.map((spec) => `**/e2e/${spec}.spec.ts`) }
  : {};
/**
 * Specs that change an instance-wide setting other tests would feel (e2e/exclusive): they run
 * after every "app" test, on the same server, one at a time.
 */
const exclusiveProjects = postgresOnlyListed
  ? []
  : [
      {
        name: "exclusive",
        testMatch: /e2e\/exclusive\/.*\.spec\.ts/,
        dependencies: ["app"],
        workers: 1,
      },
    ];

// Overridable so two checkouts can run the suite side by side.
const appPort = Number(process.env.SEED_E2E_PORT ?? 3100);
const freshPort = appPort + 1;
const appURL = `http://localhost:${appPort}`;
const freshURL = `http://localhost:${freshPort}`;
const productionPort = appPort + 2;
export const productionURL = `http://localhost:${productionPort}`;

// first-run.spec.ts starts its own fresh server on freshPort (it reads the setup token from its
// log); security specs that need fresh servers use appPort + 3 and + 4 (e2e/server-process.ts).
// The suite runs on the test build (.next-e2e, with test-only routes); one server runs the
// production build (.next) so the security suite can check what production answers.
function serverEnv(
  dataDir: string,
  url: string,
  databaseUrl: string | undefined,
  e2eBuild = true,
): Record<string, string> {
  return {
    NODE_ENV: "production",
    SEED_E2E_BUILD: e2eBuild ? "1" : "",
    SEED_DATA_DIR: dataDir,
    BETTER_AUTH_URL: url,
    // Never let a developer's database or secret leak into the test servers.
    DATABASE_URL: databaseUrl ?? "",
    // SQL questions on PostgreSQL connect as their own read-only role.
    SEED_SQL_DATABASE_URL: databaseUrl ? throwawaySqlReaderUrl(databaseUrl) : "",
    BETTER_AUTH_SECRET: "",
    // Embed links are signed with a key derived from the data folder's auth secret.
    SEED_EMBED_SECRET: "",
    // Live sources (e2e/live-sources.spec.ts) on the test build; production runs without a key.
    SEED_SOURCES_KEY: e2eBuild ? (process.env.SEED_E2E_SOURCES_KEY ?? "") : "",
    // Scheduled reports mail the run's SMTP sink from the test build; production sends none.
    SEED_SMTP_URL: e2eBuild ? `smtp://127.0.0.1:${process.env.SEED_E2E_SMTP_PORT}` : "",
    SEED_SMTP_TLS: e2eBuild ? "off" : "",
    SEED_MAIL_FROM: e2eBuild ? "Seed reports <reports@e2e.seed-charts.test>" : "",
    // The alerts spec's webhook receiver listens on loopback; production allows none.
    SEED_WEBHOOK_ALLOW_NETWORKS: e2eBuild ? "127.0.0.0/8" : "",
  };
}

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  forbidOnly: true,
  // CI machines here run at up to half their usual speed: one retry there keeps a flow cut short
  // by a slow machine from failing the run, and the report still names it "flaky". Locally a
  // failure is a failure.
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  // A test is a whole user flow over several pages: 30 s was cut short on a busy 2-core machine,
  // and 60 s on a CI machine running at half its usual speed (single sign-on's four sign-ins with
  // axe). Every wait is on a condition (10 s each), so a failure still ends at its first miss.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  globalSetup: "./e2e/global-setup.ts",
  globalTeardown: "./e2e/global-teardown.ts",
  use: {
    ...devices["Desktop Chrome"],
    baseURL: appURL,
    trace: e2eTrace,
    // Charts skip their entry animation (as for a reader who asks for less motion): the suite is
    // CPU-bound on two cores, and no test reads an animation frame.
    reducedMotion: "reduce",
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    { name: "app", testIgnore: [/first-run\.spec\.ts/, /e2e\/exclusive\//], ...appSpecs },
    ...exclusiveProjects,
    { name: "first-run", testMatch: /first-run\.spec\.ts/, use: { baseURL: freshURL } },
  ],
  webServer: [
    {
      command: `next start -p ${appPort}`,
      url: `${appURL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: serverEnv(process.env.SEED_E2E_DATA_DIR, appURL, process.env.SEED_E2E_APP_DATABASE_URL),
    },
    {
      command: `next start -p ${productionPort}`,
      url: `${productionURL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: serverEnv(
        process.env.SEED_E2E_PRODUCTION_DATA_DIR,
        productionURL,
        process.env.SEED_E2E_PRODUCTION_DATABASE_URL,
        false,
      ),
    },
  ],
});
