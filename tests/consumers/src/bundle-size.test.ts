import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConsumerApp,
  catalogVersions,
  createConsumerApp,
  workspaceResolutions,
} from "./consumer-app";

// From /work/shared/PERFORMANCE.md: what @seed/charts may add over Recharts itself, gzip bytes.
const lineChartOverheadBudget = 6_000;
const allChartsOverheadBudget = 10_000;
// ScatterChart over Recharts' own scatter chart: as LineChart over Recharts' line chart.
const scatterChartOverheadBudget = 6_000;
// ComboChart over Recharts' own composed chart of bars and a line on two axes: LineChart's budget
// (the same cartesian base: legend, tooltip, keyboard, data table, formats) and 500 B for what a
// combo adds to it (bars and lines in one plot, the second axis scaled and written as its series).
const comboChartOverheadBudget = 6_500;
// TableChart draws no SVG: what it may add over React alone (sorting, paging, formats, states).
const tableChartOverheadBudget = 4_000;
// CalendarHeatmap draws plain SVG in React, no Recharts: what it may add over React alone (frame,
// legend, keyboard, tooltip, data table, days, bins and layout); measured 8,332 B, ~2% headroom.
const calendarHeatmapOverheadBudget = 8_500;
// Class names only pie code writes (Recharts' Pie, our PieChart's centre label): pie code was bundled.
const pieOnlyMarkers = ["recharts-pie-sector", "seed-chart-center-label"];

// Names of @seed/ui icons that ui-one-icon.tsx does not import.
const unusedIconMarkers = ["shopping-cart", "heart-handshake", "message-square-reply"];

interface BundleSize {
  minified: number;
  gzip: number;
  code: string;
  /** Minified bytes per package that contributed to the bundle. */
  byPackage: Record<string, number>;
}

function markersIn(code: string, markers: readonly string[]): string[] {
  return markers.filter((marker) => code.includes(marker));
}

/** Minified bytes each package adds (or saves) in one bundle over another, largest first. */
function packageDeltas(bundle: BundleSize, baseline: BundleSize): Record<string, number> {
  const names = new Set([...Object.keys(bundle.byPackage), ...Object.keys(baseline.byPackage)]);
  const deltas = [...names]
    .map((name) => [name, (bundle.byPackage[name] ?? 0) - (baseline.byPackage[name] ?? 0)] as const)
    .filter(([, delta]) => delta !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  return Object.fromEntries(deltas);
}

function packageOf(inputPath: string): string {
  const match = inputPath.match(/node_modules\/(@[^/]+\/[^/]+|[^/@][^/]*)\/(?!.*node_modules)/);
  return match?.[1] ?? "(app)";
}

describe("production bundle size with esbuild", () => {
  let app: ConsumerApp;
  const sizes: Record<string, BundleSize> = {};

  async function bundle(entry: string): Promise<BundleSize> {
    const result = await build({
      absWorkingDir: app.dir,
      entryPoints: [join(app.dir, "src", entry)],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      jsx: "automatic",
      define: { "process.env.NODE_ENV": '"production"' },
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const output = result.outputFiles[0];
    if (!output) throw new Error(`esbuild wrote nothing for ${entry}`);
    const byPackage: Record<string, number> = {};
    for (const out of Object.values(result.metafile.outputs)) {
      for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
        const name = packageOf(input);
        byPackage[name] = (byPackage[name] ?? 0) + bytesInOutput;
      }
    }
    return {
      minified: output.contents.length,
      gzip: gzipSync(output.contents, { level: 9 }).length,
      code: output.text,
      byPackage,
    };
  }

  beforeAll(async () => {
    app = await createConsumerApp({
      fixture: "bundle-size",
      dependencies: {
        react: catalogVersions.react,
        "react-dom": catalogVersions["react-dom"],
        recharts: catalogVersions.recharts,
        "react-is": catalogVersions["react-is"],
      },
      // Recharts' own dependencies as the workspace resolves them: the figures compare two
      // bundles of the same packages, and a release of one of them since must not move them.
      overrides: workspaceResolutions("recharts", catalogVersions.recharts),
    });
    for (const entry of [
      "recharts-line",
      "recharts-all",
      "seed-line",
      "seed-all",
      "react-only",
      "seed-table",
      "seed-calendar",
      "recharts-scatter",
      "seed-scatter",
      "recharts-combo",
      "seed-combo",
      "ui-one-icon",
    ]) {
      sizes[entry] = await bundle(`${entry}.tsx`);
    }
    const table = Object.entries(sizes).map(([entry, size]) => ({
      entry,
      "min (B)": size.minified,
      "gzip (B)": size.gzip,
      "@seed/charts (B min)": size.byPackage["@seed/charts"] ?? 0,
      "@seed/ui (B min)": size.byPackage["@seed/ui"] ?? 0,
    }));
    console.log("[consumers] bundle sizes (esbuild, minified, React + React DOM included):");
    console.table(table);
    for (const [seed, baseline] of [
      ["seed-line", "recharts-line"],
      ["seed-all", "recharts-all"],
      ["seed-scatter", "recharts-scatter"],
      ["seed-combo", "recharts-combo"],
    ] as const) {
      console.log(`[consumers] ${seed} minus ${baseline}, minified bytes by package:`);
      console.table(packageDeltas(size(seed), size(baseline)));
    }
  });

  afterAll(() => app?.remove());

  function describeDeltas(entry: string, baseline: string): string {
    const deltas = Object.entries(packageDeltas(size(entry), size(baseline)));
    return `minified bytes over ${baseline} by package: ${deltas.map(([name, bytes]) => `${name} ${bytes > 0 ? "+" : ""}${bytes}`).join(", ")}`;
  }

  function size(entry: string): BundleSize {
    const found = sizes[entry];
    if (!found) throw new Error(`${entry} was not bundled`);
    return found;
  }

  it(`LineChart alone adds at most ${lineChartOverheadBudget} B gzip over Recharts`, () => {
    const overhead = size("seed-line").gzip - size("recharts-line").gzip;
    console.log(
      `[consumers] LineChart overhead: ${overhead} B gzip (budget ${lineChartOverheadBudget})`,
    );

    expect(overhead, describeDeltas("seed-line", "recharts-line")).toBeLessThanOrEqual(
      lineChartOverheadBudget,
    );
  });

  it(`all four charts add at most ${allChartsOverheadBudget} B gzip over Recharts`, () => {
    const overhead = size("seed-all").gzip - size("recharts-all").gzip;
    console.log(
      `[consumers] four charts overhead: ${overhead} B gzip (budget ${allChartsOverheadBudget})`,
    );

    expect(overhead, describeDeltas("seed-all", "recharts-all")).toBeLessThanOrEqual(
      allChartsOverheadBudget,
    );
  });

  it(`ScatterChart alone adds at most ${scatterChartOverheadBudget} B gzip over Recharts' scatter chart`, () => {
    const overhead = size("seed-scatter").gzip - size("recharts-scatter").gzip;
    console.log(
      `[consumers] ScatterChart overhead: ${overhead} B gzip (budget ${scatterChartOverheadBudget})`,
    );
    expect(markersIn(size("seed-scatter").code, pieOnlyMarkers)).toEqual([]);
    expect(overhead, describeDeltas("seed-scatter", "recharts-scatter")).toBeLessThanOrEqual(
      scatterChartOverheadBudget,
    );
  });

  it(`ComboChart alone adds at most ${comboChartOverheadBudget} B gzip over Recharts' composed chart`, () => {
    const overhead = size("seed-combo").gzip - size("recharts-combo").gzip;
    console.log(
      `[consumers] ComboChart overhead: ${overhead} B gzip (budget ${comboChartOverheadBudget})`,
    );
    expect(markersIn(size("seed-combo").code, pieOnlyMarkers)).toEqual([]);
    expect(overhead, describeDeltas("seed-combo", "recharts-combo")).toBeLessThanOrEqual(
      comboChartOverheadBudget,
    );
  });

  it(`TableChart alone adds at most ${tableChartOverheadBudget} B gzip over React, and no Recharts`, () => {
    const overhead = size("seed-table").gzip - size("react-only").gzip;
    console.log(
      `[consumers] TableChart overhead: ${overhead} B gzip (budget ${tableChartOverheadBudget})`,
    );
    expect(size("seed-table").byPackage.recharts ?? 0).toBe(0);
    expect(overhead, describeDeltas("seed-table", "react-only")).toBeLessThanOrEqual(
      tableChartOverheadBudget,
    );
  });
  it(`CalendarHeatmap alone adds at most ${calendarHeatmapOverheadBudget} B gzip over React, and no Recharts`, () => {
    const overhead = size("seed-calendar").gzip - size("react-only").gzip;
    console.log(
      `[consumers] CalendarHeatmap overhead: ${overhead} B gzip (budget ${calendarHeatmapOverheadBudget})`,
    );
    expect(size("seed-calendar").byPackage.recharts ?? 0).toBe(0);
    expect(markersIn(size("seed-calendar").code, pieOnlyMarkers)).toEqual([]);
    expect(overhead, describeDeltas("seed-calendar", "react-only")).toBeLessThanOrEqual(
      calendarHeatmapOverheadBudget,
    );
  });
  // Markers are compared as lists, so a failure never prints a whole minified bundle.
  it("bundles only the icons an app imports from @seed/ui", () => {
    const code = size("ui-one-icon").code;

    expect(markersIn(code, ["circle-x"])).toEqual(["circle-x"]);
    expect(markersIn(code, unusedIconMarkers)).toEqual([]);
  });

  it("leaves pie code out of a bundle that imports only LineChart", () => {
    expect(markersIn(size("seed-all").code, pieOnlyMarkers)).toEqual(pieOnlyMarkers);
    expect(markersIn(size("recharts-line").code, pieOnlyMarkers)).toEqual([]);

    expect(markersIn(size("seed-line").code, pieOnlyMarkers)).toEqual([]);
  });
});
