import path from "node:path";
import { fileURLToPath } from "node:url";
import { storybookTest } from "@storybook/addon-vitest/vitest-plugin";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { chromiumLaunchOptions } from "../../scripts/chromium.mjs";

const dirname = path.dirname(fileURLToPath(import.meta.url));
const configDir = path.join(dirname, ".storybook");

// Debian's Chromium (scripts/chromium.mjs): Playwright must never try to download its own browser.
const chromium = playwright({ launchOptions: chromiumLaunchOptions });

// A fresh object per project: Vitest writes the instance name into it.
function browserConfig() {
  return {
    enabled: true,
    headless: true,
    // Failures are reported with a link to the story; no screenshot files in the source tree.
    screenshotFailures: false,
    provider: chromium,
    instances: [{ browser: "chromium" as const }],
  };
}

// Every story runs twice, once per theme, so axe checks contrast in light and in dark.
export default defineConfig({
  test: {
    // Stories wait on conditions, never on time; CI runs them beside the web build on 2 cores,
    // where a 60-series story once took longer than Vitest's 15 s browser default.
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        plugins: [storybookTest({ configDir, initialGlobals: { theme: "light" } })],
        test: { name: "stories-light", browser: browserConfig() },
      },
      {
        extends: true,
        plugins: [
          storybookTest({
            configDir,
            initialGlobals: { theme: "dark" },
            // Stories tagged "light-only" opt out of the dark run (none in stories/ui do).
            tags: { exclude: ["light-only"] },
          }),
        ],
        test: { name: "stories-dark", browser: browserConfig() },
      },
    ],
  },
});
