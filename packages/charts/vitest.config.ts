import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./vitest.setup.ts"],
    // chart renders are slow on a busy 2-core machine; keep slack so tests fail only for real
    testTimeout: 20_000,
  },
});
