import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import type { CsvRecord } from "./csv-records.js";
import { spoolUpload } from "./upload-bytes.js";

// Excel workbooks (.xlsx) as the import's records, the shape CSV text becomes (csv-records.ts), so
// they go through the same typing, checks and writes. The file is spooled to a temporary folder
// (counted against the size limit) and read row by row by exceljs's streaming reader: the first
// worksheet, or the one named; its first row names the columns. Each cell becomes the text a CSV
// export would hold: numbers as written by JavaScript, dates as ISO days (or day and time),
// formulas as their last result, rich text as its text, errors (#N/A) as written, so a typed
// column reports them at their line instead of dropping them.

/** The workbook cannot be read, or the sheet asked for is not in it. */
export class XlsxFileError extends Error {
  override name = "XlsxFileError";
  constructor(
    readonly code: "invalid_file" | "unknown_sheet",
    readonly reason: string,
  ) {
    super(reason);
  }
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

/**
 * A date cell as text. Excel keeps no zone: exceljs hands the wall-clock time as if it were UTC,
 * so the UTC fields are the ones the sheet shows (the import reads a time without offset as UTC).
 */
function dateText(value: Date): string {
  if (Number.isNaN(value.getTime())) return "";
  const day = `${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  const ms = value.getTime() % 86_400_000;
  if (ms === 0) return day;
  const seconds = value.getUTCSeconds();
  const millis = value.getUTCMilliseconds();
  const time = `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}`;
  const fraction = millis > 0 ? `.${pad(millis, 3)}` : "";
  return `${day} ${time}${seconds > 0 || millis > 0 ? `:${pad(seconds)}${fraction}` : ""}`;
}

/** A cell's value as the text a CSV export would hold (see the module comment). */
export function xlsxCellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return dateText(value);
  if (typeof value === "object") {
    const cell = value as {
      result?: unknown;
      formula?: string;
      sharedFormula?: string;
      richText?: { text: string }[];
      text?: unknown;
      error?: string;
    };
    if ("richText" in cell && Array.isArray(cell.richText)) {
      return cell.richText.map((part) => part.text).join("");
    }
    if ("formula" in cell || "sharedFormula" in cell) return xlsxCellText(cell.result);
    if (typeof cell.error === "string") return cell.error;
    // A hyperlink: the text shown.
    if ("text" in cell) return xlsxCellText(cell.text);
  }
  return String(value);
}

/** The parts of exceljs's streaming reader that decide when a sheet is read (not typed). */
interface ReaderInternals {
  _parseRels(entry: unknown): Promise<void>;
  _parseWorkbook(entry: unknown): Promise<void>;
  _parseStyles(entry: unknown): Promise<void>;
  _parseWorksheet(...args: unknown[]): Generator<unknown>;
  workbookRels?: unknown;
}

/**
 * exceljs reads a sheet the moment its part arrives once the shared strings and the workbook's
 * relationships are read, and needs the workbook part (the sheet's name) and the styles (which
 * numbers are dates) by then: a file that stores a sheet before xl/workbook.xml but after those
 * two (a valid order, and one exceljs's own writer produces under load) failed with "Cannot read
 * properties of undefined (reading 'sheets')". Until the workbook part and the styles are read,
 * the relationships are held back, so such a sheet is set aside (spooled) and read after every
 * other part, as exceljs does for a sheet that comes before the strings.
 */
function keepSheetsAfterWorkbook(reader: unknown): void {
  const internals = reader as ReaderInternals;
  const parseRels = internals._parseRels.bind(reader);
  const parseWorkbook = internals._parseWorkbook.bind(reader);
  const parseStyles = internals._parseStyles.bind(reader);
  const parseWorksheet = internals._parseWorksheet.bind(reader);
  const read = { workbook: false, styles: false };
  let held: unknown;
  const release = () => {
    if (held === undefined) return;
    internals.workbookRels = held;
    held = undefined;
  };
  internals._parseRels = async (entry) => {
    await parseRels(entry);
    if (!(read.workbook && read.styles)) {
      held = internals.workbookRels;
      internals.workbookRels = undefined;
    }
  };
  internals._parseWorkbook = async (entry) => {
    await parseWorkbook(entry);
    read.workbook = true;
    if (read.styles) release();
  };
  internals._parseStyles = async (entry) => {
    await parseStyles(entry);
    read.styles = true;
    if (read.workbook) release();
  };
  // A sheet set aside is read after every part: whatever was held is known by then.
  internals._parseWorksheet = function* (...args: unknown[]) {
    release();
    yield* parseWorksheet(...args);
  };
}

/**
 * The records of an .xlsx byte stream in batches: first the header (the sheet's first row, at its
 * row number), then one record per row after it, each at its row number in the sheet. Blank rows
 * are left out, as a CSV reader leaves out blank lines.
 */
export async function* xlsxRecords(
  source: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>,
  maxBytes: number,
  onBytes: (bytes: number) => void,
  expectedBytes: number | undefined,
  sheet?: string,
  /** The row that names the columns (rows above it are notes): it fixes the width. */
  headerRow = 1,
  /** Hears the workbook's sheet names, in its order, once they are known. */
  onSheets?: (names: readonly string[]) => void,
  batchSize = 2_000,
): AsyncGenerator<CsvRecord[]> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "seed-import-"));
  try {
    const file = path.join(folder, "upload.xlsx");
    await spoolUpload(source, file, maxBytes, onBytes, expectedBytes);
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
      sharedStrings: "cache",
      // Styles say which numbers are dates; hyperlinks and other parts are not needed.
      styles: "cache",
      hyperlinks: "ignore",
      worksheets: "emit",
      entries: "ignore",
    });
    keepSheetsAfterWorkbook(reader);
    const names: string[] = [];
    let found = false;
    let width = 0;
    let batch: CsvRecord[] = [];
    try {
      for await (const worksheet of reader) {
        const name = (worksheet as unknown as { name?: string }).name ?? "";
        if (names.length === 0) {
          // The workbook part (read before any sheet) lists every sheet by name.
          const listed = (reader as unknown as { model?: { sheets?: { name?: string }[] } }).model
            ?.sheets;
          onSheets?.(listed?.map((entry) => entry.name ?? "") ?? [name]);
        }
        names.push(name);
        if (found || (sheet !== undefined && sheet !== name)) {
          // exceljs reads sheets in order: the rest of this one is skipped unread.
          for await (const _row of worksheet) {
            // drained
          }
          continue;
        }
        found = true;
        for await (const row of worksheet) {
          const values = row.values as unknown[];
          // Values are 1-based; a header fixes the width, and later rows are cut or padded to it
          // only where they are empty (a value past the header is a problem the import names).
          const cells: string[] = [];
          for (let index = 1; index < values.length; index++) {
            cells.push(xlsxCellText(values[index]));
          }
          while (cells.length > 0 && cells[cells.length - 1] === "" && cells.length > width) {
            cells.pop();
          }
          if (cells.every((cell) => cell === "")) continue;
          // The header's checks (names, count) are the import's own, as for every format.
          if (row.number < headerRow) {
            // A note above the table: as it is, the width still open.
          } else if (width === 0) width = cells.length;
          else {
            while (cells.length < width) cells.push("");
          }
          batch.push({ cells, line: row.number });
          if (batch.length >= batchSize) {
            yield batch;
            batch = [];
          }
        }
      }
    } catch (error) {
      if (error instanceof XlsxFileError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new XlsxFileError(
        "invalid_file",
        `the file could not be read as an Excel workbook (.xlsx): ${reason}.`,
      );
    }
    if (sheet !== undefined && !found) {
      throw new XlsxFileError(
        "unknown_sheet",
        `the workbook has no sheet named "${sheet}"; its sheets are ${names.map((n) => `"${n}"`).join(", ")}.`,
      );
    }
    if (batch.length > 0) yield batch;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
