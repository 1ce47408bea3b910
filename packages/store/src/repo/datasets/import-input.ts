// The streamed import's input: CSV text read into records, each cell typed, and the error that
// names the line and column of the first bad one.
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  type CellValue,
  type ColumnFormat,
  columnTypeSpecs,
  type DatasetColumnType,
  datasetLimits,
  describeValue,
  expectedCell,
  type ImportFormat,
  readCell,
  ValidationError,
} from "@seed/model";
import { BinaryFileError, binaryRecords } from "./binary-records.js";
import type { CsvProblemCode } from "./csv.js";
import { type CsvRecord, CsvSyntaxError, streamCsvRecords } from "./csv-records.js";
import { type CsvEncoding, CsvEncodingError, CsvTextDecoder } from "./encoding.js";
import { JsonFieldError, JsonSyntaxError, streamJsonRecords } from "./json-records.js";
import { byteCounter, UploadBytesError } from "./upload-bytes.js";
import { XlsxFileError, xlsxRecords } from "./xlsx-records.js";

// The formats' list and names are @seed/model's (import-formats.ts); Parquet and Arrow are read
// by binary-records.ts, Excel workbooks by xlsx-records.ts.
export { type ImportFormat, importFormats } from "@seed/model";

/**
 * Records of a file's byte stream in batches (CSV: csv-records.ts; JSON and NDJSON:
 * json-records.ts), counting raw bytes against the limit and decoding them in the chosen or
 * detected encoding (see encoding.ts); `onEncoding` hears which once the first bytes are read.
 */
export async function* csvRecords(
  source: CsvSource,
  maxBytes: number,
  onBytes: (bytes: number) => void,
  expectedBytes: number | undefined,
  delimiter: string,
  encoding?: { chosen?: string | null; onEncoding?: (encoding: CsvEncoding) => void },
  format: ImportFormat = "csv",
  /** With an Excel workbook: the sheet to read (the first when not named). */
  sheet?: string,
  /** With an Excel workbook: the row that names the columns. */
  headerRow?: number,
  /** With an Excel workbook: hears its sheets' names. */
  onSheets?: (names: readonly string[]) => void,
): AsyncGenerator<CsvRecord[]> {
  if (format === "xlsx" || format === "parquet" || format === "arrow") {
    // Spooled and read whole: workbooks and columnar files keep their text as UTF-8 inside, so
    // there is nothing to decode or detect; columnar files also say their own types.
    encoding?.onEncoding?.({ name: "UTF-8", source: "detected", confidence: null });
    try {
      yield* format === "xlsx"
        ? xlsxRecords(source, maxBytes, onBytes, expectedBytes, sheet, headerRow, onSheets)
        : binaryRecords(source, format, maxBytes, onBytes, expectedBytes);
    } catch (error) {
      if (
        error instanceof XlsxFileError ||
        error instanceof BinaryFileError ||
        error instanceof UploadBytesError
      ) {
        throw new DatasetImportError(error.code, error.reason);
      }
      throw error;
    }
    return;
  }
  let decoder: CsvTextDecoder;
  try {
    decoder = new CsvTextDecoder(encoding?.chosen);
  } catch (error) {
    throw importError(error);
  }
  let told = false;
  const tell = () => {
    if (told || !decoder.encoding) return;
    told = true;
    encoding?.onEncoding?.(decoder.encoding);
  };
  const reader = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let text: string;
      try {
        text = decoder.write(chunk);
      } catch (error) {
        // The encoding is known even when its first bytes do not decode in it.
        tell();
        callback(importError(error));
        return;
      }
      tell();
      callback(null, text === "" ? undefined : text);
    },
    flush(callback) {
      let text: string;
      try {
        text = decoder.end();
      } catch (error) {
        tell();
        callback(importError(error));
        return;
      }
      tell();
      callback(null, text === "" ? undefined : text);
    },
  });
  const input =
    source instanceof ReadableStream
      ? Readable.fromWeb(source as import("node:stream/web").ReadableStream<Uint8Array>)
      : Readable.from(source);
  // Pushed text passes through as is (the decoder above made it).
  reader.setEncoding("utf8");
  const piping = pipeline(input, byteCounter(maxBytes, onBytes, expectedBytes), reader);
  // pipeline's own promise would reject unobserved when the consumer stops first.
  piping.catch(() => {});
  try {
    if (format === "csv") yield* streamCsvRecords(reader, undefined, delimiter);
    else yield* streamJsonRecords(reader as AsyncIterable<string>, format);
  } catch (error) {
    if (error instanceof UploadBytesError) throw new DatasetImportError(error.code, error.reason);
    if (error instanceof CsvSyntaxError) {
      throw new DatasetImportError("invalid_csv", error.reason, error.line);
    }
    if (error instanceof JsonSyntaxError) {
      throw new DatasetImportError("invalid_json", error.reason, error.line);
    }
    if (error instanceof JsonFieldError) {
      throw new DatasetImportError("unknown_field", error.reason, error.line, error.field);
    }
    throw error;
  } finally {
    input.destroy();
  }
}

/** A decoding problem as the import's error; anything else as it is. */
function importError(error: unknown): Error {
  if (!(error instanceof CsvEncodingError)) return error as Error;
  return new DatasetImportError(error.code, error.reason, error.line);
}

/**
 * A CSV cell as its column stores it, read in the column's format (see @seed/model's readers;
 * none: the canonical form), or the reason it does not fit, naming the format.
 */
export function typedCell(
  type: DatasetColumnType,
  cell: string,
  format: ColumnFormat | null = null,
): { ok: true; value: CellValue | boolean } | { ok: false; code: CsvProblemCode; reason: string } {
  if (cell.length > datasetLimits.maxCellLength) {
    return {
      ok: false,
      code: "cell_too_long",
      reason: `the value is longer than ${datasetLimits.maxCellLength.toLocaleString("en-US")} characters.`,
    };
  }
  const value = readCell(type, format, cell);
  if (value === undefined) {
    return {
      ok: false,
      code: columnTypeSpecs[type].misfitCode,
      reason: `expected ${expectedCell(type, format)}, got ${describeValue(cell)}.`,
    };
  }
  return { ok: true, value };
}

export function checkHeader(header: CsvRecord): void {
  if (header.cells.length > datasetLimits.maxColumns) {
    throw new DatasetImportError(
      "too_many_columns",
      `the file has ${header.cells.length} columns; the limit is ${datasetLimits.maxColumns}.`,
      header.line,
    );
  }
  const seen = new Set<string>();
  for (const [index, name] of header.cells.entries()) {
    if (name === "") {
      throw new DatasetImportError("empty_header", `column ${index + 1} has no name.`, header.line);
    }
    if (name.length > datasetLimits.maxColumnNameLength) {
      throw new DatasetImportError(
        "header_too_long",
        `the name is longer than ${datasetLimits.maxColumnNameLength} characters.`,
        header.line,
        name.slice(0, 40),
      );
    }
    if (seen.has(name)) {
      throw new DatasetImportError(
        "duplicate_header",
        "header names must be unique.",
        header.line,
        name,
      );
    }
    seen.add(name);
  }
}

export type CsvSource = AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

/** One bad line of an import, as a sentence and where it is. */
export interface ImportLineProblem {
  code: DatasetImportError["code"];
  message: string;
  line: number | null;
  column: string | null;
  /** The data row (1 = the first row after the header), when the problem is in one. */
  row: number | null;
}

export function describeAt(line: number | null, column: string | null, reason: string): string {
  const where =
    line === null ? "" : column === null ? `Line ${line}: ` : `Line ${line}, column "${column}": `;
  return `${where}${reason}`;
}

/**
 * Why an import wrote nothing: the first problem (code, line, column, row), and for bad rows
 * every problem of the file up to maxListedCsvProblems with how many there were in all. Also a
 * ValidationError on field `csv`, whose `problems` carry each one's row and column.
 */
export class DatasetImportError extends ValidationError {
  override name = "DatasetImportError";
  readonly code: CsvProblemCode | "header_mismatch" | "incomplete_upload" | "dataset_too_large";
  readonly line: number | null;
  readonly column: string | null;
  /** The data row (1 = the first row after the header), when the problem is in one. */
  readonly row: number | null;
  readonly reason: string;
  /** Every listed problem, the first one included. */
  readonly lineProblems: ImportLineProblem[];
  readonly problemCount: number;

  constructor(
    code: DatasetImportError["code"],
    reason: string,
    line: number | null = null,
    column: string | null = null,
    row: number | null = null,
    more: { problems: ImportLineProblem[]; count: number } | null = null,
  ) {
    const message = describeAt(line, column, reason);
    const listed = more?.problems ?? [{ code, message, line, column, row }];
    super({
      fieldErrors: { csv: [message] },
      problems: listed.map((found) => ({
        field: "csv",
        code: found.code,
        message: found.message,
        ...(found.row === null ? {} : { row: found.row }),
        ...(found.column === null ? {} : { column: found.column }),
      })),
    });
    this.code = code;
    this.line = line;
    this.column = column;
    this.row = row;
    this.reason = reason;
    this.lineProblems = listed;
    this.problemCount = more?.count ?? 1;
  }
}
