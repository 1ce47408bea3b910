import type { JsonLimits } from "./json-input.js";

// Every bound on what people may store, in one place: forms, the store and the API read these.

/** A size in bytes as people read it: "100 MB", "1 GB", "2.5 KB", "12 bytes" (binary units). */
export function formatBytes(bytes: number): string {
  const units: Array<[number, string]> = [
    [1024 ** 3, "GB"],
    [1024 ** 2, "MB"],
    [1024, "KB"],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${(bytes / size).toFixed(1).replace(/\.0$/, "")} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** What one dataset may hold, by where its rows live (the store's rows home). */
export interface RowsLimits {
  /** Most rows a dataset holds when filled by streamed CSV import or pushes. */
  maxImportRows: number;
  /** Largest CSV file one import reads, in bytes. */
  maxImportBytes: number;
  /**
   * Largest dataset, in stored bytes: UTF-8 bytes of text cells plus 8 per filled number, date,
   * timestamp or boolean cell (see cellBytes in store's db/rows-table.ts). Appends and edits
   * cannot grow past it.
   */
  maxDatasetBytes: number;
}

/**
 * The row stores (SQLite, PostgreSQL: "state") keep a million rows interactive; the DuckDB data
 * file ("data-file", a column store) ten million.
 */
export const rowsLimits = {
  state: {
    maxImportRows: 1_000_000,
    maxImportBytes: 100 * 1024 * 1024,
    maxDatasetBytes: 256 * 1024 * 1024,
  },
  "data-file": {
    maxImportRows: 10_000_000,
    maxImportBytes: 1024 * 1024 * 1024,
    maxDatasetBytes: 2 * 1024 * 1024 * 1024,
  },
} as const satisfies Record<string, RowsLimits>;

export const datasetLimits = {
  maxRows: 50_000,
  maxColumns: 50,
  maxColumnNameLength: 64,
  /** Longest text cell; longer cells are refused, so no cell can hold a CPU or a page. */
  maxCellLength: 4_000,
  /** Longest number as text: far beyond what a double holds, short enough to scan in no time. */
  maxNumberLength: 400,
  /** The row stores' import, file and size limits (rowsLimits.state; in-memory writes: maxRows). */
  ...rowsLimits.state,
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

/** The names people give records: titles, names, descriptions, slugs, stat labels. */
export const textLimits = {
  title: 120,
  name: 120,
  description: 500,
  slug: 64,
  statLabel: 80,
} as const;

export const dashboardLimits = { maxTiles: 48 } as const;
export const chartLimits = {
  maxSeries: 12,
  /** Hand-typed annotations (markers and bands) on one chart. */
  maxAnnotations: 30,
  /** Longest annotation text: it is written in the plot and in every tooltip it covers. */
  maxAnnotationLabel: 80,
  /**
   * Events a chart reads from a dataset (annotationSource), within the range it shows: past
   * this many, the first ones and a note saying how many there were.
   */
  maxSourcedAnnotations: 100,
  /** A table's conditional colours: rules, and the words each says beside its colour. */
  maxColorRules: 10,
  maxColorRuleLabel: 40,
} as const;

export const textTileLimits = { maxLength: 2_000 } as const;

export const thresholdLimits = { maxRules: 4, maxLabelLength: 40 } as const;

export const embedLimits = { maxOrigins: 20, maxOriginLength: 200 } as const;

/** Bounds of a live source's settings (the store's repo/sources). */
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
  /** The chart editor's whole form (query, options, title), sent as one JSON field on save. */
  chartForm: { maxBytes: 64 * 1024, maxDepth: maxJsonDepth, maxValues: 20_000 },
  /** The layout composer's tiles and places. */
  dashboardLayout: { maxBytes: 64 * 1024, maxDepth: maxJsonDepth, maxValues: 4_000 },
  /** The import form's choices for a file's columns: name, type and format, by header. */
  columnChoices: { maxBytes: 20_000, maxDepth: maxJsonDepth, maxValues: 1_000 },
  /** The table editor's changed, removed and added rows (the server action body is 3 MB at most). */
  rowEdits: { maxBytes: 3 * 1024 * 1024, maxDepth: maxJsonDepth, maxValues: 250_000 },
  /** An audit log page cursor: [at, id]. */
  auditCursor: { maxBytes: 1_024, maxDepth: maxJsonDepth, maxValues: 8 },
} as const satisfies Record<string, JsonLimits>;
