// The kinds of file an import reads, and which one a file's name says: one rule for the upload
// form (which sends the format) and the store (which reads it).

/**
 * CSV text, a JSON array of objects, NDJSON lines, the columnar Parquet and Arrow IPC files
 * (whose own column types stand), or an Excel workbook (.xlsx; one sheet, typed as CSV is).
 */
export const importFormats = ["csv", "json", "ndjson", "parquet", "arrow", "xlsx"] as const;
export type ImportFormat = (typeof importFormats)[number];

/** The format a file's name says; anything else is read as CSV (its dialect is detected). */
export function importFormatOf(fileName: string): ImportFormat {
  const name = fileName.toLowerCase();
  if (name.endsWith(".json")) return "json";
  if (name.endsWith(".ndjson") || name.endsWith(".jsonl")) return "ndjson";
  if (name.endsWith(".parquet")) return "parquet";
  if (name.endsWith(".xlsx")) return "xlsx";
  if (name.endsWith(".arrow") || name.endsWith(".feather") || name.endsWith(".ipc")) return "arrow";
  return "csv";
}

/** The longest name Excel gives a sheet: a sheet asked for by name is at most this long. */
export const xlsxSheetNameLength = 31;

/** What the file input accepts. */
export const importFileAccept =
  ".csv,.tsv,.txt,.json,.ndjson,.jsonl,.parquet,.arrow,.feather,.ipc,.xlsx,text/csv,text/plain,application/json,application/x-ndjson,application/vnd.apache.parquet,application/vnd.apache.arrow.file,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * The most of a text file (CSV, NDJSON, a JSON array) the import form sends for a preview: its
 * first lines, or the array's first whole elements.
 */
export const previewHeadBytes = 1024 * 1024;
/** Files a preview must read whole (workbooks, columnar files), up to this size. */
export const previewWholeBytes = 32 * 1024 * 1024;

/** Whether a preview can read the start of a file of this format (else it needs all of it). */
export function previewsFromHead(format: ImportFormat): boolean {
  return format === "csv" || format === "ndjson" || format === "json";
}
