import assert from "node:assert/strict";
import { test } from "node:test";
import { collectPackages, matchAdvisories } from "./audit-deps.mjs";

const advisories = [
  { id: "A", package: "next", vulnerable: ">=16.0.0 <16.0.7", severity: "critical", title: "t" },
  { id: "B", package: "pg", vulnerable: "<7.1.2", severity: "moderate", title: "t" },
];

function tree(dependencies) {
  return [{ name: "app", dependencies }];
}

test("a vulnerable version deep in the tree is found", () => {
  const packages = collectPackages(
    tree({ a: { version: "1.0.0", dependencies: { next: { version: "16.0.3" } } } }),
  );
  assert.deepEqual(
    matchAdvisories(packages, advisories).map((match) => [match.id, match.version]),
    [["A", "16.0.3"]],
  );
});

test("fixed versions, lower severities and workspace links pass", () => {
  const packages = collectPackages(
    tree({
      next: { version: "16.0.7" },
      pg: { version: "6.0.0" },
      "@seed/ui": { version: "link:../ui" },
    }),
  );
  assert.deepEqual(matchAdvisories(packages, advisories), []);
});

test("every vendored advisory has a valid range and a known severity", async () => {
  const { readFileSync } = await import("node:fs");
  const semver = (await import("semver")).default;
  const file = JSON.parse(readFileSync(new URL("../security/advisories.json", import.meta.url)));
  for (const advisory of file.advisories) {
    assert.ok(semver.validRange(advisory.vulnerable), advisory.id);
    assert.ok(["high", "critical"].includes(advisory.severity), advisory.id);
  }
});
