import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

// The published package is one file: built here into a folder outside the workspace (no
// node_modules to find), it runs with Node alone.

const here = path.dirname(new URL(import.meta.url).pathname);
let bin = "";

beforeAll(() => {
  const outDir = mkdtempSync(path.join(tmpdir(), "seed-cli-build-"));
  const built = spawnSync("pnpm", ["exec", "tsup", "--out-dir", outDir, "--silent"], {
    cwd: path.join(here, ".."),
    encoding: "utf8",
  });
  expect(built.status, built.stderr).toBe(0);
  bin = path.join(outDir, "cli.js");
}, 120_000);

function seed(args: string[], env: Record<string, string> = {}) {
  const cwd = mkdtempSync(path.join(tmpdir(), "seed-cli-run-"));
  writeFileSync(
    path.join(cwd, "good.yaml"),
    "format: seed.dashboard/v1\nslug: good\ntitle: Good\n",
  );
  writeFileSync(path.join(cwd, "bad.yaml"), "format: seed.dashboard/v1\nslug: good\ntitle: 4\n");
  const { PATH, HOME } = process.env;
  return spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: PATH ?? "", HOME: HOME ?? "", ...env },
  });
}

describe("the built seed binary", () => {
  it("validates files with Node alone and exits 0, 1 or 2 as its help says", () => {
    const help = seed(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("seed push <file...>");
    const good = seed(["validate", "good.yaml"]);
    expect([good.status, good.stdout.trim(), good.stderr]).toEqual([0, "good.yaml: ok (good)", ""]);
    const bad = seed(["validate", "good.yaml", "bad.yaml"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^bad\.yaml:3: title: /m);
    const noServer = seed(["pull"]);
    expect(noServer.status).toBe(2);
    expect(noServer.stderr).toContain("Set SEED_URL and SEED_TOKEN");
    // Port 9 is one fetch refuses to use, so the answer is the same on every machine.
    const unreachable = seed(["pull"], { SEED_URL: "http://127.0.0.1:9", SEED_TOKEN: "x" });
    expect([unreachable.status, unreachable.stderr.trim()]).toEqual([
      2,
      "seed: cannot reach http://127.0.0.1:9 (bad port); check SEED_URL.",
    ]);
    const unknown = seed(["publish", "good.yaml"], {
      SEED_URL: "http://127.0.0.1:9",
      SEED_TOKEN: "x",
    });
    expect([unknown.status, unknown.stderr.split("\n")[0]]).toEqual([
      2,
      'Unknown command "publish".',
    ]);
  });
});
