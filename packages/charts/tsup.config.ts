import { copyFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { defineConfig, type Options } from "tsup";

// Both builds write into dist, so neither cleans it: the build script empties it first.
const shared = {
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: false,
  target: "es2022",
  external: ["react", "react-dom", "recharts", "@seed/ui"],
} satisfies Options;

// Props passed only between our own components, never public or handed to React, the DOM or
// Recharts: esbuild shortens them in dist (consumers' minifiers keep property names whole).
const internalProps =
  /^(indexFullFormat|indexTickFormat|valueTickFormat|valueFormat|tooltipItems|describeDrawn|visibleColumns|renderSeries|reportChartClicks|valueAxisMin|bandIndex|legendPosition|onPlotKeyDown|liveRegion|activeRow|rowOf|resetKey|chartName|highlighted|setHighlighted|resting|report|noun|eager|chartProps|describe|caption|cells|csv|onToggle|onHighlight|status|Root|frame|categories|emptyReason|onSeriesClick|clickable|sortByIndex|indexKind|summary|visible|drawn|draw|__row|ranges|finite|tooLarge|gapFree|picked|xs|notes|place|layer|stacked|valueAxes)$/;

export default defineConfig([
  {
    ...shared,
    entry: {
      index: "src/index.ts",
      "line-chart": "src/line-chart/index.ts",
      "area-chart": "src/area-chart/index.ts",
      "bar-chart": "src/bar-chart/index.ts",
      "pie-chart": "src/pie-chart/index.ts",
      "scatter-chart": "src/scatter-chart/index.ts",
      "combo-chart": "src/combo-chart/index.ts",
      zoom: "src/zoom/index.ts",
      annotations: "src/annotations/index.ts",
    },
    // shared chunks, so a LineChart-only import never loads pie code
    splitting: true,
    // Rollup's tree-shaking of the chunks: LineChart alone was 117 B gzip smaller in a consumer
    treeshake: true,
    esbuildOptions(options) {
      options.mangleProps = internalProps;
      // folds constants across a chunk's modules, which consumers' minifiers leave unfolded
      options.minifySyntax = true;
    },
    async onSuccess() {
      await mkdir("dist", { recursive: true });
      await copyFile("src/styles.css", "dist/styles.css");
      // "use client" goes first in every chart file here, not as a banner: Rollup's tree-shaking
      // drops a banner directive (with a warning per chunk) and CJS puts "use strict" before it
      for (const file of await readdir("dist")) {
        if (!/\.c?js$/.test(file) || /^(data|export|svg)\./.test(file)) continue;
        const code = await readFile(`dist/${file}`, "utf8");
        if (!code.startsWith('"use client"')) {
          await writeFile(`dist/${file}`, `"use client";\n${code.replace('"use client";', "")}`);
        }
      }
    },
  },
  // TableChart draws no SVG and shares only a few helpers with the other charts: bundled whole,
  // so that its entry adds no chunk boundary to theirs (one split cost LineChart 241 B gzip).
  // CalendarHeatmap likewise (plain SVG, no Recharts): as a split entry it moved the frame and
  // table into a chunk of their own, 144 B gzip on LineChart. The root index still exports it.
  {
    ...shared,
    entry: {
      "table-chart": "src/table-chart/index.ts",
      "calendar-heatmap": "src/calendar-heatmap/index.ts",
    },
    splitting: false,
    esbuildOptions(options) {
      options.mangleProps = internalProps;
      options.minifySyntax = true;
    },
    async onSuccess() {
      for (const file of [
        "dist/table-chart.js",
        "dist/table-chart.cjs",
        "dist/calendar-heatmap.js",
        "dist/calendar-heatmap.cjs",
      ]) {
        const code = await readFile(file, "utf8");
        if (!code.startsWith('"use client"')) {
          await writeFile(file, `"use client";\n${code.replace('"use client";', "")}`);
        }
      }
    },
  },
  // Pure data functions carry no "use client", so server components can call them; export has no
  // React; svg draws a chart as an SVG string on the server (no DOM), for pages and images.
  {
    ...shared,
    entry: { data: "src/data/index.ts", export: "src/export/index.ts", svg: "src/svg/index.ts" },
    // each self-contained: a chunk shared with data would get the client files' "use client"
    splitting: false,
  },
]);
