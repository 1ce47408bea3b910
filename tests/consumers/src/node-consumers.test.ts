import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerApp, catalogVersions, createConsumerApp, run } from "./consumer-app";
import { packedPackage } from "./packed-packages";

/** The `resolved <specifier> <path>` lines the fixture scripts print. */
function resolvedPaths(stdout: string): Record<string, string> {
  return Object.fromEntries(
    [...stdout.matchAll(/^resolved (\S+) (\S+)$/gm)].map((match) => [match[1], match[2]]),
  );
}

describe.each(["pnpm", "npm"] as const)(
  "Node consumers of the packed tarballs, installed with %s",
  (packageManager) => {
    let app: ConsumerApp;

    beforeAll(async () => {
      app = await createConsumerApp({
        fixture: "node",
        packageManager,
        dependencies: { react: catalogVersions.react, "react-dom": catalogVersions["react-dom"] },
      });
    });

    afterAll(() => app?.remove());

    it("installs @seed/ui for @seed/charts from our tarball, never from the registry", () => {
      const lockfile = readFileSync(
        join(app.dir, packageManager === "pnpm" ? "pnpm-lock.yaml" : "package-lock.json"),
        "utf8",
      );

      expect(lockfile).toContain(`seed-ui-${packedPackage("@seed/ui").version}.tgz`);
      expect(lockfile).toContain(`seed-charts-${packedPackage("@seed/charts").version}.tgz`);
      expect(lockfile).not.toMatch(/registry\.npmjs\.org\/@seed\//);
      expect(lockfile).not.toMatch(/^\s+'?@seed\/(ui|charts)@\d/m);
    });

    it("require()s the CommonJS builds from the app's own node_modules", async () => {
      const result = await run("node", ["require-cjs.cjs"], { cwd: app.dir });

      expect(result.code, result.output).toBe(0);
      expect(result.stdout).toContain("cjs consumer ok");
      expect(result.stdout).toContain("loaded @seed/charts/line-chart");
      expect(result.stdout).toContain("loaded @seed/charts/export");
      const paths = resolvedPaths(result.stdout);
      expect(paths["@seed/charts"]).toMatch(/\.cjs$/);
      expect(paths["@seed/ui"]).toMatch(/\.cjs$/);
      expect(paths["@seed/charts/styles.css"]).toMatch(/\.css$/);
      expect(paths["@seed/ui/styles.css"]).toMatch(/\.css$/);
      expect(paths["@seed/ui-from-charts"]).toBe(paths["@seed/ui"]);
      for (const path of Object.values(paths)) expect(path.startsWith(app.dir)).toBe(true);
    });

    it("imports the ES module builds from the app's own node_modules", async () => {
      const result = await run("node", ["import-esm.mjs"], { cwd: app.dir });

      expect(result.code, result.output).toBe(0);
      expect(result.stdout).toContain("esm consumer ok");
      expect(result.stdout).toContain("loaded @seed/charts/pie-chart");
      expect(result.stdout).toContain("loaded @seed/charts/export");
      const paths = resolvedPaths(result.stdout);
      expect(paths["@seed/charts"]).toMatch(/\.m?js$/);
      expect(paths["@seed/ui"]).toMatch(/\.m?js$/);
      expect(paths["@seed/charts/styles.css"]).toMatch(/\.css$/);
      for (const path of Object.values(paths)) expect(path).toContain(`file://${app.dir}/`);
    });
  },
);
