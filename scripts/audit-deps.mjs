#!/usr/bin/env node
// Fails on a high or critical advisory in a production dependency. Tries the registry's audit
// first; where that endpoint cannot be reached, checks against security/advisories.json.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Every (name, version) in the `pnpm list --json` trees; workspace links are skipped. */
export function collectPackages(trees) {
  const found = new Map();
  const visit = (deps) => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      if (typeof node.version === "string" && semver.valid(node.version)) {
        const versions = found.get(name) ?? new Set();
        versions.add(node.version);
        found.set(name, versions);
      }
      visit(node.dependencies);
    }
  };
  for (const tree of trees) visit(tree.dependencies);
  return found;
}

/** The advisories whose vulnerable range holds an installed version. */
export function matchAdvisories(packages, advisories) {
  const matches = [];
  for (const advisory of advisories) {
    if (advisory.severity !== "high" && advisory.severity !== "critical") continue;
    for (const version of packages.get(advisory.package) ?? []) {
      if (semver.satisfies(version, advisory.vulnerable)) matches.push({ ...advisory, version });
    }
  }
  return matches;
}

function registryAudit() {
  const result = spawnSync("pnpm", ["audit", "--prod", "--audit-level", "high", "--json"], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
  });
  try {
    const report = JSON.parse(result.stdout);
    if (report.error)
      return { reachable: false, reason: report.error.message ?? report.error.code };
    const counts = report.metadata?.vulnerabilities ?? {};
    return { reachable: true, failing: (counts.high ?? 0) + (counts.critical ?? 0) };
  } catch {
    return { reachable: false, reason: (result.stderr || "no answer").trim().slice(0, 300) };
  }
}

function main() {
  const online = process.env.SEED_AUDIT_OFFLINE === "1" ? null : registryAudit();
  if (online?.reachable) {
    console.log(`audit-deps: registry audit: ${online.failing} high or critical advisories`);
    if (online.failing > 0) process.exitCode = 1;
  } else if (online) {
    console.log(`audit-deps: registry audit unavailable (${online.reason}); vendored list only`);
  }
  const listed = execFileSync(
    "pnpm",
    ["list", "--prod", "--json", "--recursive", "--depth", "Infinity"],
    { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const packages = collectPackages(JSON.parse(listed));
  const { advisories } = JSON.parse(
    readFileSync(path.join(root, "security", "advisories.json"), "utf8"),
  );
  const matches = matchAdvisories(packages, advisories);
  for (const match of matches) {
    console.error(
      `audit-deps: ${match.package}@${match.version} ${match.severity} ${match.id}: ${match.title}`,
    );
  }
  console.log(
    `audit-deps: ${packages.size} production packages checked against ${advisories.length} vendored advisories, ${matches.length} found`,
  );
  if (matches.length > 0) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
