import { closeSync, openSync, writeSync } from "node:fs";
import { salesCsvChunks } from "@seed/sample-data";

/**
 * A CSV of `rows` daily rows like real sales (@seed/sample-data): consecutive dates, skewed
 * regions, a random-walk revenue, an integer, a random-walk price; a fixed seed. Written chunk by
 * chunk, so 10,000,000 rows never sit in one string.
 */
export function writeSalesCsv(file: string, rows: number): void {
  const handle = openSync(file, "w");
  try {
    for (const chunk of salesCsvChunks(rows)) writeSync(handle, chunk);
  } finally {
    closeSync(handle);
  }
}
