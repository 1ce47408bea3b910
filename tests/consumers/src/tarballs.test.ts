import { describe, expect, it } from "vitest";
import {
  findMissingExportTargets,
  findPackingProblems,
  readFromTarball,
} from "../scripts/pack-packages.mjs";
import { type PublicPackageName, packedPackage } from "./packed-packages";

const publicPackages: PublicPackageName[] = ["@seed/ui", "@seed/charts"];

describe.each(publicPackages)("packed tarball of %s", (name) => {
  it("contains README.md and has no workspace:, catalog:, link: or file: ranges", () => {
    const packed = packedPackage(name);

    expect(findPackingProblems(packed)).toEqual([]);
  });

  it("contains every file its package.json exports", () => {
    const packed = packedPackage(name);

    expect(findMissingExportTargets(packed)).toEqual([]);
  });

  it("exports a stylesheet and keeps React a peer dependency", () => {
    const packed = packedPackage(name);

    expect(Object.keys(packed.manifest.exports ?? {})).toContain("./styles.css");
    expect(Object.keys(packed.manifest.peerDependencies ?? {})).toEqual(
      expect.arrayContaining(["react", "react-dom"]),
    );
    expect(Object.keys(packed.manifest.dependencies ?? {})).not.toContain("react");
  });
});

describe("packed tarball of @seed/charts", () => {
  it("depends on the real version of @seed/ui being released", () => {
    const charts = packedPackage("@seed/charts");
    const ui = packedPackage("@seed/ui");

    expect(charts.manifest.dependencies?.["@seed/ui"]).toBe(`^${ui.version}`);
  });

  it('keeps "use client" as the first statement of its JavaScript entries', () => {
    const charts = packedPackage("@seed/charts");
    const entries = javascriptTargets(charts.manifest.exports?.["."]);

    expect(entries.length).toBeGreaterThanOrEqual(2);
    for (const entry of entries) {
      const source = readFromTarball(charts.tarball, entry.replace(/^\.\//, ""));
      expect(source, entry).toMatch(directivePrologueWithUseClient);
    }
  });
});

// Comments and other directives ("use strict") may come first; any statement before it voids it.
const directivePrologueWithUseClient =
  /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/|["']use strict["'];?)*["']use client["']/;

/** The .js/.cjs/.mjs files a conditional export points at (types excluded). */
function javascriptTargets(exportValue: unknown): string[] {
  if (typeof exportValue === "string") return /\.[cm]?js$/.test(exportValue) ? [exportValue] : [];
  if (exportValue && typeof exportValue === "object") {
    return Object.values(exportValue).flatMap(javascriptTargets);
  }
  return [];
}
