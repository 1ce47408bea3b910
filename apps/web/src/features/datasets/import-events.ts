// What the import route answers, one JSON object per line, shared by the route and the form.

/** Header the upload form sets; cross-site forms cannot, so a forged upload is refused. */
export const importEventsHeader = "x-seed-import";

export type ImportEvent =
  | { type: "progress"; rows: number; bytes: number }
  | { type: "done"; datasetId: string; version: number; imported: number; rowCount: number }
  | {
      type: "error";
      /** A DatasetImportError code, a store error's kind (conflict, not_found, invalid, forbidden...), or failed. */
      code: string;
      line: number | null;
      column: string | null;
      message: string;
      /** Every bad line found, up to 100, when the file had bad rows (the first one included). */
      problems?: { message: string; line: number | null; column: string | null }[];
      /** How many bad lines there were in all. */
      problemCount?: number;
    };
