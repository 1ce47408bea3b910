import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConsumerApp,
  catalogVersions,
  createConsumerApp,
  type RunResult,
  run,
} from "./consumer-app";

const resolutions = ["bundler", "node16"] as const;
type Resolution = (typeof resolutions)[number];
const badFiles = ["src/bad-series-key.tsx", "src/bad-index-key.tsx"];

describe("TypeScript consumers of the packed tarballs", () => {
  let app: ConsumerApp;
  const good = new Map<Resolution, RunResult>();
  const bad = new Map<Resolution, RunResult>();

  /** Type-checks with the fixture's tsconfig for a moduleResolution, optionally on other files. */
  function typeCheck(resolution: Resolution, files?: string[]): Promise<RunResult> {
    let project = `tsconfig.${resolution}.json`;
    if (files) {
      project = `tsconfig.${resolution}.bad.json`;
      // Library checking is done by the good run; the bad run only needs the usage errors.
      const config = {
        extends: `./tsconfig.${resolution}.json`,
        compilerOptions: { skipLibCheck: true },
        files,
      };
      writeFileSync(join(app.dir, project), JSON.stringify(config));
    }
    return run(join(app.dir, "node_modules/.bin/tsc"), ["-p", project], { cwd: app.dir });
  }

  beforeAll(async () => {
    app = await createConsumerApp({
      fixture: "typescript",
      dependencies: {
        react: catalogVersions.react,
        "react-dom": catalogVersions["react-dom"],
        typescript: catalogVersions.typescript,
        "@types/react": catalogVersions["@types/react"],
        "@types/react-dom": catalogVersions["@types/react-dom"],
      },
    });
    // Two tsc processes at a time: one per core.
    for (const resolution of resolutions) {
      const [goodRun, badRun] = await Promise.all([
        typeCheck(resolution),
        typeCheck(resolution, badFiles),
      ]);
      good.set(resolution, goodRun);
      bad.set(resolution, badRun);
    }
  });

  afterAll(() => app?.remove());

  function result(results: Map<Resolution, RunResult>, resolution: Resolution): RunResult {
    const found = results.get(resolution);
    if (!found) throw new Error(`tsc did not run for ${resolution}`);
    return found;
  }

  describe.each(resolutions)('moduleResolution "%s"', (resolution) => {
    it("compiles a typed usage of every chart and of @seed/ui, ESM and CJS", () => {
      const { code, output } = result(good, resolution);

      expect(output).toBe("");
      expect(code).toBe(0);
    });

    it("rejects a series key that is not a key of the row type", () => {
      const { code, stdout } = result(bad, resolution);

      expect(code).not.toBe(0);
      expect(stdout).toMatch(/src\/bad-series-key\.tsx\(\d+,\d+\): error TS\d+:.*"profit"/);
    });

    it("rejects an index key that is not a key of the row type", () => {
      const { code, stdout } = result(bad, resolution);

      expect(code).not.toBe(0);
      expect(stdout).toMatch(/src\/bad-index-key\.tsx\(\d+,\d+\): error TS\d+:.*"week"/);
    });

    it("reports errors only in the wrong usages, none in the packages' types", () => {
      const { stdout } = result(bad, resolution);
      const errorFiles = [...stdout.matchAll(/^(\S+?)\(\d+,\d+\): error/gm)].map(
        (match) => match[1],
      );

      expect(errorFiles.length).toBeGreaterThan(0);
      expect(new Set(errorFiles)).toEqual(new Set(badFiles));
    });
  });
});
