import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { findPostgresBinDir } from "./postgres-global-setup.js";

function fakePostgresRoot(versions: Record<string, string[]>): string {
  const root = mkdtempSync(path.join(tmpdir(), "seed-fake-pg-"));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  for (const [version, binaries] of Object.entries(versions)) {
    mkdirSync(path.join(root, version, "bin"), { recursive: true });
    for (const binary of binaries) writeFileSync(path.join(root, version, "bin", binary), "");
  }
  return root;
}

describe("findPostgresBinDir", () => {
  it("picks the newest installed version that has initdb and pg_ctl", () => {
    const root = fakePostgresRoot({
      "13": ["initdb", "pg_ctl"],
      "15": ["initdb", "pg_ctl"],
      "16": ["psql"],
    });

    expect(findPostgresBinDir(root)).toBe(path.join(root, "15", "bin"));
  });

  it("fails loudly with the install command when no server binaries exist", () => {
    const root = fakePostgresRoot({ "15": ["psql"] });

    expect(() => findPostgresBinDir(root)).toThrow(/bootstrap\.sh --for-tests/);
    expect(() => findPostgresBinDir(path.join(root, "missing"))).toThrow(/were not found/);
  });
});
