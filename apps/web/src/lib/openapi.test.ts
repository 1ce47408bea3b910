import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";
import { appRoutes } from "./route-label";

// The OpenAPI document of /api/v1: valid OpenAPI 3.1 (checked by a validator of the spec's own
// JSON Schema), one path per API route of src/app (and no path without a route), and every
// schema in it compiles.

type Operation = { responses: Record<string, unknown> };

const document = openApiDocument("https://charts.example.com") as {
  paths: Record<string, Record<string, Operation | unknown>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has a path for every /api/v1 route and no path without one", () => {
    const served = appRoutes
      .filter((route) => route.startsWith("/api/v1/"))
      .filter((route) => !route.endsWith(".json"))
      .map((route) => route.slice("/api/v1".length).replace(/\[(\w+)\]/g, "{$1}"))
      .sort();
    expect(Object.keys(document.paths).sort()).toEqual(served);
  });

  it("names only schemas it has, each compiling as JSON Schema 2020-12", () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      ajv.addSchema(schema, `#/components/schemas/${name}`);
    }
    for (const name of Object.keys(document.components.schemas)) {
      expect(ajv.getSchema(`#/components/schemas/${name}`), name).toBeTypeOf("function");
    }
    const refs = [...JSON.stringify(document.paths).matchAll(/"#\/components\/schemas\/(\w+)"/g)];
    for (const [, name] of refs) expect(Object.keys(document.components.schemas)).toContain(name);
    // Answers say what they hold: an object answer allows no properties it does not name.
    for (const name of ["DatasetPage", "Dataset", "Chart", "QueryResult", "VersionPage"]) {
      expect(document.components.schemas[name]?.additionalProperties, name).toBe(false);
    }
  });
});
