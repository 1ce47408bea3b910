import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./vitest.setup.ts"],
    // a fresh process per file: happy-dom renders keep ~1 MB each for a worker's life, and each
    // never-crash file (one chart type and option, 200 renders; 500 a fuzz round) must start from an empty heap
    pool: "forks",
    isolate: true,
    // chart renders are slow on a busy 2-core machine; keep slack so tests fail only for real
    testTimeout: 20_000,
  },
});
