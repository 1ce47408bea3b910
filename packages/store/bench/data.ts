import { writeFileSync } from "node:fs";
import { salesCsvChunks } from "@seed/sample-data";

/**
 * A CSV of `rows` daily rows like real sales (@seed/sample-data): consecutive dates, skewed
 * regions, a random-walk revenue, an integer, a random-walk price; a fixed seed.
 */
export function writeSalesCsv(file: string, rows: number): void {
  writeFileSync(file, [...salesCsvChunks(rows)].join(""));
}
