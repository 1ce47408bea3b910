import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Production build of the benchmark page against the built package (run `pnpm build` first).
export default defineConfig({
  root: here("./page"),
  plugins: [react()],
  resolve: {
    alias: {
      "@seed/charts/styles.css": here("../dist/styles.css"),
      "@seed/charts": here("../dist/index.js"),
    },
  },
  build: { outDir: here("./.dist"), emptyOutDir: true, reportCompressedSize: false },
  logLevel: "warn",
});
