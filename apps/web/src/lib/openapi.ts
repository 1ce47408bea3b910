import { apiSchemas } from "./api-v1-schemas";

// The OpenAPI 3.1 document of /api/v1. Every schema in it is generated from zod: the dashboard
// file's and the chart query's are the ones the app validates requests with (@seed/model), the
// answers' are the ones the routes build their answers by (lib/api-v1-schemas.ts).

/** What each error status means across the API; an operation may say more (409). */
const problemMeanings: Record<number, string> = {
  400: "A parameter is not one this operation takes; errors names it",
  401: "No valid personal API token (missing, unknown, revoked or expired)",
  403: "The token's account or scope does not allow this",
  404: "Nothing has this slug or id",
  409: "The rows are not kept here, or changed since the cursor's page",
  412: "It changed since the ETag sent in If-Match (or If-Match is not an ETag given here); nothing was written",
  413: "The body is over its size limit",
  415: "The body's media type is not one this operation reads",
  422: "The body does not fit, or the write is refused (kept from a file): each problem with its path",
};

/** An error answer: problem details (RFC 9457) with what the status means here. */
const problem = (status: number) => ({
  description: `${problemMeanings[status] ?? "An error"} (problem details, RFC 9457)`,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** An answer whose JSON body is the named schema. */
const answer = (name: string, description: string, extra: Record<string, unknown> = {}) => ({
  description,
  ...extra,
  content: { "application/json": { schema: ref(name) } },
});

const etagHeader = { headers: { ETag: { schema: { type: "string" } } } };

const pathParameter = (name: string, schema: Record<string, unknown>, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema,
});

const dashboardSlug = pathParameter(
  "slug",
  { type: "string", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$", maxLength: 64 },
  "The dashboard's slug, as in its public address /d/{slug}",
);
const datasetSlug = pathParameter(
  "slug",
  { type: "string", pattern: "^[a-z0-9_]+$", maxLength: 64 },
  "The dataset's slug: its SQL table name (store_sales)",
);
const chartId = pathParameter("id", { type: "string", maxLength: 200 }, "The chart's id");
const versionNumber = pathParameter(
  "version",
  { type: "integer", minimum: 1 },
  "A kept version's number (see its history)",
);

/** A dashboard's or chart's history: its versions a page at a time, one version, a restore. */
function versionPaths(
  base: string,
  parameter: Record<string, unknown>,
  what: "dashboard" | "chart",
) {
  const tag = what === "dashboard" ? "Dashboard" : "Chart";
  return {
    [`${base}/history`]: {
      parameters: [parameter],
      get: {
        operationId: `list${tag}Versions`,
        tags: ["history"],
        summary: `Every saved version of a ${what}, newest first: who, when and what`,
        parameters: pageParameters(200, 50),
        responses: {
          "200": answer("VersionPage", "A page of versions, newest first"),
          "400": problem(400),
          "401": problem(401),
          "404": problem(404),
        },
      },
    },
    [`${base}/history/{version}`]: {
      parameters: [parameter, versionNumber],
      get: {
        operationId: `get${tag}Version`,
        tags: ["history"],
        summary: `One kept version of a ${what}: who, when, what made it, and what it was`,
        responses: {
          "200": answer("Version", "The version with its snapshot"),
          "401": problem(401),
          "404": problem(404),
        },
      },
    },
    [`${base}/history/{version}/restore`]: {
      parameters: [parameter, versionNumber],
      post: {
        operationId: `restore${tag}Version`,
        tags: ["history"],
        summary: `Restore a ${what} to a kept version, saved as one new version`,
        parameters: [ifMatch(what)],
        responses: {
          "200": answer(
            what === "dashboard" ? "PutResult" : "Chart",
            "Restored: the new version",
            etagHeader,
          ),
          "401": problem(401),
          "403": problem(403),
          "404": problem(404),
          "412": problem(412),
          "422": problem(422),
        },
      },
    },
  };
}

/** `limit` and `cursor`: pages in a stable order, the next one by the page's nextCursor. */
const pageParameters = (max: number, fallback: number) => [
  {
    name: "limit",
    in: "query",
    schema: { type: "integer", minimum: 1, maximum: max, default: fallback },
  },
  {
    name: "cursor",
    in: "query",
    description: "The nextCursor of the page before; leave out for the first page",
    schema: { type: "string", maxLength: 200 },
  },
];

/** If-Match on a write: the ETag it was made from; without it the write applies to any version. */
const ifMatch = (what: string) => ({
  name: "If-Match",
  in: "header",
  description: `The ETag of the ${what} version this write was made from; a newer one is a 412 and nothing is written.`,
  schema: { type: "string" },
});

const notModified = { "304": { description: "Not modified (If-None-Match)" } };

export function openApiDocument(serverUrl: string): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Seed Charts API",
      version: "1",
      description:
        "Dashboards as files, datasets, charts, queries and history over HTTP. Authenticate with a personal API token (Admin > API tokens) as a Bearer token; it acts as its account, capped by its scope (read: a viewer's reads; write: an editor's writes too). Errors are problem details (RFC 9457) with field paths; lists are cursor pages; versions are ETags, and a write with a stale If-Match is a 412.",
    },
    servers: [{ url: `${serverUrl}/api/v1` }],
    security: [{ token: [] }],
    paths: {
      "/dashboards": {
        get: {
          operationId: "listDashboards",
          tags: ["dashboards"],
          summary: "Dashboards by slug, drafts included, a page at a time",
          parameters: pageParameters(100, 50),
          responses: {
            "200": answer("DashboardPage", "A page of dashboards, by slug"),
            "400": problem(400),
            "401": problem(401),
          },
        },
      },
      "/dashboards/{slug}": {
        parameters: [dashboardSlug],
        get: {
          operationId: "getDashboardFile",
          tags: ["dashboards"],
          summary: "A dashboard as its file (JSON, or YAML with Accept: application/yaml)",
          responses: {
            "200": {
              description: "The file; its version is the ETag",
              ...etagHeader,
              content: {
                "application/json": { schema: ref("DashboardFile") },
                "application/yaml": { schema: { type: "string" } },
              },
            },
            ...notModified,
            "401": problem(401),
            "403": problem(403),
            "404": problem(404),
          },
        },
        put: {
          operationId: "putDashboardFile",
          tags: ["dashboards"],
          summary:
            "Create or replace a dashboard from its file: one new version, none if unchanged",
          parameters: [ifMatch("dashboard")],
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: ref("DashboardFile") },
              "application/yaml": { schema: { type: "string" } },
            },
          },
          responses: {
            "200": answer("PutResult", "Updated, or unchanged", etagHeader),
            "201": answer("PutResult", "Created", etagHeader),
            "401": problem(401),
            "403": problem(403),
            // The slug is a dashboard in a collection the token's account is not granted.
            "404": problem(404),
            "412": problem(412),
            "413": problem(413),
            "415": problem(415),
            "422": problem(422),
          },
        },
        delete: {
          operationId: "deleteDashboard",
          tags: ["dashboards"],
          summary: "Delete a dashboard (its charts stay); refused for one kept from a file",
          parameters: [ifMatch("dashboard")],
          responses: {
            "204": { description: "Deleted" },
            "401": problem(401),
            "403": problem(403),
            "404": problem(404),
            "412": problem(412),
            "422": problem(422),
          },
        },
      },
      ...versionPaths("/dashboards/{slug}", dashboardSlug, "dashboard"),
      "/datasets": {
        get: {
          operationId: "listDatasets",
          tags: ["datasets"],
          summary: "Datasets by slug, with their columns, a page at a time",
          parameters: pageParameters(100, 50),
          responses: {
            "200": answer("DatasetPage", "A page of datasets, by slug"),
            "400": problem(400),
            "401": problem(401),
          },
        },
      },
      "/datasets/{slug}": {
        parameters: [datasetSlug],
        get: {
          operationId: "getDataset",
          tags: ["datasets"],
          summary: "A dataset's metadata: columns, calculated fields, row count; version as ETag",
          responses: {
            "200": answer("Dataset", "The dataset", etagHeader),
            ...notModified,
            "401": problem(401),
            "404": problem(404),
          },
        },
      },
      "/datasets/{slug}/rows": {
        parameters: [datasetSlug],
        get: {
          operationId: "listDatasetRows",
          tags: ["datasets"],
          summary: "A dataset's rows in their kept order, a page at a time",
          description:
            "Every page is of one version of the dataset: a cursor of an older version is a 409 (start again). A live dataset's or a SQL question's rows are not kept here (409): query them.",
          parameters: pageParameters(1000, 100),
          responses: {
            "200": answer("DatasetRowsPage", "A page of rows", etagHeader),
            "400": problem(400),
            "401": problem(401),
            "404": problem(404),
            "409": problem(409),
          },
        },
      },
      "/datasets/{slug}/query": {
        parameters: [datasetSlug],
        post: {
          operationId: "runDatasetQuery",
          tags: ["queries"],
          summary: "Run a chart query over a dataset and get its result (what a chart would draw)",
          requestBody: {
            required: true,
            content: { "application/json": { schema: ref("ChartQuery") } },
          },
          responses: {
            "200": answer("QueryResult", "The query's result"),
            "400": problem(400),
            "401": problem(401),
            "404": problem(404),
            "413": problem(413),
            "415": problem(415),
            "422": problem(422),
          },
        },
      },
      "/charts": {
        get: {
          operationId: "listCharts",
          tags: ["charts"],
          summary: "Charts by id, a page at a time",
          parameters: pageParameters(100, 50),
          responses: {
            "200": answer("ChartPage", "A page of charts, by id"),
            "400": problem(400),
            "401": problem(401),
          },
        },
      },
      "/charts/{id}": {
        parameters: [chartId],
        get: {
          operationId: "getChart",
          tags: ["charts"],
          summary: "A chart: its dataset by slug, its query and options; version as ETag",
          responses: {
            "200": answer("Chart", "The chart", etagHeader),
            ...notModified,
            "401": problem(401),
            "404": problem(404),
          },
        },
        put: {
          operationId: "putChart",
          tags: ["charts"],
          summary:
            "Replace a chart (as a dashboard file writes it inline): one new version, none if unchanged",
          parameters: [ifMatch("chart")],
          requestBody: {
            required: true,
            content: { "application/json": { schema: ref("ChartWrite") } },
          },
          responses: {
            "200": answer("Chart", "The chart as saved", etagHeader),
            "400": problem(400),
            "401": problem(401),
            "403": problem(403),
            "404": problem(404),
            "412": problem(412),
            "413": problem(413),
            "415": problem(415),
            "422": problem(422),
          },
        },
      },
      "/charts/{id}/results": {
        parameters: [chartId],
        get: {
          operationId: "getChartResults",
          tags: ["queries"],
          summary: "Run a chart's saved query and get its result",
          responses: {
            "200": answer("QueryResult", "The chart's result, as it draws now"),
            "401": problem(401),
            "404": problem(404),
            "422": problem(422),
          },
        },
      },
      ...versionPaths("/charts/{id}", chartId, "chart"),
    },
    components: {
      securitySchemes: { token: { type: "http", scheme: "bearer" } },
      schemas: apiSchemas(),
    },
  };
}
