import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    benchmark: { include: ["bench/**/*.bench.ts"] },
    globalSetup: ["test/postgres-global-setup.ts"],
    // CI runs this suite beside the browser suite on two cores, where a test takes three to four
    // times what it takes alone: a property test of 150 imports on two databases (25 s alone) was
    // cut at 30 s there. A test that hangs still fails, at two minutes.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
