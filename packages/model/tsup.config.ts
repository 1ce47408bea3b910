import { defineConfig } from "tsup";

export default defineConfig({
  // file: dashboard files as YAML, kept out of the main entry (and so out of browser bundles).
  entry: { index: "src/index.ts", file: "src/dashboard/file-text.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  target: "es2022",
  platform: "neutral",
  sourcemap: true,
  external: ["zod", "yaml"],
});
