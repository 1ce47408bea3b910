import { copyFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "line-chart": "src/line-chart/index.ts",
    "area-chart": "src/area-chart/index.ts",
    "bar-chart": "src/bar-chart/index.ts",
    "pie-chart": "src/pie-chart/index.ts",
    data: "src/data/index.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  // shared chunks, so a LineChart-only import never loads pie code
  splitting: true,
  clean: true,
  sourcemap: false,
  target: "es2022",
  external: ["react", "react-dom", "recharts", "@seed/ui"],
  banner: { js: '"use client";' },
  async onSuccess() {
    await mkdir("dist", { recursive: true });
    await copyFile("src/styles.css", "dist/styles.css");
    // esbuild puts "use strict" first in CJS output, which demotes the banner; put the directive first
    for (const file of await readdir("dist")) {
      if (!file.endsWith(".cjs")) continue;
      const code = await readFile(`dist/${file}`, "utf8");
      if (!code.startsWith('"use client"')) {
        await writeFile(`dist/${file}`, `"use client";\n${code.replace('"use client";', "")}`);
      }
    }
  },
});
