import { iconNames } from "@seed/ui/icon-names";
import { z } from "zod";

// The words every layer shares: column types, aggregates, icons. One list each, used everywhere.

/** Every type a dataset column can have; boolean comes only from live sources' tables. */
export const datasetColumnTypes = ["number", "string", "boolean", "date", "timestamp"] as const;
export type DatasetColumnType = (typeof datasetColumnTypes)[number];

/** The icon names are @seed/ui's own list, from its React-free subpath (no React reaches the model). */
export { type IconName, iconNames } from "@seed/ui/icon-names";

/** The records the store keeps, versions and audits. */
export const entityTypes = ["dataset", "chart", "dashboard", "source"] as const;
export type EntityType = (typeof entityTypes)[number];
/**
 * What an audit event is about: one of the store's records, a user (better-auth keeps users), a
 * SQL question's run, the instance's settings, or a scheduled report (its changes, sends and
 * failures), an alert, a group of accounts, or a collection.
 */
export const auditEntityTypes = [
  ...entityTypes,
  "user",
  "question",
  "settings",
  "report",
  "alert",
  "group",
  "collection",
] as const;
export type AuditEntityType = (typeof auditEntityTypes)[number];

/** The types a dataset made here (form, file import, push API) may declare: every type. */
export const columnTypes = [
  "number",
  "string",
  "date",
  "timestamp",
  "boolean",
] as const satisfies readonly DatasetColumnType[];
export type ColumnType = (typeof columnTypes)[number];
/** What a stat tile shows of a column: an aggregate of the rows, or the last value. */
export const aggregations = [
  "sum",
  "avg",
  "median",
  "p25",
  "p75",
  "p90",
  "p95",
  "p99",
  "last",
  "min",
  "max",
  "count",
] as const;
export type Aggregation = (typeof aggregations)[number];

/** A stat tile's aggregation in words, as the tile form offers it. */
export const aggregationLabels: Record<Aggregation, string> = {
  sum: "Sum",
  avg: "Average",
  median: "Median",
  p25: "25th percentile",
  p75: "75th percentile",
  p90: "90th percentile",
  p95: "95th percentile",
  p99: "99th percentile",
  last: "Last value",
  min: "Minimum",
  max: "Maximum",
  count: "Count of rows with a value",
};

export const iconNameSchema = z.enum(iconNames, { error: "Choose one of the listed icons." });
