// Browser-safe: zod schemas and pure checks only, so client forms can import "@seed/store/validation".
import { type ZodError, z } from "zod";
import {
  chartLocales,
  chartTypeSpecs,
  chartTypes,
  curveTypes,
  dateFormats,
  legendPositions,
  maxOtherThreshold,
  queryLimits,
  unsupportedOptions,
  valueLabelModes,
} from "./chart-types.js";
import { dashboardFilterConfigSchema, noDashboardFilters } from "./dashboards/filters.js";
import { type FieldErrors, type FieldProblem, ValidationError } from "./errors.js";
import type { JsonLimits } from "./json-input.js";
import {
  type ChartQueryInput,
  chartQuerySchema,
  checkQuery,
  type QueryFilter,
  queryFilterSchema,
} from "./query/schema.js";
import { isTimeZone } from "./query/time.js";

export {
  bottomOf,
  checkTileLayout,
  compareReadingOrder,
  defaultTileSize,
  firstFreePlace,
  flowLayout,
  gridLimits,
  placeTile,
  type TileKind,
  type TileLayout,
  tileSizeLimits,
  tilesOverlap,
} from "./dashboards/layout.js";
export {
  ConflictError,
  type EntityType,
  type FieldErrors,
  type FieldProblem,
  InUseError,
  NotFoundError,
  StoreError,
  type StoreErrorKind,
  storeErrorOf,
  ValidationError,
} from "./errors.js";
export {
  type BoundedJsonResult,
  type JsonLimits,
  type JsonRefusalReason,
  jsonLimitProblem,
  readBoundedJson,
} from "./json-input.js";

/** Mirrors @seed/ui's IconName list (the store must not depend on a React package). */
export const iconNames = [
  "crown",
  "folder",
  "building",
  "handshake",
  "shopping-cart",
  "circle-play",
  "bug",
  "database",
  "bookmark",
  "heart-handshake",
  "message-square-reply",
  "github",
  "arrow-down",
  "circle-x",
  "grid",
  "thumbs-up",
  "instagram",
] as const;
export type IconName = (typeof iconNames)[number];

export const columnTypes = ["number", "string", "date", "timestamp"] as const;
export type ColumnType = (typeof columnTypes)[number];
export const aggregations = ["sum", "avg", "last", "min", "max", "count"] as const;
export type Aggregation = (typeof aggregations)[number];
export { type ChartType, type CurveType, chartTypes, curveTypes } from "./chart-types.js";

export const datasetLimits = {
  maxRows: 50_000,
  maxColumns: 50,
  maxColumnNameLength: 64,
  /** Longest text cell; longer cells are refused, so no cell can hold a CPU or a page. */
  maxCellLength: 4_000,
  /** Longest number as text: far beyond what a double holds, short enough to scan in no time. */
  maxNumberLength: 400,
  /** Most rows a dataset holds when filled by streamed CSV import (in-memory writes: maxRows). */
  maxImportRows: 1_000_000,
  /** Largest CSV file one import reads, in bytes. */
  maxImportBytes: 100 * 1024 * 1024,
  /**
   * Largest dataset, in stored bytes: UTF-8 bytes of text cells plus 8 per filled number, date,
   * timestamp or boolean cell (see cellBytes in datasets/rows-table.ts). Appends and edits cannot grow past it.
   */
  maxDatasetBytes: 256 * 1024 * 1024,
} as const;
/** Push API tokens (access/dataset-tokens.ts) and what one push may carry. */
export const datasetTokenScopes = ["append", "replace"] as const;
export type DatasetTokenScope = (typeof datasetTokenScopes)[number];

export const pushLimits = {
  /** Largest request body the push route reads, in bytes. */
  maxBodyBytes: 10 * 1024 * 1024,
  /** Most rows one push may carry. */
  maxRows: 10_000,
  /** Requests one token may make per window. */
  requestsPerWindow: 60,
  windowMs: 60 * 1000,
  /** How long a push's answer is kept under its Idempotency-Key. */
  idempotencyMs: 24 * 60 * 60 * 1000,
  maxIdempotencyKeyLength: 200,
  maxTokenNameLength: 100,
  /** Tokens a dataset may have that are neither revoked nor expired. */
  maxActiveTokensPerDataset: 20,
  /** Furthest expiry a token may be given. */
  maxLifetimeMs: 366 * 24 * 60 * 60 * 1000,
} as const;

export const dashboardLimits = { maxTiles: 48 } as const;
export const chartLimits = { maxSeries: 12 } as const;

/** Deeper than any JSON the app reads (a push body nests 3 deep, a chart query 4). */
const maxJsonDepth = 16;

/** What each JSON input from outside may hold, checked by readBoundedJson before parsing. */
export const jsonInputLimits = {
  /** A push body: each row an object of at most maxColumns keys and cells, plus the wrapper. */
  pushBody: {
    maxBytes: pushLimits.maxBodyBytes,
    maxDepth: maxJsonDepth,
    maxValues: pushLimits.maxRows * (1 + 2 * datasetLimits.maxColumns) + 8,
  },
  /** The chart editor's query (form field and live preview body). */
  chartQuery: { maxBytes: 32 * 1024, maxDepth: maxJsonDepth, maxValues: 10_000 },
  /** The layout composer's tiles and places. */
  dashboardLayout: { maxBytes: 64 * 1024, maxDepth: maxJsonDepth, maxValues: 4_000 },
  /** The new-dataset form's chosen column names and types. */
  columnChoices: { maxBytes: 20_000, maxDepth: maxJsonDepth, maxValues: 1_000 },
  /** The table editor's changed, removed and added rows (the server action body is 3 MB at most). */
  rowEdits: { maxBytes: 3 * 1024 * 1024, maxDepth: maxJsonDepth, maxValues: 250_000 },
  /** An audit log page cursor: [at, id]. */
  auditCursor: { maxBytes: 1_024, maxDepth: maxJsonDepth, maxValues: 8 },
} as const satisfies Record<string, JsonLimits>;

export type CellValue = number | string | null;
export type DatasetRow = Record<string, CellValue>;
export interface DatasetColumn {
  name: string;
  type: ColumnType;
}

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const isoDateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function digitsAt(value: string, start: number, count: number): number {
  let result = 0;
  for (let at = start; at < start + count; at++) {
    const code = value.charCodeAt(at) - 48;
    if (code < 0 || code > 9) return -1;
    result = result * 10 + code;
  }
  return result;
}

/** True for yyyy-mm-dd that is a real calendar day (no regular expression: CSV import's hot path). */
export function isIsoDay(value: string): boolean {
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  return year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** True for yyyy-mm-dd (a real calendar day) or a full ISO 8601 date-time. */
export function isIsoDate(value: string): boolean {
  const dateOnly = isoDatePattern.exec(value);
  const match = dateOnly ?? isoDateTimePattern.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  // Plain days need no Date parsing (the hot path of CSV type inference).
  return dateOnly !== null || !Number.isNaN(Date.parse(value));
}

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `Enter a ${label}.` })
    .trim()
    .min(1, `Enter a ${label}.`)
    .max(max, `Keep the ${label} under ${max + 1} characters.`);

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `The ${label} must be text.` })
    .trim()
    .max(max, `Keep the ${label} under ${max + 1} characters.`);

const idSchema = (label: string) =>
  z
    .string({ error: `Choose a ${label}.` })
    .trim()
    .min(1, `Choose a ${label}.`);

export const iconNameSchema = z.enum(iconNames, { error: "Choose one of the listed icons." });

/** A subset of Intl.NumberFormatOptions that is safe to store and pass to Intl.NumberFormat. */
export const numberFormatSchema = z
  .object({
    style: z
      .enum(["decimal", "percent", "currency"], {
        error: "Style must be decimal, percent or currency.",
      })
      .optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "Use a three-letter currency code such as USD.")
      .optional(),
    notation: z
      .enum(["standard", "compact"], { error: "Notation must be standard or compact." })
      .optional(),
    minimumFractionDigits: z.number().int().min(0).max(20).optional(),
    maximumFractionDigits: z.number().int().min(0).max(20).optional(),
  })
  .strict()
  .superRefine((format, ctx) => {
    if (format.style === "currency" && format.currency === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["currency"],
        message: "Enter a currency code for currency style.",
      });
    }
    if (
      format.minimumFractionDigits !== undefined &&
      format.maximumFractionDigits !== undefined &&
      format.minimumFractionDigits > format.maximumFractionDigits
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["maximumFractionDigits"],
        message: "Maximum fraction digits must be at least the minimum.",
      });
    }
  });
export type NumberFormat = z.infer<typeof numberFormatSchema>;

export const columnSchema = z.object({
  name: z
    .string({ error: "Enter a column name." })
    .trim()
    .min(1, "Enter a column name.")
    .max(
      datasetLimits.maxColumnNameLength,
      `Keep column names under ${datasetLimits.maxColumnNameLength + 1} characters.`,
    ),
  type: z.enum(columnTypes, { error: "Column type must be number, string, date or timestamp." }),
});

const columnsSchema = z
  .array(columnSchema, { error: "Give the dataset's columns." })
  .min(1, "Add at least one column.")
  .max(datasetLimits.maxColumns, `A dataset has at most ${datasetLimits.maxColumns} columns.`)
  .superRefine((columns, ctx) => {
    const seen = new Set<string>();
    columns.forEach((column, index) => {
      if (seen.has(column.name)) {
        ctx.addIssue({
          code: "custom",
          path: [index, "name"],
          message: `Column name "${column.name}" is used twice.`,
        });
      }
      seen.add(column.name);
    });
  });

const rowsSchema = z
  .array(z.record(z.string(), z.unknown()), { error: "Rows must be a list of objects." })
  .max(datasetLimits.maxRows, `A dataset has at most ${datasetLimits.maxRows} rows.`);

const maxRowIssues = 10;

/** One bad cell (or unknown column) of a list of rows; `row` counts from 1 in the list given. */
export interface RowProblem {
  row: number;
  column: string;
  code: "invalid_cell" | "unknown_column";
  /** What is wrong with the cell, without the row: 'expected a number, got "abc".' */
  detail: string;
}

/** The sentence a form shows, naming the row as the caller does ("Row 12", "New row 2"). */
export function describeRowProblem(problem: RowProblem, rowLabel: string): string {
  return problem.code === "unknown_column"
    ? `${rowLabel}: unknown column "${problem.column}".`
    : `${rowLabel}, column "${problem.column}": ${problem.detail}`;
}

/**
 * Checks each cell against its column type and returns rows holding exactly the dataset's
 * columns (missing cells become null), or the first problems found.
 */
export function checkRows(
  columns: readonly DatasetColumn[],
  rows: ReadonlyArray<Record<string, unknown>>,
): { rows: DatasetRow[]; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  const known = new Set(columns.map((column) => column.name));
  const checked: DatasetRow[] = [];
  for (let index = 0; index < rows.length && problems.length < maxRowIssues; index++) {
    const row = rows[index] ?? {};
    for (const key in row) {
      if (problems.length >= maxRowIssues) break;
      if (!Object.hasOwn(row, key) || known.has(key)) continue;
      // No column has a longer name, so the cut name still says which key it was.
      const column =
        key.length > datasetLimits.maxColumnNameLength
          ? `${key.slice(0, datasetLimits.maxColumnNameLength)}…`
          : key;
      problems.push({ row: index + 1, column, code: "unknown_column", detail: "" });
    }
    const out: DatasetRow = {};
    for (const column of columns) {
      const value = normalizeCell(column, row[column.name]);
      const problem = checkCell(column, value);
      if (problem) {
        problems.push({
          row: index + 1,
          column: column.name,
          code: "invalid_cell",
          detail: problem,
        });
      }
      out[column.name] = value === undefined ? null : (value as CellValue);
    }
    checked.push(out);
  }
  return { rows: checked, problems };
}

/**
 * The refusal for bad cells: the flat messages under "rows" for a summary, and each problem at
 * "rows.<ref>.<column>" with its code, so forms mark the cell without reading the sentence.
 */
export function rowProblemsError(
  problems: ReadonlyArray<{ problem: RowProblem; ref: string; label: string; row?: number }>,
  extra: FieldProblem[] = [],
): ValidationError {
  const fieldProblems: FieldProblem[] = [
    ...extra,
    ...problems.map(({ problem, ref, label, row }) => ({
      field: `rows.${ref}.${problem.column}`,
      code: problem.code,
      message: describeRowProblem(problem, label),
      // Callers that number rows (the push API) also get row and column apart from the path.
      ...(row === undefined ? {} : { row, column: problem.column }),
    })),
  ];
  return new ValidationError({
    fieldErrors: { rows: fieldProblems.map((problem) => problem.message) },
    problems: fieldProblems,
  });
}

function isDigit(code: number | undefined): boolean {
  return code !== undefined && code >= 48 && code <= 57;
}

/**
 * True for decimal number text (`-1`, `2.5`, `.5`, `1e-3`) that is a finite double. One pass
 * over the characters, no regular expression: linear time on any input (a backtracking pattern
 * took seconds on 40,000 digits followed by a letter). Refuses text over maxNumberLength.
 */
export function isNumberText(text: string): boolean {
  const length = text.length;
  if (length === 0 || length > datasetLimits.maxNumberLength) return false;
  let at = 0;
  const sign = text.charCodeAt(0);
  if (sign === 43 || sign === 45) at++;
  let digits = 0;
  while (isDigit(text.charCodeAt(at))) {
    at++;
    digits++;
  }
  if (text.charCodeAt(at) === 46) {
    at++;
    while (isDigit(text.charCodeAt(at))) {
      at++;
      digits++;
    }
  }
  if (digits === 0) return false;
  const e = text.charCodeAt(at);
  if (e === 101 || e === 69) {
    at++;
    const expSign = text.charCodeAt(at);
    if (expSign === 43 || expSign === 45) at++;
    if (!isDigit(text.charCodeAt(at))) return false;
    while (isDigit(text.charCodeAt(at))) at++;
  }
  return at === length && Number.isFinite(Number(text));
}

/** Form fields arrive as text: blank becomes null and numeric text in a number column a number. */
function normalizeCell(column: DatasetColumn, value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (text === "") return null;
  if (column.type === "number" && isNumberText(text)) {
    return Number(text);
  }
  return column.type === "string" ? value : text;
}

const describedLength = 40;
const describedDepth = 3;

/**
 * `value` as JSON up to a little past describedLength characters: at most describedDepth levels
 * down and only the items that fit, so any value (deep, wide, cyclic) costs bounded work.
 */
function preview(value: unknown, depth: number, roomLeft: number): string {
  const room = Math.max(0, roomLeft);
  if (typeof value === "string") return JSON.stringify(value.slice(0, room));
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (value === null || typeof value !== "object") return String(value).slice(0, room);
  if (depth >= describedDepth) return Array.isArray(value) ? "[…]" : "{…}";
  const parts: string[] = [];
  let length = 2;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length && length <= room; index++) {
      const part = preview(value[index], depth + 1, room - length);
      parts.push(part);
      length += part.length + 1;
    }
    return `[${parts.join(",")}]`;
  }
  for (const key in value) {
    if (length > room) break;
    if (!Object.hasOwn(value, key)) continue;
    const name = `${JSON.stringify(key.slice(0, room))}:`;
    const part = `${name}${preview((value as Record<string, unknown>)[key], depth + 1, room - length - name.length)}`;
    parts.push(part);
    length += part.length + 1;
  }
  return `{${parts.join(",")}}`;
}

/**
 * A value quoted for a message, cut to 40 characters so a huge cell never makes a huge message.
 * Safe on any value: never serialises all of it, recurses at most a few levels, never throws.
 */
export function describeValue(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    const quoted = JSON.stringify(value.slice(0, describedLength));
    return quoted.length > describedLength || value.length > describedLength
      ? `${quoted.slice(0, describedLength)}… (${value.length.toLocaleString("en-US")} characters)`
      : quoted;
  }
  try {
    const text = preview(value, 0, describedLength + 1);
    if (text.length <= describedLength) return text;
    const size = Array.isArray(value) ? ` (${value.length.toLocaleString("en-US")} items)` : "";
    return `${text.slice(0, describedLength)}…${size}`;
  } catch {
    return "a value that cannot be shown";
  }
}

function checkCell(column: DatasetColumn, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case "number":
      return typeof value === "number" && Number.isFinite(value)
        ? null
        : `expected a number, got ${describeValue(value)}.`;
    case "date":
      return typeof value === "string" && isIsoDay(value)
        ? null
        : `expected a date (yyyy-mm-dd), got ${describeValue(value)}.`;
    case "timestamp":
      return typeof value === "string" && isIsoDate(value)
        ? null
        : `expected a date and time (ISO 8601), got ${describeValue(value)}.`;
    case "string":
      if (typeof value !== "string") return `expected text, got ${describeValue(value)}.`;
      return value.length > datasetLimits.maxCellLength
        ? `text is longer than ${datasetLimits.maxCellLength.toLocaleString("en-US")} characters.`
        : null;
  }
}

function refineRows(
  value: { columns: DatasetColumn[]; rows: Record<string, unknown>[] },
  ctx: z.RefinementCtx,
) {
  for (const problem of checkRows(value.columns, value.rows).problems) {
    ctx.addIssue({
      code: "custom",
      path: ["rows"],
      message: describeRowProblem(problem, `Row ${problem.row}`),
    });
  }
}

export const datasetInputSchema = z
  .object({
    name: requiredText("name", 120),
    description: optionalText("description", 500).default(""),
    columns: columnsSchema,
    rows: rowsSchema.default([]),
  })
  .superRefine(refineRows);
export type DatasetInput = z.input<typeof datasetInputSchema>;

export const datasetPatchSchema = z
  .object({
    name: requiredText("name", 120).optional(),
    description: optionalText("description", 500).optional(),
    columns: columnsSchema.optional(),
    rows: rowsSchema.optional(),
  })
  .superRefine((patch, ctx) => {
    if (patch.columns !== undefined && patch.rows === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["rows"],
        message: "Give the rows too when changing columns.",
      });
    }
  });
export type DatasetPatch = z.input<typeof datasetPatchSchema>;

export const datasetRowsSchema = rowsSchema;

export const chartOptionsSchema = z
  .object({
    stack: z
      .enum(["none", "stacked", "percent"], { error: "Stacking must be none, stacked or percent." })
      .optional(),
    horizontal: z.boolean({ error: "Horizontal must be true or false." }).optional(),
    curve: z.enum(curveTypes, { error: "Curve must be linear, monotone or step." }).optional(),
    numberFormat: numberFormatSchema.optional(),
    donut: z.boolean({ error: "Donut must be true or false." }).optional(),
    showLegend: z.boolean({ error: "Show legend must be true or false." }).optional(),
    legendPosition: z
      .enum(legendPositions, { error: "Legend position must be bottom, top, left or right." })
      .optional(),
    valueLabels: z
      .enum(valueLabelModes, { error: "Value labels must be none, value, percent or name." })
      .optional(),
    otherThreshold: z
      .number({ error: "Enter the share under which slices are grouped as a number." })
      .min(0, "The share for Other cannot be negative.")
      .max(maxOtherThreshold, `Group at most slices under ${maxOtherThreshold * 100}%.`)
      .optional(),
    locale: z.enum(chartLocales, { error: "Choose one of the listed locales." }).optional(),
    dateFormat: z
      .enum(dateFormats, { error: "Date format must be day, month or year." })
      .optional(),
  })
  .strict();
export type ChartOptions = z.infer<typeof chartOptionsSchema>;

const chartFields = {
  title: requiredText("title", 120),
  type: z.enum(chartTypes, { error: "Chart type must be line, area, bar or pie." }),
  datasetId: idSchema("dataset"),
  /** What the chart draws (src/query). Charts made with the simple form give the two fields below. */
  query: chartQuerySchema.optional(),
  /** Simple form: the x column, drawn as is (the query's x). */
  indexColumn: z
    .string({ error: "Choose the index column." })
    .trim()
    .min(1, "Choose the index column.")
    .max(64, "Column names are at most 64 characters.")
    .optional(),
  /** Simple form: number columns drawn as raw series (the query's measures). */
  seriesColumns: z
    .array(
      z
        .string()
        .trim()
        .min(1, "Series names cannot be empty.")
        .max(64, "Column names are at most 64 characters."),
      { error: "Choose the series columns." },
    )
    .min(1, "Choose at least one series column.")
    .max(chartLimits.maxSeries, `A chart has at most ${chartLimits.maxSeries} series.`)
    .optional(),
  options: chartOptionsSchema.default({}),
};

export const chartInputSchema = z.object(chartFields).superRefine((chart, ctx) => {
  for (const name of unsupportedOptions(chart.type, chart.options)) {
    ctx.addIssue({
      code: "custom",
      path: ["options", name],
      message: `A ${chartTypeSpecs[chart.type].label.toLowerCase()} chart has no ${name} option.`,
    });
  }
  const labelModes: readonly string[] = chartTypeSpecs[chart.type].valueLabels;
  const labels = chart.options.valueLabels;
  if (labels !== undefined && labelModes.length > 0 && !labelModes.includes(labels)) {
    ctx.addIssue({
      code: "custom",
      path: ["options", "valueLabels"],
      message: `Value labels on a ${chartTypeSpecs[chart.type].label.toLowerCase()} chart are one of: ${labelModes.join(", ")}.`,
    });
  }
  if (chart.query) return;
  if (chart.indexColumn === undefined) {
    ctx.addIssue({ code: "custom", path: ["indexColumn"], message: "Choose the index column." });
  }
  if (chart.seriesColumns === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["seriesColumns"],
      message: "Choose at least one series column.",
    });
    return;
  }
  if (chart.type === "pie" && chart.seriesColumns.length !== 1) {
    ctx.addIssue({
      code: "custom",
      path: ["seriesColumns"],
      message: "A pie chart shows exactly one series column.",
    });
  }
  const seen = new Set<string>();
  for (const series of chart.seriesColumns) {
    if (seen.has(series)) {
      ctx.addIssue({
        code: "custom",
        path: ["seriesColumns"],
        message: `Series "${series}" is listed twice.`,
      });
    }
    seen.add(series);
  }
  if (chart.indexColumn !== undefined && seen.has(chart.indexColumn)) {
    ctx.addIssue({
      code: "custom",
      path: ["seriesColumns"],
      message: `"${chart.indexColumn}" is the index column; it cannot also be a series.`,
    });
  }
});
export type ChartInput = z.input<typeof chartInputSchema>;
export type ChartPatch = Partial<ChartInput>;

/** A chart's query: the one it gives, or the simple form's columns as raw series. */
export function chartQueryOf(chart: {
  query?: ChartQueryInput | undefined;
  indexColumn?: string | undefined;
  seriesColumns?: readonly string[] | undefined;
}): ChartQueryInput {
  if (chart.query) return chart.query;
  return {
    x: { column: chart.indexColumn ?? "" },
    measures: (chart.seriesColumns ?? []).map((column) => ({ column, aggregate: "none" as const })),
  };
}

const cell = (what: string) =>
  z
    .number({ error: `The ${what} must be a whole number.` })
    .int(`The ${what} must be a whole number.`);

/** A tile's place on the 12-column grid; bounds per kind and overlaps are checked with its dashboard. */
export const tileLayoutSchema = z.object({
  x: cell("column"),
  y: cell("row"),
  w: cell("width"),
  h: cell("height"),
});

export const chartTileInputSchema = z.object({
  kind: z.literal("chart"),
  id: z.string().min(1).optional(),
  layout: tileLayoutSchema.optional(),
  chartId: idSchema("chart"),
});

export const textTileLimits = { maxLength: 2_000 } as const;

const allowedLinkSchemes = new Set(["http", "https", "mailto"]);

/** Decodes the character references a browser would, so "&#106;avascript:" is seen for what it is. */
function decodeReferences(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000),
    )
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000))
    .replace(/&colon;/gi, ":")
    .replace(/&tab;|&newline;/gi, "");
}

/**
 * The first link or image target in Markdown whose scheme is not http, https or mailto (e.g.
 * "javascript:"), or null. The renderer drops such links too; this tells the editor why.
 */
export function unsafeMarkdownLink(markdown: string): string | null {
  const targets = [
    // Inline links and images: [text](target "title")
    ...[...markdown.matchAll(/\]\(\s*<?([^\s)>]+)/g)].map((match) => match[1]),
    // Reference definitions: [name]: target
    ...[...markdown.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map(
      (match) => match[1],
    ),
    // Autolinks: <scheme:...>
    ...[...markdown.matchAll(/<([a-z][a-z0-9+.-]*:[^\s>]*)>/gi)].map((match) => match[1]),
  ];
  for (const target of targets) {
    if (target === undefined) continue;
    // Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
    const normalized = decodeReferences(target).replace(/[\u0000-\u0020\u007f]/g, "");
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(normalized)?.[1]?.toLowerCase();
    if (scheme !== undefined && !allowedLinkSchemes.has(scheme)) return target;
  }
  return null;
}

/** A heading or note written in Markdown; shown without any raw HTML (see apps/web). */
export const textTileInputSchema = z.object({
  kind: z.literal("text"),
  id: z.string().min(1).optional(),
  layout: tileLayoutSchema.optional(),
  markdown: z
    .string({ error: "Enter the text." })
    .trim()
    .min(1, "Enter the text.")
    .max(
      textTileLimits.maxLength,
      `Keep the text under ${textTileLimits.maxLength + 1} characters.`,
    )
    .superRefine((markdown, ctx) => {
      const target = unsafeMarkdownLink(markdown);
      if (target !== null) {
        ctx.addIssue({
          code: "custom",
          message: `Links must start with http://, https:// or mailto:, or be relative ("${target.slice(0, 40)}" is not).`,
        });
      }
    }),
});

export const thresholdWhens = ["below", "at_or_above"] as const;
export type ThresholdWhen = (typeof thresholdWhens)[number];
export const thresholdTones = ["good", "warning", "bad"] as const;
export type ThresholdTone = (typeof thresholdTones)[number];
export const thresholdLimits = { maxRules: 4, maxLabelLength: 40 } as const;

export const thresholdRuleSchema = z.object({
  when: z.enum(thresholdWhens, { error: "Choose below or at or above." }),
  value: z
    .number({ error: "Enter the target as a number." })
    .refine(Number.isFinite, "Enter the target as a number."),
  tone: z.enum(thresholdTones, { error: "Choose good, warning or bad." }),
  /** Words shown beside the value, so the colour is never the only sign ("below target"). */
  label: optionalText("rule label", thresholdLimits.maxLabelLength).optional(),
});
export type ThresholdRule = z.output<typeof thresholdRuleSchema>;

const thresholdsSchema = z
  .array(thresholdRuleSchema, { error: "Thresholds must be a list." })
  .max(thresholdLimits.maxRules, `At most ${thresholdLimits.maxRules} threshold rules.`)
  .superRefine((rules, ctx) => {
    for (const [index, rule] of rules.entries()) {
      const twin = rules
        .slice(0, index)
        .some((earlier) => earlier.when === rule.when && earlier.value === rule.value);
      if (twin) {
        ctx.addIssue({
          code: "custom",
          path: [index, "value"],
          message: "Another rule already applies at this value.",
        });
      }
    }
  });

/** What a stat's value means against its rules: a tone and words, or null when no rule applies. */
export interface ThresholdStatus {
  tone: ThresholdTone;
  label: string;
}

/**
 * The rule a value meets; where several do, the one whose value is nearest wins, so "below 50
 * is bad" beats "below 100 is a warning" for 40.
 */
export function thresholdStatus(
  value: number | null,
  rules: readonly ThresholdRule[],
): ThresholdStatus | null {
  if (value === null || !Number.isFinite(value)) return null;
  let best: ThresholdRule | null = null;
  for (const rule of rules) {
    const meets = rule.when === "below" ? value < rule.value : value >= rule.value;
    if (!meets) continue;
    if (best === null || Math.abs(value - rule.value) < Math.abs(value - best.value)) best = rule;
  }
  if (!best) return null;
  const label =
    best.label && best.label.length > 0
      ? best.label
      : best.when === "below"
        ? "below target"
        : "at or above target";
  return { tone: best.tone, label };
}

export const statTileInputSchema = z.object({
  kind: z.literal("stat"),
  id: z.string().min(1).optional(),
  layout: tileLayoutSchema.optional(),
  label: requiredText("label", 80),
  datasetId: idSchema("dataset"),
  column: z.string({ error: "Choose a column." }).trim().min(1, "Choose a column."),
  aggregation: z.enum(aggregations, {
    error: "Aggregation must be sum, avg, last, min, max or count.",
  }),
  format: numberFormatSchema.optional(),
  icon: iconNameSchema.optional(),
  /** Rows the value counts, as in a chart query. */
  filters: z
    .array(queryFilterSchema)
    .max(queryLimits.maxFilters, `At most ${queryLimits.maxFilters} filters.`)
    .optional(),
  /** Show the change against the previous period of the relative date filter. */
  compare: z.boolean({ error: "Compare must be true or false." }).optional(),
  /** Rules that colour and name the value against targets, e.g. red "below target". */
  thresholds: thresholdsSchema.optional(),
});

export const tileInputSchema = z.discriminatedUnion(
  "kind",
  [chartTileInputSchema, statTileInputSchema, textTileInputSchema],
  {
    error: 'A tile\'s kind must be "chart", "stat" or "text".',
  },
);
export type TileInput = z.input<typeof tileInputSchema>;

/** Checks a stat tile's column against its dataset: count works on any column, the rest need numbers. */
export function checkStatTileColumn(
  tile: {
    column: string;
    aggregation: Aggregation;
    filters?: readonly QueryFilter[] | undefined;
    compare?: boolean | undefined;
  },
  columns: readonly DatasetColumn[],
): string | null {
  const column = columns.find((candidate) => candidate.name === tile.column);
  if (!column) return `The dataset has no column "${tile.column}".`;
  if (tile.aggregation !== "count" && column.type !== "number") {
    return `"${tile.column}" is a ${column.type} column; ${tile.aggregation} needs a number column.`;
  }
  const filters = tile.filters ?? [];
  // Filters are checked by the query rules, as a count over the tile's column.
  const problems = checkQuery(
    {
      x: { column: tile.column },
      measures: [{ column: null, aggregate: "count" }],
      filters: [...filters],
    },
    columns,
  );
  const first = Object.values(problems).flat()[0];
  if (first) return first;
  if (tile.compare && tile.aggregation === "last") {
    return "A last-value tile already compares with the value before it; turn comparison off.";
  }
  if (tile.compare && !filters.some((filter) => filter.op === "relative")) {
    return "A comparison needs a relative date filter, for example the last 30 days.";
  }
  return null;
}

export const slugSchema = z
  .string({ error: "Enter a slug." })
  .trim()
  .min(1, "Enter a slug.")
  .max(64, "Keep the slug under 65 characters.")
  .regex(slugPattern, "Use lowercase letters, digits and single hyphens, e.g. store-performance.");

const tilesSchema = z
  .array(tileInputSchema, { error: "Tiles must be a list." })
  .max(dashboardLimits.maxTiles, `A dashboard has at most ${dashboardLimits.maxTiles} tiles.`);

/** An IANA time zone for a dashboard's date buckets ("Europe/Paris"); null is UTC. */
export const timeZoneSchema = z
  .string({ error: "Choose a time zone." })
  .trim()
  .refine(isTimeZone, "Choose a time zone such as UTC or Europe/Paris.");

/** How often a dashboard's page refreshes itself, in seconds; null is off. */
export const refreshIntervals = [30, 60, 300, 900] as const;
export type RefreshSeconds = (typeof refreshIntervals)[number];

export const refreshSecondsSchema = z.union(
  refreshIntervals.map((seconds) => z.literal(seconds)),
  { error: "Choose off, 30 seconds, 1, 5 or 15 minutes." },
);

export const embedLimits = { maxOrigins: 20, maxOriginLength: 200 } as const;

// Each origin is written into a CSP header as is, so the patterns leave no room for anything else.
const dnsLabel = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const portPart = "(?::([0-9]{1,5}))?";
const domainOrigin = new RegExp(`^https://(\\*\\.)?(${dnsLabel}(?:\\.${dnsLabel})*)${portPart}$`);
const ipv4Origin = new RegExp(
  `^https://(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})${portPart}$`,
);
const localOrigin = new RegExp(`^https?://(?:localhost|127\\.0\\.0\\.1)${portPart}$`);

function isPort(text: string | undefined): boolean {
  return text === undefined || (Number(text) >= 1 && Number(text) <= 65_535);
}

/**
 * Why `origin` cannot be in an embed allowlist, or null when it can. Allowed: https://host[:port]
 * (a domain or an IPv4 address), https://*.example.com (its subdomains, as CSP matches them: not
 * example.com itself, and never a bare `*.com`), and http(s)://localhost or 127.0.0.1 for
 * development. No paths, quotes, spaces or `;`: the origin goes into `frame-ancestors` as is.
 */
export function embedOriginProblem(origin: string): string | null {
  const short = origin.length > 60 ? `${origin.slice(0, 59)}…` : origin;
  if (origin.length > embedLimits.maxOriginLength) return `"${short}" is too long.`;
  const local = localOrigin.exec(origin);
  if (local) return isPort(local[1]) ? null : `"${short}" has a port outside 1-65535.`;
  if (origin.startsWith("http://")) {
    return `"${short}": use https (plain http is allowed only for localhost).`;
  }
  const ip = ipv4Origin.exec(origin);
  if (ip) {
    if (ip.slice(1, 5).some((octet) => Number(octet) > 255)) return `"${short}" is not an address.`;
    return isPort(ip[5]) ? null : `"${short}" has a port outside 1-65535.`;
  }
  const domain = domainOrigin.exec(origin);
  if (domain) {
    if (!isPort(domain[3])) return `"${short}" has a port outside 1-65535.`;
    if ((domain[2] ?? "").split(".").length >= 2) return null;
    // "*.com" would let every site under a top-level domain frame the page.
    return domain[1]
      ? `"${short}": a wildcard needs a domain under it, e.g. https://*.example.com.`
      : `"${short}" needs a full host name, e.g. https://example.com.`;
  }
  return `"${short}" is not an origin: write https://host or https://host:port, with no path.`;
}

/** Normalises what people paste: trims, lowercases, drops one trailing slash. */
export function normalizeEmbedOrigin(text: string): string {
  return text.trim().toLowerCase().replace(/\/$/, "");
}

/** An embed allowlist: checked origins, normalised and without repeats. Errors name each entry. */
export const embedOriginsSchema = z
  .array(z.string({ error: "Each origin must be text." }), {
    error: "The allowed origins must be a list.",
  })
  .transform((origins, ctx) => {
    const normalized = [
      ...new Set(origins.map(normalizeEmbedOrigin).filter((origin) => origin !== "")),
    ];
    for (const origin of normalized) {
      const problem = embedOriginProblem(origin);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }
    if (normalized.length > embedLimits.maxOrigins) {
      ctx.addIssue({
        code: "custom",
        message: `Allow at most ${embedLimits.maxOrigins} origins.`,
      });
    }
    return normalized;
  });

export const dashboardInputSchema = z.object({
  title: requiredText("title", 120),
  slug: slugSchema,
  description: optionalText("description", 500).default(""),
  icon: iconNameSchema.nullable().default(null),
  timeZone: timeZoneSchema.nullable().default(null),
  embedOrigins: embedOriginsSchema.default([]),
  refreshSeconds: refreshSecondsSchema.nullable().default(null),
  filters: dashboardFilterConfigSchema.default(noDashboardFilters),
  published: z.boolean({ error: "Published must be true or false." }).default(false),
  tiles: tilesSchema.default([]),
});
export type DashboardInput = z.input<typeof dashboardInputSchema>;

export const dashboardPatchSchema = z.object({
  title: requiredText("title", 120).optional(),
  slug: slugSchema.optional(),
  description: optionalText("description", 500).optional(),
  icon: iconNameSchema.nullable().optional(),
  timeZone: timeZoneSchema.nullable().optional(),
  embedOrigins: embedOriginsSchema.optional(),
  refreshSeconds: refreshSecondsSchema.nullable().optional(),
  filters: dashboardFilterConfigSchema.optional(),
  tiles: tilesSchema.optional(),
});
export type DashboardPatch = z.input<typeof dashboardPatchSchema>;

/** A whole dashboard's arrangement, saved at once: every tile of the dashboard with its place. */
export const dashboardLayoutSchema = z
  .array(z.object({ tileId: z.string().min(1, "Name the tile."), ...tileLayoutSchema.shape }), {
    error: "The layout must be a list of tiles.",
  })
  .max(dashboardLimits.maxTiles, `A dashboard has at most ${dashboardLimits.maxTiles} tiles.`);
export type DashboardLayoutInput = z.input<typeof dashboardLayoutSchema>;

/** Turns a slug-ish title into a URL-safe slug suggestion ("Store Performance!" -> "store-performance"). */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/g, "");
}

/** Flattens a ZodError into per-field messages keyed by dotted path ("tiles.0.chartId"). */
export function formatZodError(error: ZodError): FieldErrors {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const issue of error.issues) {
    if (issue.path.length === 0) {
      formErrors.push(issue.message);
      continue;
    }
    const key = issue.path.map(String).join(".");
    const messages = fieldErrors[key] ?? [];
    if (!messages.includes(issue.message)) messages.push(issue.message);
    fieldErrors[key] = messages;
  }
  return formErrors.length > 0 ? { fieldErrors, formError: formErrors.join(" ") } : { fieldErrors };
}

/** Bounds of a live source's settings (src/sources). */
export const sourceLimits = {
  maxNameLength: 100,
  maxHostLength: 253,
  maxIdentifierLength: 63,
  maxPasswordLength: 200,
  defaultStatementTimeoutMs: 5_000,
  minStatementTimeoutMs: 100,
  maxStatementTimeoutMs: 60_000,
  defaultRowCap: 100_000,
  minRowCap: 1,
  maxRowCap: 1_000_000,
  defaultCacheTtlSeconds: 300,
  maxCacheTtlSeconds: 86_400,
} as const;

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

const sourceText = (label: string, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, `Enter the ${label}.`)
    .max(max, `Keep the ${label} under ${max + 1} characters.`);

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
