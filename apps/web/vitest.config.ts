import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Unit tests of the web app's pure modules (e.g. features/*/draft.ts); browser tests are Playwright's.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  // Property tests run a thousand cases each; a busy CI machine needs more than the 5 s default.
  test: { include: ["src/**/*.test.ts"], testTimeout: 60_000 },
});
