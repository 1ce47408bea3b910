import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPackingProblems, removeDir } from "../scripts/pack-packages.mjs";
import { run, runOk } from "./consumer-app";
import { packedPackage } from "./packed-packages";

// @seed/cli as a user gets it: its tarball installed with npm into a folder outside the
// workspace, with no other package beside it, and its `seed` binary run from there.

describe("the packed @seed/cli", () => {
  let dir = "";

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "seed-consumers-cli-"));
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "seed-cli-consumer", version: "0.0.0", private: true }),
    );
    await runOk(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", packedPackage("@seed/cli").tarball],
      { cwd: dir },
    );
  });

  afterAll(() => {
    if (dir && !process.env.SEED_KEEP_CONSUMERS) removeDir(dir);
  });

  it("is one self-contained file with a bin, a README and no dependencies to install", () => {
    const packed = packedPackage("@seed/cli");

    expect(findPackingProblems(packed)).toEqual([]);
    expect(packed.manifest.bin).toEqual({ seed: "./dist/cli.js" });
    expect(packed.files).toContain("dist/cli.js");
    expect(packed.manifest.dependencies ?? {}).toEqual({});
    expect(packed.manifest.private).toBeUndefined();
  });

  it("installs offline and validates dashboard files with the installed seed binary", async () => {
    writeFileSync(
      join(dir, "sales.yaml"),
      "format: seed.dashboard/v1\nslug: sales\ntitle: Sales\ntiles: []\n",
    );
    writeFileSync(join(dir, "broken.yaml"), "format: seed.dashboard/v2\nslug: broken\n");
    const seed = join(dir, "node_modules/.bin/seed");

    const good = await runOk(seed, ["validate", "sales.yaml"], { cwd: dir });
    expect(good.stdout.trim()).toBe("sales.yaml: ok (sales)");
    const bad = await run(seed, ["validate", "sales.yaml", "broken.yaml"], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^broken\.yaml:1: format: /m);
  });
});
