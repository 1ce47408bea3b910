import { defineConfig } from "vitest/config";

export default defineConfig({
  // Property tests run thousands of cases; a busy CI machine needs more than the 5 s default.
  test: { include: ["test/**/*.test.ts"], testTimeout: 60_000 },
});
