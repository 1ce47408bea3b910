import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import {
  findMissingExportTargets,
  packPublicPackages,
  removeDir,
} from "../scripts/pack-packages.mjs";
import type { PackedPackage } from "./packed-packages";

declare module "vitest" {
  export interface ProvidedContext {
    packedPackages: PackedPackage[];
  }
}

// Packs once per run into the OS temp folder, never inside the repo.
export default function setup(project: TestProject) {
  const outDir = mkdtempSync(join(tmpdir(), "seed-tarballs-"));
  const packed = packPublicPackages({ outDir, log: (line) => console.log(`[consumers] ${line}`) });
  const missing = packed.flatMap(findMissingExportTargets);
  if (missing.length > 0) {
    console.warn(
      `[consumers] build the packages first (turbo does: ^build):\n${missing.join("\n")}`,
    );
  }
  project.provide("packedPackages", packed);
  return () => {
    if (!process.env.SEED_KEEP_CONSUMERS) removeDir(outDir);
  };
}
