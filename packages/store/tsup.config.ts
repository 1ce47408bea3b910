import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    csv: "src/repo/datasets/csv.ts",
    // Not exported: built for the crash tests' child process (test/data-file-child.mjs).
    "data-file": "src/db/data-file.ts",
  },
  format: ["esm"],
  dts: true,
  clean: true,
  target: "node20",
  platform: "node",
  sourcemap: true,
  // Drivers stay external so Next.js can list better-sqlite3 in serverExternalPackages.
  external: [
    "@seed/model",
    "better-sqlite3",
    "pg",
    "kysely",
    "zod",
    "papaparse",
    "pg-copy-streams",
  ],
});
