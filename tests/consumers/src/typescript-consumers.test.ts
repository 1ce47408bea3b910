import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerApp, catalogVersions, createConsumerApp, run } from "./consumer-app";

const resolutions = ["bundler", "node16"] as const;

describe("TypeScript consumers of the packed tarballs", () => {
  let app: ConsumerApp;

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
  });

  afterAll(() => app?.remove());

  /** Type-checks one file set with the fixture's tsconfig for a moduleResolution. */
  function typeCheck(resolution: (typeof resolutions)[number], files?: string[]) {
    let project = `tsconfig.${resolution}.json`;
    if (files) {
      project = `tsconfig.${resolution}.${files.map((file) => file.replace(/\W/g, "-")).join("_")}.json`;
      const config = { extends: `./tsconfig.${resolution}.json`, files };
      writeFileSync(join(app.dir, project), JSON.stringify(config));
    }
    return run(join(app.dir, "node_modules/.bin/tsc"), ["-p", project], { cwd: app.dir });
  }

  describe.each(resolutions)('moduleResolution "%s"', (resolution) => {
    it("compiles a typed usage of every chart and of @seed/ui", async () => {
      const result = await typeCheck(resolution);

      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    });

    it("rejects a series key that is not a key of the row type", async () => {
      const result = await typeCheck(resolution, ["src/bad-series-key.tsx"]);

      expect(result.code).not.toBe(0);
      expect(result.stdout).toMatch(/src\/bad-series-key\.tsx\(\d+,\d+\): error TS\d+:.*"profit"/);
      expect(result.stdout).not.toMatch(/node_modules.*error TS/);
    });

    it("rejects an index key that is not a key of the row type", async () => {
      const result = await typeCheck(resolution, ["src/bad-index-key.tsx"]);

      expect(result.code).not.toBe(0);
      expect(result.stdout).toMatch(/src\/bad-index-key\.tsx\(\d+,\d+\): error TS\d+:.*"week"/);
      expect(result.stdout).not.toMatch(/node_modules.*error TS/);
    });
  });
});
