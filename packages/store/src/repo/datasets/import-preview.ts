import {
  type CellValue,
  type ColumnFormat,
  type DatasetColumnType,
  type ImportColumnChoices,
  NotFoundError,
  previewsFromHead,
  setOwn,
  ValidationError,
} from "@seed/model";
import { type Actor, authorize } from "../../access/policy.js";
import type { StoreContext } from "../../context.js";
import type { TableColumn } from "../../db/dataset-table.js";
import type { TypedRecord } from "./binary-records.js";
import { maxListedCsvProblems, resolveCsvDialect } from "./csv.js";
import type { CsvDelimiter, CsvDialect, DecimalSeparator } from "./csv-dialect.js";
import type { CsvRecord } from "./csv-records.js";
import { rowsStateOf } from "./datasets.js";
import { type CsvEncoding, CsvEncodingError, decodeCsvBytes } from "./encoding.js";
import {
  type ColumnReading,
  checkHeaderNamesColumns,
  checkSavedNames,
  noHeader,
  noRows,
  readColumns,
  suggestHeaderLine,
} from "./import-columns.js";
import {
  checkHeader,
  csvRecords,
  DatasetImportError,
  describeAt,
  type ImportFormat,
  type ImportLineProblem,
  typedCell,
} from "./import-input.js";
import { jsonArrayHead } from "./json-records.js";

// What a file will become before anything is saved: its encoding, separator and decimal mark,
// each column's type and format (detected, or as chosen), its first rows as they will be stored
// and every problem in the rows read. The same readers, detection and checks as the import
// itself (import-input.ts, import-columns.ts), on the head of the file the browser sends.

/** Rows the preview reads (as the import types a new dataset's columns from). */
export const previewSampleRows = 1_000;
/** Rows the preview shows. */
export const previewShownRows = 20;

export interface ImportPreviewInput {
  /** The start of the file, or all of it (`complete`). */
  bytes: Uint8Array;
  complete: boolean;
  format?: ImportFormat;
  delimiter?: CsvDelimiter | "auto";
  decimal?: DecimalSeparator | "auto";
  /** An encoding iconv-lite knows, or "auto" (the default) to detect it. */
  encoding?: string;
  sheet?: string;
  /** The line that names the columns (see ImportOptions.headerRow). */
  headerRow?: number;
  columns?: ImportColumnChoices;
  /** Preview an import into this dataset: its column types stand. */
  datasetId?: string;
}

export interface PreviewRow {
  line: number;
  /** Each column's value as it will be stored, by header; a cell that does not fit is null. */
  values: Record<string, CellValue>;
  /** Headers of the cells that do not fit their column, with the text the file holds. */
  misfits: Record<string, string>;
}

export interface ImportPreview {
  format: ImportFormat;
  /** How the bytes are decoded (null when reading stopped before). */
  encoding: CsvEncoding | null;
  /** CSV only: the separator and decimal mark, detected or as chosen. */
  dialect: CsvDialect | null;
  columns: ColumnReading[];
  rows: PreviewRow[];
  /** Data rows read: the first `previewSampleRows`, or all when the file has fewer. */
  sampleRows: number;
  /** Whether the rows read are the whole file (a longer file is checked again as it imports). */
  complete: boolean;
  /** Every problem in the rows read, in file order, up to maxListedCsvProblems. */
  problems: ImportLineProblem[];
  problemCount: number;
  /** Reading stopped here: bytes that do not decode, broken quoting, a bad header. */
  stopped: ImportLineProblem | null;
  /**
   * The line the table seems to start on when the lines above it look like notes (a title, an
   * export date): offered, never applied unasked. Null when the header row fits.
   */
  suggestedHeaderRow: number | null;
  /** An Excel workbook's sheets, in its order (the first is read when none is named). */
  sheets: string[] | null;
}

/** Where a cut head of a file may end: after its last whole line (in UTF-16, on whole units). */
function wholeLines(bytes: Uint8Array, encoding: string | undefined): Uint8Array {
  const chosen = (encoding ?? "auto").toLowerCase().replace(/[^a-z0-9]/g, "");
  const bigEndian = (bytes[0] === 0xfe && bytes[1] === 0xff) || chosen === "utf16be";
  const littleEndian =
    (bytes[0] === 0xff && bytes[1] === 0xfe) || chosen === "utf16le" || chosen === "utf16";
  for (let at = bytes.length - 1; at >= 0; at--) {
    if (bytes[at] !== 0x0a) continue;
    if (littleEndian && !bigEndian) {
      if (at % 2 === 0 && bytes[at + 1] === 0x00) return bytes.subarray(0, at + 2);
    } else if (bigEndian) {
      if (at % 2 === 1 && bytes[at - 1] === 0x00) return bytes.subarray(0, at + 1);
    } else return bytes.subarray(0, at + 1);
  }
  return bytes;
}

function lineProblemOf(error: DatasetImportError): ImportLineProblem {
  const [first] = error.lineProblems;
  return (
    first ?? {
      code: error.code,
      message: error.message,
      line: error.line,
      column: error.column,
      row: error.row,
    }
  );
}

/**
 * The preview of a file (or its head): nothing is written. A head is cut after its last whole
 * line; a JSON array is read whole only (send the whole file). Problems are told, never thrown,
 * except a choice the file cannot take (a column it does not have), which names the field.
 */
export async function previewImport(
  ctx: StoreContext,
  input: ImportPreviewInput,
  actor: Actor,
): Promise<ImportPreview> {
  authorize(actor, "content.write");
  const format = input.format ?? "csv";
  if (!input.complete && !previewsFromHead(format)) {
    throw new ValidationError({
      fieldErrors: { file: ["This kind of file is previewed whole; send all of it."] },
    });
  }
  let fixedColumns: readonly TableColumn[] | null = null;
  if (input.datasetId !== undefined) {
    const row = await ctx.db
      .selectFrom("datasets")
      .select(["version", "columns_json", "rows_generation"])
      .where("id", "=", input.datasetId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError("dataset", input.datasetId);
    fixedColumns = rowsStateOf(input.datasetId, row).columns;
  }
  const chosenEncoding = input.encoding && input.encoding !== "auto" ? input.encoding : null;
  const arrayHead = format === "json" && !input.complete ? jsonArrayHead(input.bytes) : null;
  // A JSON array's first whole rows; a text that is no array goes to the reader, which says why.
  const sent =
    input.complete || arrayHead === "not_array"
      ? input.bytes
      : arrayHead === null
        ? wholeLines(input.bytes, input.encoding)
        : arrayHead;
  const preview: ImportPreview = {
    format,
    encoding: null,
    dialect: null,
    columns: [],
    rows: [],
    sampleRows: 0,
    complete: input.complete,
    problems: [],
    problemCount: 0,
    stopped: null,
    suggestedHeaderRow: null,
    sheets: null,
  };
  if (sent === "no_row") {
    preview.stopped = {
      code: "invalid_json",
      message:
        "The first row of the array does not end in the part of the file the preview reads; the import reads the whole file and checks every row.",
      line: 1,
      column: null,
      row: null,
    };
    return preview;
  }
  const bytes = sent;
  let delimiter: CsvDelimiter =
    input.delimiter && input.delimiter !== "auto" ? input.delimiter : ",";
  let decimal: DecimalSeparator = input.decimal && input.decimal !== "auto" ? input.decimal : ".";
  if (format === "csv") {
    try {
      const { text } = decodeCsvBytes(bytes.subarray(0, 64 * 1024), chosenEncoding);
      preview.dialect = resolveCsvDialect(text, {
        delimiter: input.delimiter ?? "auto",
        decimal: input.decimal ?? "auto",
      });
      delimiter = preview.dialect.delimiter;
      decimal = preview.dialect.decimal;
    } catch (error) {
      // Bytes that do not decode are told by the full read below, with their line.
      if (!(error instanceof CsvEncodingError)) throw error;
      preview.dialect = { delimiter, decimal };
    }
  }

  let header: TypedRecord | null = null;
  const sample: CsvRecord[] = [];
  // The first records, header or not, to see whether the table starts lower down.
  const leading: CsvRecord[] = [];
  const headerRow = input.headerRow ?? 1;
  let headerFailed = false;
  try {
    const records = csvRecords(
      (async function* () {
        yield bytes;
      })(),
      Number.POSITIVE_INFINITY,
      () => {},
      undefined,
      delimiter,
      {
        chosen: chosenEncoding,
        onEncoding: (found) => {
          preview.encoding = found;
        },
      },
      format,
      input.sheet,
      input.headerRow,
      (names) => {
        preview.sheets = [...names];
      },
    );
    reading: for await (const batch of records) {
      for (const record of batch) {
        if (leading.length < 50) leading.push(record);
        if (headerFailed) {
          // Read on only to see where the table starts.
          if (leading.length >= 50) break reading;
        } else if (!header) {
          if (record.line < headerRow) continue;
          try {
            checkHeader(record);
            header = record;
          } catch (error) {
            if (!(error instanceof DatasetImportError)) throw error;
            preview.stopped = lineProblemOf(error);
            headerFailed = true;
          }
        } else {
          sample.push(record);
          if (sample.length >= previewSampleRows) break reading;
        }
      }
    }
  } catch (error) {
    if (!(error instanceof DatasetImportError)) throw error;
    // A head cut inside a quoted value spanning lines ends in an open quote: not the file's
    // fault (the import reads on); anything else stops here.
    if (input.complete || error.code !== "invalid_csv" || sample.length === 0) {
      preview.stopped = lineProblemOf(error);
    }
  }
  // A head cut short holds a last line that may be the first of many more; a whole file is done.
  preview.complete = input.complete && sample.length < previewSampleRows;
  if (input.headerRow === undefined || input.headerRow === 1) {
    preview.suggestedHeaderRow = suggestHeaderLine(leading);
  }
  if (!header) {
    if (!preview.stopped) preview.stopped = lineProblemOf(noHeader(input.headerRow));
    return preview;
  }
  const head = header as TypedRecord;
  let fixed: (DatasetColumnType | undefined)[] | undefined;
  let fixedFormats: (ColumnFormat | undefined)[] | undefined;
  if (fixedColumns) {
    const byName = new Map(fixedColumns.map((column) => [column.name, column.type]));
    const formatOf = new Map(fixedColumns.map((column) => [column.name, column.format]));
    try {
      checkHeaderNamesColumns(head.cells, fixedColumns, head.line);
    } catch (error) {
      if (!(error instanceof DatasetImportError)) throw error;
      preview.stopped = lineProblemOf(error);
      return preview;
    }
    fixed = head.cells.map((name) => byName.get(name));
    fixedFormats = head.cells.map((name) => formatOf.get(name));
  }
  preview.columns = readColumns(head.cells, sample, {
    decimal,
    ...(head.types ? { declared: head.types } : {}),
    ...(fixed ? { fixed } : {}),
    ...(fixedFormats ? { fixedFormats } : {}),
    choices: input.columns ?? {},
    headerLine: head.line,
  });
  try {
    checkSavedNames(preview.columns, head.line);
  } catch (error) {
    // The columns stay shown, so the name at fault can be changed.
    if (!(error instanceof DatasetImportError)) throw error;
    preview.stopped = lineProblemOf(error);
  }
  // A whole file with a header and no row: the import refuses it, so the preview says so.
  if (input.complete && sample.length === 0 && !preview.stopped) {
    preview.stopped = lineProblemOf(noRows(head.line));
  }
  preview.sampleRows = sample.length;
  const problem = (found: ImportLineProblem) => {
    preview.problemCount++;
    if (preview.problems.length < maxListedCsvProblems) preview.problems.push(found);
  };
  for (const [index, record] of sample.entries()) {
    const row = index + 1;
    if (record.cells.length !== head.cells.length) {
      const reason = `expected ${head.cells.length} values (one per column), got ${record.cells.length}.`;
      problem({
        code: "wrong_value_count",
        message: describeAt(record.line, null, reason),
        line: record.line,
        column: null,
        row,
      });
      continue;
    }
    const shown: PreviewRow = { line: record.line, values: {}, misfits: {} };
    for (const [at, column] of preview.columns.entries()) {
      const cell = record.cells[at] ?? "";
      const typed = typedCell(column.type, cell, column.format);
      if (typed.ok) {
        // As a dataset reads it back: a boolean as the text "true"/"false".
        setOwn(
          shown.values,
          column.header,
          typeof typed.value === "boolean" ? String(typed.value) : typed.value,
        );
      } else {
        setOwn(shown.values, column.header, null);
        setOwn(shown.misfits, column.header, cell.slice(0, 200));
        problem({
          code: typed.code,
          message: describeAt(record.line, column.header, typed.reason),
          line: record.line,
          column: column.header,
          row,
        });
      }
    }
    if (preview.rows.length < previewShownRows) preview.rows.push(shown);
  }
  return preview;
}

export const previewOperations = { previewImport };
