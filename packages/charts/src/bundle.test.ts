// @vitest-environment node
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Rollup } from "vite";
import { describe, expect, it } from "vitest";

const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));

async function bundle(source: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "seed-charts-bundle-"));
  try {
    const entry = join(dir, "entry.js");
    await writeFile(entry, source);
    const output = (await build({
      configFile: false,
      logLevel: "silent",
      resolve: { alias: { "@seed/charts": dist } },
      build: {
        write: false,
        minify: false,
        lib: { entry, formats: ["es"], fileName: "out" },
        rollupOptions: { external: [/^react/, /^recharts/, /^@seed\/ui/] },
      },
    })) as Rollup.RollupOutput[];
    return output
      .flatMap((o) => o.output)
      .map((chunk) => (chunk.type === "chunk" ? chunk.code : ""))
      .join("\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("published bundle (needs `pnpm build` first)", () => {
  it("leaves pie code out of a LineChart-only bundle", { timeout: 60_000 }, async () => {
    const lineOnly = await bundle(
      'import { LineChart } from "@seed/charts"; console.log(LineChart);',
    );
    const everything = await bundle(
      'import { LineChart, PieChart } from "@seed/charts"; console.log(LineChart, PieChart);',
    );

    expect(lineOnly).toContain("LineChart");
    expect(lineOnly).not.toContain("preparePieFrame");
    expect(lineOnly).not.toContain("Pie chart");
    expect(everything).toContain("preparePieFrame");
  });

  it("keeps the use client directive first in every entry", async () => {
    const { readFile } = await import("node:fs/promises");
    for (const name of ["index.js", "line-chart.js", "pie-chart.js", "index.cjs"]) {
      const code = await readFile(
        fileURLToPath(new URL(`../dist/${name}`, import.meta.url)),
        "utf8",
      );
      expect(code.startsWith('"use client";')).toBe(true);
    }
  });

  it("leaves the data entry free of use client, so server components can call it", async () => {
    const { readFile } = await import("node:fs/promises");
    for (const name of ["data.js", "data.cjs"]) {
      const code = await readFile(
        fileURLToPath(new URL(`../dist/${name}`, import.meta.url)),
        "utf8",
      );
      expect(code).not.toContain('"use client"');
      expect(code).toContain("downsampleLttb");
    }
  });
});
