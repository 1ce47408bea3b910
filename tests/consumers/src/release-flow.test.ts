import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  listPublicPackages,
  readFromTarball,
  removeDir,
  repoRoot,
} from "../scripts/pack-packages.mjs";
import { run } from "./consumer-app";

function readJson(path: string) {
  return JSON.parse(readFileSync(path, "utf8"));
}

describe("release flow", () => {
  it("release dry run packs every public package with real versions for internal dependencies", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "seed-release-"));
    try {
      const result = await run("node", ["scripts/release-dry-run.mjs", "--out", outDir], {
        cwd: join(repoRoot, "tests/consumers"),
      });

      expect(result.code, result.output).toBe(0);
      expect(result.stdout).toContain("nothing published");
      const ui = readJson(join(repoRoot, "packages/ui/package.json"));
      const charts = readJson(join(repoRoot, "packages/charts/package.json"));
      const uiTarball = join(outDir, `seed-ui-${ui.version}.tgz`);
      const chartsTarball = join(outDir, `seed-charts-${charts.version}.tgz`);
      expect(existsSync(uiTarball)).toBe(true);
      expect(existsSync(chartsTarball)).toBe(true);
      const packedCharts = JSON.parse(readFromTarball(chartsTarball, "package.json"));
      expect(packedCharts.dependencies["@seed/ui"]).toBe(`^${ui.version}`);
      expect(JSON.stringify(packedCharts)).not.toMatch(/"(workspace|catalog):/);
    } finally {
      removeDir(outDir);
    }
  });

  it("version-packages bumps a changed package, its dependents, and writes their changelogs", async () => {
    // A copy of the workspace's manifests and changeset config, so the real repo is never versioned.
    const scratch = mkdtempSync(join(tmpdir(), "seed-changesets-"));
    try {
      for (const file of ["package.json", "pnpm-workspace.yaml", ".changeset/config.json"]) {
        mkdirSync(join(scratch, file, ".."), { recursive: true });
        cpSync(join(repoRoot, file), join(scratch, file));
      }
      const publicPackages = listPublicPackages();
      for (const pkg of publicPackages) {
        const relative = pkg.dir.slice(repoRoot.length + 1);
        mkdirSync(join(scratch, relative), { recursive: true });
        cpSync(join(pkg.dir, "package.json"), join(scratch, relative, "package.json"));
      }
      // The changelog generator is resolved from the scratch folder: lend it the workspace's tools.
      symlinkSync(join(repoRoot, "node_modules"), join(scratch, "node_modules"));
      writeFileSync(
        join(scratch, ".changeset/consumer-test-ui.md"),
        '---\n"@seed/ui": minor\n---\n\nAdd a crown icon size.\n',
      );
      const uiBefore = readJson(join(scratch, "packages/ui/package.json")).version as string;
      const chartsBefore = readJson(join(scratch, "packages/charts/package.json"))
        .version as string;

      const result = await run(join(repoRoot, "node_modules/.bin/changeset"), ["version"], {
        cwd: scratch,
      });

      expect(result.code, result.output).toBe(0);
      const [uiMajor, uiMinor] = uiBefore.split(".").map(Number);
      const uiAfter = `${uiMajor}.${(uiMinor ?? 0) + 1}.0`;
      expect(readJson(join(scratch, "packages/ui/package.json")).version).toBe(uiAfter);
      expect(readFileSync(join(scratch, "packages/ui/CHANGELOG.md"), "utf8")).toMatch(
        new RegExp(`## ${uiAfter.replaceAll(".", "\\.")}[\\s\\S]*Add a crown icon size\\.`),
      );
      const chartsAfter = readJson(join(scratch, "packages/charts/package.json"));
      expect(chartsAfter.version).not.toBe(chartsBefore);
      expect(readFileSync(join(scratch, "packages/charts/CHANGELOG.md"), "utf8")).toContain(
        `@seed/ui@${uiAfter}`,
      );
      expect(existsSync(join(scratch, ".changeset/consumer-test-ui.md"))).toBe(false);
    } finally {
      removeDir(scratch);
    }
  });
});
