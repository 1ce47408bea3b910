import {
  chartQuerySchema,
  chartTypes,
  dashboardFileChartSchema,
  dashboardFileJsonSchema,
  datasetColumnTypes,
  fileChartOptionsSchema,
  slugPattern,
} from "@seed/model";
import { z } from "zod";

// The shapes of /api/v1's answers, as zod schemas: routes build their answers typed by them
// (z.infer), and the OpenAPI document (lib/openapi.ts) is generated from the same schemas, so
// the document and the answers cannot drift apart. Request bodies use the app's own schemas
// (@seed/model's chart query and dashboard file).

const slug = z.string().regex(slugPattern);
const dateTime = z.iso.datetime({ offset: true });
const version = z.number().int().min(1);
const cursor = z.string().nullable();

const column = z.object({ name: z.string(), type: z.enum(datasetColumnTypes) });

export const datasetSummarySchema = z.object({
  slug: slug.describe("The dataset's SQL table name; dashboard files name datasets by it."),
  name: z.string(),
  description: z.string(),
  kind: z
    .enum(["stored", "live", "question"])
    .describe("stored: rows kept here; live: read from a source; question: a saved SQL question"),
  columns: z.array(column),
  rowCount: z.number().int().min(0),
  version,
  updatedAt: dateTime,
});
export type DatasetSummaryAnswer = z.infer<typeof datasetSummarySchema>;

export const datasetSchema = datasetSummarySchema.extend({
  calculatedFields: z.array(
    z.object({
      name: z.string(),
      expression: z.string(),
      type: z.enum(datasetColumnTypes).nullable(),
      problem: z.string().nullable().describe("Why the field no longer fits the columns"),
    }),
  ),
  hierarchies: z
    .array(z.array(z.string()))
    .describe(
      "Drill-down hierarchies: each lists columns from the broadest down (region, country, city)",
    ),
  createdAt: dateTime,
});
export type DatasetAnswer = z.infer<typeof datasetSchema>;

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const datasetRowsPageSchema = z.object({
  columns: z.array(column),
  rows: z.array(z.record(z.string(), cell)).describe("Each row keyed by column name"),
  total: z.number().int().min(0),
  version: version.describe("The dataset version these rows are of"),
  nextCursor: cursor,
});
export type DatasetRowsPageAnswer = z.infer<typeof datasetRowsPageSchema>;

export const chartSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  type: z.enum(chartTypes),
  dataset: slug,
  version,
  updatedAt: dateTime,
});
export type ChartSummaryAnswer = z.infer<typeof chartSummarySchema>;

export const chartSchema = chartSummarySchema.extend({
  query: chartQuerySchema,
  options: fileChartOptionsSchema,
  createdAt: dateTime,
});
export type ChartAnswer = z.infer<typeof chartSchema>;

const resultColumn = z.object({
  key: z.string(),
  label: z.string(),
  unit: z.enum(["share", "change"]).optional(),
});

export const queryResultSchema = z.object({
  x: resultColumn.extend({ type: z.enum(datasetColumnTypes) }),
  series: z.array(resultColumn),
  rows: z
    .array(z.record(z.string(), z.union([z.string(), z.number(), z.null()])))
    .describe("One row per x value: the x key and one number per series key"),
  notes: z.array(z.string()),
  duplicateX: z.number().int().min(0).optional(),
  annotations: z
    .array(z.object({ at: z.string(), to: z.string().optional(), label: z.string() }))
    .describe(
      "Events read from the dataset the chart's annotationSource names, within the days shown",
    )
    .optional(),
});
export type QueryResultAnswer = z.infer<typeof queryResultSchema>;

export const versionSchema = z.object({
  version,
  at: dateTime,
  actor: z.object({ id: z.string(), email: z.string() }),
  action: z.string().describe("What made it: chart.update, dashboard.publish, ..."),
  restoredFrom: version.nullable(),
});

export const versionWithSnapshotSchema = versionSchema.extend({
  snapshot: z
    .record(z.string(), z.unknown())
    .describe("What it was at that version, in the shape its update takes (restore replays it)"),
});

const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: cursor });

export const dashboardSummarySchema = z.object({
  slug,
  title: z.string(),
  status: z.enum(["draft", "published"]),
  version,
  updatedAt: dateTime,
  managedFile: z.string().nullable().describe("The provisioning file it is kept from, if any"),
});
export type DashboardSummaryAnswer = z.infer<typeof dashboardSummarySchema>;

export const putResultSchema = z.object({
  outcome: z.enum(["created", "updated", "unchanged"]),
  slug,
  version,
});

export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  errors: z
    .array(
      z.object({
        path: z.string().describe('Where in the request: "tiles.2.chart.type", "limit"'),
        message: z.string(),
        line: z.number().int().nullable().optional(),
      }),
    )
    .optional(),
});

/** Every named schema of the document, generated from the zod schemas above. */
export function apiSchemas(): Record<string, unknown> {
  const jsonSchema = (schema: z.ZodType, io: "input" | "output") => {
    const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
      io,
      target: "draft-2020-12",
      unrepresentable: "any",
    });
    return json;
  };
  // Answers as the routes build them; request bodies as the app reads them.
  const answer = (schema: z.ZodType) => jsonSchema(schema, "output");
  const request = (schema: z.ZodType) => jsonSchema(schema, "input");
  const { $schema: _dialect, ...dashboardFile } = dashboardFileJsonSchema();
  return {
    DashboardFile: dashboardFile,
    ChartQuery: request(chartQuerySchema),
    ChartWrite: request(dashboardFileChartSchema),
    DashboardSummary: answer(dashboardSummarySchema),
    DashboardPage: answer(pageOf(dashboardSummarySchema)),
    PutResult: answer(putResultSchema),
    DatasetSummary: answer(datasetSummarySchema),
    DatasetPage: answer(pageOf(datasetSummarySchema)),
    Dataset: answer(datasetSchema),
    DatasetRowsPage: answer(datasetRowsPageSchema),
    ChartSummary: answer(chartSummarySchema),
    ChartPage: answer(pageOf(chartSummarySchema)),
    Chart: answer(chartSchema),
    QueryResult: answer(queryResultSchema),
    VersionPage: answer(pageOf(versionSchema)),
    Version: answer(versionWithSnapshotSchema),
    Problem: answer(problemSchema),
  };
}
