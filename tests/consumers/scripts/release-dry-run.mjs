#!/usr/bin/env node
// @ts-check
// `pnpm release` without publishing: packs each public package (already built) and checks the tarballs.
// Usage: node tests/consumers/scripts/release-dry-run.mjs [--out <dir>]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  findMissingExportTargets,
  findPackingProblems,
  packPublicPackages,
} from "./pack-packages.mjs";

const { values } = parseArgs({ options: { out: { type: "string" } } });
const outDir = values.out ? resolve(values.out) : mkdtempSync(join(tmpdir(), "seed-release-"));

const packed = packPublicPackages({ outDir, log: (line) => console.log(line) });
const problems = packed.flatMap((pkg) => [
  ...findPackingProblems(pkg),
  ...findMissingExportTargets(pkg),
]);

for (const pkg of packed) {
  const internal = Object.entries(pkg.manifest.dependencies ?? {})
    .filter(([dep]) => packed.some((other) => other.name === dep))
    .map(([dep, range]) => `${dep}@${range}`);
  console.log(
    `${pkg.name}@${pkg.version}: ${pkg.tarball} (${pkg.files.length} files${internal.length ? `; depends on ${internal.join(", ")}` : ""})`,
  );
}
if (problems.length > 0) {
  console.error(`release dry run found ${problems.length} problem(s):\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`release dry run: ${packed.length} tarball(s) in ${outDir}, nothing published`);
