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
/** What an audit event is about: one of the store's records, or a user (better-auth keeps users). */
export const auditEntityTypes = [...entityTypes, "user"] as const;
export type AuditEntityType = (typeof auditEntityTypes)[number];

/** The types a dataset made here (form, CSV, push API) may declare. */
export const columnTypes = [
  "number",
  "string",
  "date",
  "timestamp",
] as const satisfies readonly DatasetColumnType[];
export type ColumnType = (typeof columnTypes)[number];
export const aggregations = ["sum", "avg", "last", "min", "max", "count"] as const;
export type Aggregation = (typeof aggregations)[number];

export const iconNameSchema = z.enum(iconNames, { error: "Choose one of the listed icons." });
