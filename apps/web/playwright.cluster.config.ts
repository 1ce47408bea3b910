import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions, e2eTrace } from "./e2e/support";

// The scale-out test: PostgreSQL, two `next start` instances and nginx (deploy/nginx.conf), all
// started by the spec itself (scripts/cluster.mjs). One worker: the tests share that cluster
// and several of them kill or restart its parts.
export default defineConfig({
  testDir: "./e2e-cluster",
  fullyParallel: false,
  forbidOnly: true,
  retries: process.env.CI ? 1 : 0, // as in playwright.config.ts
  workers: 1,
  reporter: "list",
  timeout: 120_000,
  expect: { timeout: 10_000 },
  use: {
    ...devices["Desktop Chrome"],
    trace: e2eTrace,
    launchOptions: chromiumLaunchOptions,
  },
});
