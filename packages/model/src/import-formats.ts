// The kinds of file an import reads, and which one a file's name says: one rule for the upload
// form (which sends the format) and the store (which reads it).

/**
 * CSV text, a JSON array of objects, NDJSON lines, or the columnar Parquet and Arrow IPC files
 * (whose own column types stand).
 */
export const importFormats = ["csv", "json", "ndjson", "parquet", "arrow"] as const;
export type ImportFormat = (typeof importFormats)[number];

/** The format a file's name says; anything else is read as CSV (its dialect is detected). */
export function importFormatOf(fileName: string): ImportFormat {
  const name = fileName.toLowerCase();
  if (name.endsWith(".json")) return "json";
  if (name.endsWith(".ndjson") || name.endsWith(".jsonl")) return "ndjson";
  if (name.endsWith(".parquet")) return "parquet";
  if (name.endsWith(".arrow") || name.endsWith(".feather") || name.endsWith(".ipc")) return "arrow";
  return "csv";
}

/** What the file input accepts. */
export const importFileAccept =
  ".csv,.tsv,.txt,.json,.ndjson,.jsonl,.parquet,.arrow,.feather,.ipc,text/csv,text/plain,application/json,application/x-ndjson,application/vnd.apache.parquet,application/vnd.apache.arrow.file";
