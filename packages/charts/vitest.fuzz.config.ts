import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/** One round of `pnpm fuzz` (scripts/fuzz.mjs): only the never-crash properties. */
export default defineConfig({
  ...base,
  // mergeConfig would append to the base `include`, running every test
  test: { ...base.test, include: ["src/never-crash/*.test.tsx"] },
});
