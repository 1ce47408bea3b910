// @ts-check
// Packs the workspace's public packages the way `pnpm publish` would and checks each tarball.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(fileURLToPath(new URL("../../..", import.meta.url)));

/** @typedef {{ name: string; version: string; dir: string }} WorkspacePackage */
/** @typedef {{ name: string; version: string; tarball: string; files: string[]; manifest: Record<string, any> }} PackedPackage */

/** Non-private packages under packages/: the ones `changeset publish` would publish. */
export function listPublicPackages(root = repoRoot) {
  const packagesDir = join(root, "packages");
  /** @type {WorkspacePackage[]} */
  const found = [];
  for (const entry of readdirSync(packagesDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(packagesDir, entry.name);
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    } catch {
      continue;
    }
    if (manifest.private) continue;
    found.push({ name: manifest.name, version: manifest.version, dir });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Reads one file out of a .tgz with the system tar (GNU tar on Debian).
 * @param {string} tarball
 * @param {string} pathInTarball
 * @returns {string}
 */
export function readFromTarball(tarball, pathInTarball) {
  return execFileSync("tar", ["-xzOf", tarball, `package/${pathInTarball}`], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * Every file path in a .tgz, relative to its package/ folder.
 * @param {string} tarball
 * @returns {string[]}
 */
export function listTarball(tarball) {
  return execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((line) => line.replace(/^package\//, ""));
}

const dependencyFields = [
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
];

/**
 * Problems a consumer would hit from a packed manifest: protocol ranges npm cannot resolve, no README.
 * @param {PackedPackage} packed
 * @returns {string[]}
 */
export function findPackingProblems(packed) {
  /** @type {string[]} */
  const problems = [];
  for (const field of dependencyFields) {
    for (const [dep, range] of Object.entries(packed.manifest[field] ?? {})) {
      if (/^(workspace|catalog|link|file):/.test(String(range))) {
        problems.push(`${packed.name}: ${field}.${dep} is "${range}" in the packed package.json`);
      }
    }
  }
  if (!packed.files.includes("README.md")) problems.push(`${packed.name}: README.md is not packed`);
  return problems;
}

/**
 * Runs `pnpm pack` (which rewrites workspace: and catalog: ranges like `pnpm publish`) for every
 * public package into outDir; packages must be built first.
 * @param {{ outDir?: string; root?: string; log?: (line: string) => void }} [options]
 * @returns {PackedPackage[]}
 */
export function packPublicPackages(options = {}) {
  const root = options.root ?? repoRoot;
  const outDir = options.outDir ?? mkdtempSync(join(tmpdir(), "seed-tarballs-"));
  const log = options.log ?? (() => {});
  mkdirSync(outDir, { recursive: true });
  return listPublicPackages(root).map((pkg) => {
    log(`pnpm pack ${pkg.name}@${pkg.version} -> ${outDir}`);
    const output = execFileSync("pnpm", ["pack", "--json", "--pack-destination", outDir], {
      cwd: pkg.dir,
      encoding: "utf8",
      env: withoutPnpmScriptEnv(process.env),
    });
    const summary = JSON.parse(output.slice(output.indexOf("{")));
    const tarball = resolve(pkg.dir, summary.filename);
    const files = listTarball(tarball);
    const manifest = JSON.parse(readFromTarball(tarball, "package.json"));
    return { name: pkg.name, version: pkg.version, tarball, files, manifest };
  });
}

/**
 * The parent's env minus what `pnpm run` injects, so child pnpm/npm calls act as if run by hand.
 * @param {NodeJS.ProcessEnv} env
 */
export function withoutPnpmScriptEnv(env) {
  /** @type {Record<string, string>} */
  const clean = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (/^(npm_(config|package|lifecycle)_|PNPM_SCRIPT_SRC_DIR$|INIT_CWD$)/i.test(key)) continue;
    clean[key] = value;
  }
  return clean;
}

/** @param {string} dir */
export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Files named by main/module/types/exports/bin that the tarball does not contain.
 * @param {PackedPackage} packed
 * @returns {string[]}
 */
export function findMissingExportTargets(packed) {
  /** @type {string[]} */
  const targets = [];
  /** @param {unknown} value */
  const collect = (value) => {
    if (typeof value === "string") targets.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(collect);
  };
  collect(packed.manifest.exports);
  for (const field of ["main", "module", "types", "typings", "bin"])
    collect(packed.manifest[field]);
  if (targets.length === 0)
    return [`${packed.name}: package.json has no exports, main, types or bin`];
  return targets
    .filter((target) => !target.includes("*"))
    .map((target) => target.replace(/^\.\//, ""))
    .filter((target) => !packed.files.includes(target))
    .map((target) => `${packed.name}: "${target}" is named in package.json but not in the tarball`);
}
