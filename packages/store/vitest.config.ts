import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    benchmark: { include: ["bench/**/*.bench.ts"] },
    globalSetup: ["test/postgres-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
