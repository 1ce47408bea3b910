import { z } from "zod";
import { requiredText } from "./fields.js";
import { sourceLimits } from "./limits.js";

export const sourceSslModes = ["disable", "require", "verify-full"] as const;
export type SourceSslMode = (typeof sourceSslModes)[number];

/** Form fields arrive as text: numbers are coerced, blanks take the default. */
function boundedInteger(label: string, min: number, max: number, fallback: number) {
  return z.preprocess(
    (value) => (value === undefined || value === null || value === "" ? fallback : Number(value)),
    z
      .number({ error: `${label} must be a whole number.` })
      .int(`${label} must be a whole number.`)
      .min(min, `${label} must be at least ${min.toLocaleString("en-US")}.`)
      .max(max, `${label} must be at most ${max.toLocaleString("en-US")}.`),
  );
}

const sourceText = (label: string, max: number) => requiredText(label, max, "the");

const sourceFields = {
  name: sourceText("name", sourceLimits.maxNameLength),
  host: sourceText("host", sourceLimits.maxHostLength).regex(
    /^[A-Za-z0-9.:_-]+$/,
    "Enter a host name or IP address (letters, digits, dots, dashes, colons).",
  ),
  port: boundedInteger("The port", 1, 65_535, 5432),
  database: sourceText("database name", sourceLimits.maxIdentifierLength),
  user: sourceText("user name", sourceLimits.maxIdentifierLength),
  sslMode: z.enum(sourceSslModes, { error: "Choose disable, require or verify-full." }),
  statementTimeoutMs: boundedInteger(
    "The statement timeout",
    sourceLimits.minStatementTimeoutMs,
    sourceLimits.maxStatementTimeoutMs,
    sourceLimits.defaultStatementTimeoutMs,
  ),
  rowCap: boundedInteger(
    "The row cap",
    sourceLimits.minRowCap,
    sourceLimits.maxRowCap,
    sourceLimits.defaultRowCap,
  ),
  cacheTtlSeconds: boundedInteger(
    "The cache time-to-live",
    0,
    sourceLimits.maxCacheTtlSeconds,
    sourceLimits.defaultCacheTtlSeconds,
  ),
};

const passwordField = z
  .string({ error: "Enter the password." })
  .max(sourceLimits.maxPasswordLength, "The password is too long.");

/** A new source: every field, the password required. */
export const sourceInputSchema = z.object({
  ...sourceFields,
  password: passwordField.min(1, "Enter the password."),
});
export type SourceInput = z.input<typeof sourceInputSchema>;

/** An edit: a blank or missing password keeps the stored one. */
export const sourcePatchSchema = z.object({
  ...sourceFields,
  password: passwordField.optional(),
});
export type SourcePatch = z.input<typeof sourcePatchSchema>;

/** A remote table or view to add as a live dataset. */
export const liveDatasetInputSchema = z.object({
  sourceId: z.string({ error: "Choose a source." }).min(1, "Choose a source.").max(100),
  schema: sourceText("schema", sourceLimits.maxIdentifierLength),
  table: sourceText("table", sourceLimits.maxIdentifierLength),
  name: z
    .string()
    .trim()
    .max(
      sourceLimits.maxNameLength,
      `Keep the name under ${sourceLimits.maxNameLength + 1} characters.`,
    )
    .optional(),
});
export type LiveDatasetInput = z.input<typeof liveDatasetInputSchema>;
