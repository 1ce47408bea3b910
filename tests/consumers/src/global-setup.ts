import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { packPublicPackages, removeDir } from "../scripts/pack-packages.mjs";
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
  project.provide("packedPackages", packed);
  return () => {
    if (!process.env.SEED_KEEP_CONSUMERS) removeDir(outDir);
  };
}
