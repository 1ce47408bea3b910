import { defineConfig } from "vitest/config";

// Each file installs and builds a real app outside the workspace: one at a time, with long timeouts.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    globalSetup: ["./src/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
