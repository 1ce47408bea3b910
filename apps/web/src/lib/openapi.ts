import { dashboardFileJsonSchema } from "@seed/model";

// The OpenAPI 3.1 document of /api/v1. The dashboard file's schema is generated from the zod
// schema every import validates with (@seed/model dashboard/file.ts); the answers' own small
// shapes are written here, beside the routes' comments they describe.

const problem = {
  description: "Problem details (RFC 9457)",
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
};

const slugParameter = {
  name: "slug",
  in: "path",
  required: true,
  schema: { type: "string", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$", maxLength: 64 },
};

export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const { $schema: _dialect, ...dashboardFile } = dashboardFileJsonSchema();
  return {
    openapi: "3.1.0",
    info: {
      title: "Seed Charts API",
      version: "1",
      description:
        "Dashboards as files over HTTP. Authenticate with a personal API token (Admin > API tokens) as a Bearer token; it acts as its account, capped by its scope.",
    },
    servers: [{ url: `${serverUrl}/api/v1` }],
    security: [{ token: [] }],
    paths: {
      "/dashboards": {
        get: {
          operationId: "listDashboards",
          summary: "Dashboards by slug, drafts included, a page at a time",
          parameters: [
            {
              name: "limit",
              in: "query",
              schema: { type: "integer", minimum: 1, maximum: 100, default: 50 },
            },
            { name: "cursor", in: "query", schema: { type: "string", maxLength: 200 } },
          ],
          responses: {
            "200": {
              description: "A page of dashboards",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/DashboardPage" } },
              },
            },
            "400": problem,
            "401": problem,
          },
        },
      },
      "/dashboards/{slug}": {
        parameters: [slugParameter],
        get: {
          operationId: "getDashboardFile",
          summary: "A dashboard as its file (JSON, or YAML with Accept: application/yaml)",
          responses: {
            "200": {
              description: "The file; its version is the ETag",
              headers: { ETag: { schema: { type: "string" } } },
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/DashboardFile" } },
                "application/yaml": { schema: { type: "string" } },
              },
            },
            "304": { description: "Not modified (If-None-Match)" },
            "401": problem,
            "403": problem,
            "404": problem,
          },
        },
        put: {
          operationId: "putDashboardFile",
          summary:
            "Create or replace a dashboard from its file: one new version, none if unchanged",
          parameters: [
            {
              name: "If-Match",
              in: "header",
              description: "The ETag of the version the file was made from; a newer one is a 412.",
              schema: { type: "string" },
            },
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/DashboardFile" } },
              "application/yaml": { schema: { type: "string" } },
            },
          },
          responses: {
            "200": {
              description: "Updated, or unchanged",
              headers: { ETag: { schema: { type: "string" } } },
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/PutResult" } },
              },
            },
            "201": {
              description: "Created",
              headers: { ETag: { schema: { type: "string" } } },
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/PutResult" } },
              },
            },
            "401": problem,
            "403": problem,
            "412": problem,
            "413": problem,
            "415": problem,
            "422": problem,
          },
        },
      },
    },
    components: {
      securitySchemes: { token: { type: "http", scheme: "bearer" } },
      schemas: {
        DashboardFile: dashboardFile,
        DashboardSummary: {
          type: "object",
          required: ["slug", "title", "status", "version", "updatedAt", "managedFile"],
          additionalProperties: false,
          properties: {
            slug: { type: "string" },
            title: { type: "string" },
            status: { enum: ["draft", "published"] },
            version: { type: "integer", minimum: 1 },
            updatedAt: { type: "string", format: "date-time" },
            managedFile: { type: ["string", "null"] },
          },
        },
        DashboardPage: {
          type: "object",
          required: ["items", "nextCursor"],
          additionalProperties: false,
          properties: {
            items: { type: "array", items: { $ref: "#/components/schemas/DashboardSummary" } },
            nextCursor: { type: ["string", "null"] },
          },
        },
        PutResult: {
          type: "object",
          required: ["outcome", "slug", "version"],
          additionalProperties: false,
          properties: {
            outcome: { enum: ["created", "updated", "unchanged"] },
            slug: { type: "string" },
            version: { type: "integer", minimum: 1 },
          },
        },
        Problem: {
          type: "object",
          required: ["type", "title", "status", "detail"],
          properties: {
            type: { type: "string" },
            title: { type: "string" },
            status: { type: "integer" },
            detail: { type: "string" },
            errors: {
              type: "array",
              items: {
                type: "object",
                required: ["path", "message"],
                properties: {
                  path: { type: "string" },
                  message: { type: "string" },
                  line: { type: ["integer", "null"] },
                },
              },
            },
          },
        },
      },
    },
  };
}
