import {
  type ColumnFormat,
  type ColumnType,
  type ColumnTypeSpec,
  columnTypeSpecs,
  type DatasetColumn,
  type DatasetRow,
  type DatePattern,
  datasetLimits,
  describeValue,
  detectColumn,
  detectFormat,
  expectedCell,
  formatBytes,
  isIsoDate,
  isNumberText,
  readCell,
  setOwn,
} from "@seed/model";
import {
  type CsvDelimiter,
  type CsvDialect,
  type DecimalSeparator,
  detectCsvDialect,
} from "./csv-dialect.js";
import { type CsvRecord, CsvSyntaxError, parseCsvRecords } from "./csv-records.js";
import type { CsvEncoding } from "./encoding.js";

export interface CsvLimits {
  /** Largest accepted input in bytes (as given, or as UTF-8 for text); default 2 MB. */
  maxBytes?: number;
  /** Most data rows (header excluded); default 50,000. */
  maxRows?: number;
  /** Most columns; default 50. */
  maxColumns?: number;
}

export interface CsvParseOptions extends CsvLimits {
  /**
   * The encoding of the file's bytes, any iconv-lite knows (e.g. "windows-1252"); "auto" (the
   * default) reads it from the BOM or detects it. Only for bytes: text is already decoded.
   */
  encoding?: string;
  /** Field separator; "auto" (the default) guesses comma, semicolon, tab or pipe. */
  delimiter?: CsvDelimiter | "auto";
  /** Decimal mark of number cells; "auto" (the default) guesses from the cells. */
  decimal?: DecimalSeparator | "auto";
  /** Forces a column's type instead of inferring it, e.g. keep "001" codes as strings; keyed by the file's header. */
  columnTypes?: Record<string, ColumnType>;
  /** Saves a column under another name; keyed by the file's header. Empty keeps the header. */
  columnNames?: Record<string, string>;
  /** How many rows the preview holds; default 10. */
  previewRows?: number;
}

export const defaultCsvLimits = {
  maxBytes: 2 * 1024 * 1024,
  maxRows: datasetLimits.maxRows,
  maxColumns: datasetLimits.maxColumns,
} as const;

/** A column as the file has it: its header, and the type and format its cells suggest. */
export interface CsvSourceColumn {
  header: string;
  inferred: ColumnType;
  /** How the cells write values of the inferred type (see @seed/model's readers); null for text. */
  format: ColumnFormat | null;
  /**
   * Set when the cells leave the reading open (day-first or month-first, every part at most 12):
   * `format` is the default, `other` the reading not chosen, to show and let the user choose.
   */
  ambiguous?: { other: DatePattern };
}

/** At most this many problems are listed; the count says how many there were in all. */
export const maxListedCsvProblems = 100;

export interface CsvDataset {
  ok: true;
  /** How the bytes were decoded (detected or as chosen), to show and let the user change; null for text. */
  encoding: CsvEncoding | null;
  /** How the text was read (guessed or as given), to show and let the user change. */
  dialect: CsvDialect;
  /** The file's own columns, before any rename or type the caller chose. */
  sourceColumns: CsvSourceColumn[];
  columns: DatasetColumn[];
  rows: DatasetRow[];
  rowCount: number;
  /** The first rows, typed, for showing before the import is confirmed. */
  preview: DatasetRow[];
}

/** What went wrong, for code to act on; `message` is the sentence for people. */
export type CsvProblemCode =
  | "file_too_large"
  | "invalid_encoding"
  | "unknown_encoding"
  | "invalid_csv"
  | "invalid_json"
  | "invalid_file"
  | "unknown_sheet"
  | "unknown_field"
  | "unknown_column"
  | "empty"
  | "too_many_columns"
  | "empty_header"
  | "header_too_long"
  | "duplicate_header"
  | "missing_header"
  | "too_many_rows"
  | "no_rows"
  | "wrong_value_count"
  | "cell_too_long"
  | ColumnTypeSpec["misfitCode"];

/** One thing wrong with the file, with where it is. */
export interface CsvProblemDetail {
  code: CsvProblemCode;
  /** One sentence naming the line and column, e.g. Line 7, column "revenue": expected a number, got "abc". */
  message: string;
  line: number | null;
  column: string | null;
}

export interface CsvProblem extends CsvProblemDetail {
  ok: false;
  /** How the bytes were decoded, when it got that far (null for text). */
  encoding?: CsvEncoding | null;
  /** How the text was read, when it got that far. */
  dialect?: CsvDialect;
  /** The file's own columns, when the header was read: to rename or retype them and try again. */
  sourceColumns?: CsvSourceColumn[];
  /**
   * Every problem found, in file order, up to maxListedCsvProblems (the fields above repeat the
   * first). A file whose header is wrong stops there; rows are all checked.
   */
  problems: CsvProblemDetail[];
  /** How many problems there were in all (more than are listed when over the limit). */
  problemCount: number;
}

export type CsvParseResult = CsvDataset | CsvProblem;

export function problem(
  code: CsvProblemCode,
  message: string,
  line: number | null = null,
  column: string | null = null,
): CsvProblem {
  const detail = { code, message, line, column };
  return { ok: false, ...detail, problems: [detail], problemCount: 1 };
}

/** Collects row problems in file order, keeping the first maxListedCsvProblems. */
class ProblemList {
  readonly listed: CsvProblemDetail[] = [];
  count = 0;
  add(code: CsvProblemCode, message: string, line: number | null, column: string | null): void {
    this.count += 1;
    if (this.listed.length < maxListedCsvProblems)
      this.listed.push({ code, message, line, column });
  }
  result(sourceColumns: CsvSourceColumn[]): CsvProblem | null {
    const [first] = this.listed;
    if (!first) return null;
    return {
      ok: false,
      ...first,
      sourceColumns,
      problems: this.listed,
      problemCount: this.count,
    };
  }
}

const isNumber = isNumberText;

/**
 * The type a column's cells suggest (see detectColumn in @seed/model: at least 90% of the filled
 * cells fit; any time of day makes a timestamp, so no time is dropped; leading-zero ids stay text).
 */
export function inferType(cells: readonly string[], decimal: DecimalSeparator = "."): ColumnType {
  return detectColumn(cells, { decimal }).type;
}

/**
 * The dialect to read `text` with: what the caller chose, and a guess from the start of the
 * text for whatever is left at "auto" (or unset).
 */
export function resolveCsvDialect(
  text: string,
  choice: Pick<CsvParseOptions, "delimiter" | "decimal"> = {},
): CsvDialect {
  const delimiter = choice.delimiter && choice.delimiter !== "auto" ? choice.delimiter : null;
  const decimal = choice.decimal && choice.decimal !== "auto" ? choice.decimal : null;
  if (delimiter && decimal) return { delimiter, decimal };
  const guessed = detectCsvDialect(text.slice(0, 64 * 1024));
  return { delimiter: delimiter ?? guessed.delimiter, decimal: decimal ?? guessed.decimal };
}

/**
 * Parses CSV text with a header row into typed dataset columns and rows. Returns the first
 * problem (with its line and column) instead of throwing, so forms can show it as is. Browser-safe:
 * a file's bytes are decoded first on the server (csv-bytes.ts, `parseCsvBytes`).
 */
export function parseCsvDataset(text: string, options: CsvParseOptions = {}): CsvParseResult {
  const maxBytes = options.maxBytes ?? defaultCsvLimits.maxBytes;
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > maxBytes) {
    return problem(
      "file_too_large",
      `The file is larger than the ${formatBytes(maxBytes)} limit (${bytes.toLocaleString("en-US")} bytes).`,
    );
  }
  return parseCsvText(text, null, options);
}

/** Parses text within the size limit, decoded from bytes in `encoding` (reported with the result). */
export function parseCsvText(
  text: string,
  encoding: CsvEncoding | null,
  options: CsvParseOptions,
): CsvParseResult {
  const dialect = resolveCsvDialect(text, options);
  const result = parseWithDialect(text, dialect, options);
  if (result.ok) return { ...result, encoding };
  return encoding ? { ...result, dialect, encoding } : { ...result, dialect };
}

/** The names the columns are saved under (after renames) must be filled, short and unique. */
/**
 * The first clash among the names a file's columns are saved under (`names`, by column of
 * `header`): the column to blame is the one renamed into the clash. One rule for the pasted
 * parse and the streamed import.
 */
export function columnNameClash(
  names: readonly string[],
  header: readonly string[],
): { message: string; reason: string; source: string } | null {
  const seen = new Map<string, number>();
  for (const [index, name] of names.entries()) {
    const source = header[index] ?? name;
    const first = seen.get(name);
    if (first !== undefined) {
      // Blame the column the user renamed into the clash (this one, unless only the first was).
      const firstSource = header[first] ?? "";
      const blameFirst = name === source && firstSource !== name;
      const [blamed, other, blamedSource] = blameFirst
        ? [first, index, firstSource]
        : [index, first, source];
      const reason = `"${name}" is already the name of column ${other + 1}; column names must be unique.`;
      return {
        message: `Column ${blamed + 1} ("${blamedSource}"): ${reason}`,
        reason,
        source: blamedSource,
      };
    }
    seen.set(name, index);
  }
  return null;
}

function checkColumnNames(
  columns: readonly DatasetColumn[],
  header: readonly string[],
  headerLine: number,
): CsvProblem | null {
  for (const [index, column] of columns.entries()) {
    const source = header[index] ?? column.name;
    if (column.name.length > datasetLimits.maxColumnNameLength) {
      return problem(
        "header_too_long",
        `Column ${index + 1} ("${source}"): the name is longer than ${datasetLimits.maxColumnNameLength} characters.`,
        headerLine,
        source,
      );
    }
  }
  const clash = columnNameClash(
    columns.map((column) => column.name),
    header,
  );
  return clash ? problem("duplicate_header", clash.message, headerLine, clash.source) : null;
}

function parseWithDialect(
  text: string,
  dialect: CsvDialect,
  options: CsvParseOptions,
): CsvParseResult {
  const maxRows = options.maxRows ?? defaultCsvLimits.maxRows;
  const maxColumns = options.maxColumns ?? defaultCsvLimits.maxColumns;
  let parsed: CsvRecord[];
  try {
    parsed = parseCsvRecords(text, dialect.delimiter);
  } catch (error) {
    if (error instanceof CsvSyntaxError) {
      return problem("invalid_csv", error.message, error.line);
    }
    throw error;
  }
  const records = parsed.map((entry) => ({ record: entry.cells, line: entry.line }));
  const startLine = (entry: { line: number }) => entry.line;

  const headerEntry = records[0];
  if (!headerEntry)
    return problem("empty", "The file is empty; the first line must name the columns.", 1);
  const header = headerEntry.record;
  const headerLine = startLine(headerEntry);
  if (header.length > maxColumns) {
    return problem(
      "too_many_columns",
      `Line ${headerLine}: the file has ${header.length} columns; the limit is ${maxColumns}.`,
      headerLine,
    );
  }
  const seen = new Map<string, number>();
  for (const [index, name] of header.entries()) {
    if (name === "") {
      return problem(
        "empty_header",
        `Line ${headerLine}, column ${index + 1}: the header is empty; name every column.`,
        headerLine,
      );
    }
    if (name.length > datasetLimits.maxColumnNameLength) {
      return problem(
        "header_too_long",
        `Line ${headerLine}, column ${index + 1}: the name is longer than ${datasetLimits.maxColumnNameLength} characters.`,
        headerLine,
        name,
      );
    }
    const first = seen.get(name);
    if (first !== undefined) {
      return problem(
        "duplicate_header",
        `Line ${headerLine}, column ${index + 1}: "${name}" is already the name of column ${first + 1}; header names must be unique.`,
        headerLine,
        name,
      );
    }
    seen.set(name, index);
  }
  if (header.every((name) => isNumber(name) || isIsoDate(name))) {
    return problem(
      "missing_header",
      `Line ${headerLine}: the first line looks like data; add a header row naming the columns.`,
      headerLine,
    );
  }
  const dataEntries = records.slice(1);
  if (dataEntries.length > maxRows) {
    return problem(
      "too_many_rows",
      `The file has more than ${maxRows.toLocaleString("en-US")} rows; the limit is ${maxRows.toLocaleString("en-US")}.`,
    );
  }
  if (dataEntries.length === 0) {
    return problem("no_rows", `The file has a header but no rows of data.`, headerLine + 1);
  }
  // Rows of the wrong shape are told in file order with the rest, while typing below.
  const misshapen = new Map<number, Omit<CsvProblemDetail, "line">>();
  for (const [rowIndex, entry] of dataEntries.entries()) {
    const line = startLine(entry);
    const tooLong = entry.record.findIndex((cell) => cell.length > datasetLimits.maxCellLength);
    if (tooLong >= 0) {
      const name = header[tooLong] ?? null;
      misshapen.set(rowIndex, {
        code: "cell_too_long",
        message: `Line ${line}, column "${name}": the value is longer than ${datasetLimits.maxCellLength.toLocaleString("en-US")} characters.`,
        column: name,
      });
    } else if (entry.record.length !== header.length) {
      misshapen.set(rowIndex, {
        code: "wrong_value_count",
        message: `Line ${line}: expected ${header.length} values (one per column), got ${entry.record.length}.`,
        column: null,
      });
    }
  }

  // Each column's type and format from its cells: numbers in the file's convention ("4.222,5",
  // "$1,234.5", "12%"), dates as the file writes them ("Jan 1 2000", "01.02.2024"). A column whose
  // cells fit no type keeps its text exactly.
  const cellsOf = (index: number) => dataEntries.map((entry) => entry.record[index] ?? "");
  const detectOptions = { decimal: dialect.decimal };
  const sourceColumns: CsvSourceColumn[] = header.map((name, index) => {
    const found = detectColumn(cellsOf(index), detectOptions);
    return {
      header: name,
      inferred: found.type,
      format: found.format,
      ...(found.ambiguous ? { ambiguous: found.ambiguous } : {}),
    };
  });
  const columns: DatasetColumn[] = sourceColumns.map((source) => ({
    name: options.columnNames?.[source.header]?.trim() || source.header,
    type: options.columnTypes?.[source.header] ?? source.inferred,
  }));
  // A type the caller chose is read in the format its cells suggest for that type.
  const formats = columns.map((column, index) => {
    const source = sourceColumns[index] as CsvSourceColumn;
    return column.type === source.inferred
      ? source.format
      : detectFormat(column.type, cellsOf(index), detectOptions).format;
  });
  const renamed = checkColumnNames(columns, header, headerLine);
  if (renamed) return { ...renamed, sourceColumns };

  const found = new ProblemList();
  const rows: DatasetRow[] = [];
  for (const [rowIndex, entry] of dataEntries.entries()) {
    const line = startLine(entry);
    const shape = misshapen.get(rowIndex);
    if (shape) {
      found.add(shape.code, shape.message, line, shape.column);
      continue;
    }
    const row: DatasetRow = {};
    for (const [index, column] of columns.entries()) {
      const cell = entry.record[index] ?? "";
      const format = formats[index] ?? null;
      const value = readCell(column.type, format, cell);
      if (value === undefined) {
        found.add(
          columnTypeSpecs[column.type].misfitCode,
          `Line ${line}, column "${column.name}": expected ${expectedCell(column.type, format)}, got ${describeValue(cell)}.`,
          line,
          column.name,
        );
        continue;
      }
      // A boolean as a dataset's rows hold it: the text "true"/"false".
      setOwn(row, column.name, typeof value === "boolean" ? String(value) : value);
    }
    rows.push(row);
  }
  const problems = found.result(sourceColumns);
  if (problems) return problems;
  return {
    ok: true,
    encoding: null,
    dialect,
    sourceColumns,
    columns,
    rows,
    rowCount: rows.length,
    preview: rows.slice(0, options.previewRows ?? 10),
  };
}

export {
  type CsvDelimiter,
  type CsvDialect,
  csvDelimiters,
  type DecimalSeparator,
  decimalSeparators,
  delimiterNames,
  detectCsvDialect,
  normalizeNumberText,
} from "./csv-dialect.js";
export type { CsvEncoding } from "./encoding.js";
