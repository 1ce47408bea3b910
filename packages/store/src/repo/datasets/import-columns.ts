import {
  type ColumnFormat,
  columnChoiceOf,
  columnNameChoiceSchema,
  type DatasetColumnType,
  type DatePattern,
  detectColumn,
  detectFormat,
  formatFitsType,
  type ImportColumnChoices,
  isCanonicalFormat,
  readCell,
} from "@seed/model";
import { columnNameClash } from "./csv.js";
import type { CsvRecord } from "./csv-records.js";
import { DatasetImportError } from "./import-input.js";

// How each column of a file is read: the type and format its first rows suggest, then what the
// person chose in the preview (or an existing dataset's fixed type). One rule for the preview and
// the import, so the preview shows exactly what the import will store.

export interface ColumnReading {
  header: string;
  /** The name the column is saved under: the header, or a new dataset's chosen name. */
  name: string;
  /** What the first rows suggest (a columnar file's own type, with no format). */
  detected: {
    type: DatasetColumnType;
    format: ColumnFormat | null;
    /** The cells fit day-first and month-first alike: `other` is the reading not chosen. */
    ambiguous?: { other: DatePattern };
  };
  /** The type the column is stored as, and the format its cells are read in. */
  type: DatasetColumnType;
  format: ColumnFormat | null;
  /** The type is the dataset's own (an import into it), not open to choice. */
  fixed: boolean;
}

export interface ReadColumnsOptions {
  decimal: "." | ",";
  /** A columnar file's own types, by column. */
  declared?: readonly (DatasetColumnType | undefined)[];
  /** An existing dataset's types, by column of `header`: they stand. */
  fixed?: readonly (DatasetColumnType | undefined)[];
  /** The formats an existing dataset's columns were last read in, by column of `header`. */
  fixedFormats?: readonly (ColumnFormat | null | undefined)[];
  choices?: ImportColumnChoices;
  /** The line of the header, for messages. */
  headerLine?: number;
}

/**
 * Each column's reading from the header and first records. A choice naming no column of the file,
 * changing a fixed type, or giving a format its type does not read is refused, naming the column.
 */
export function readColumns(
  header: readonly string[],
  sample: readonly CsvRecord[],
  options: ReadColumnsOptions,
): ColumnReading[] {
  const choices = options.choices ?? {};
  const names = new Set(header);
  for (const name of Object.keys(choices)) {
    if (!names.has(name)) {
      throw new DatasetImportError(
        "unknown_column",
        "a choice names a column the file does not have.",
        options.headerLine ?? 1,
        name.slice(0, 64),
      );
    }
  }
  return header.map((name, index) => {
    const cells = sample.map((record) => record.cells[index] ?? "");
    const own = options.declared?.[index];
    const detected: ColumnReading["detected"] = own
      ? { type: own, format: null }
      : detectColumn(cells, { decimal: options.decimal });
    const fixed = options.fixed?.[index];
    const choice = columnChoiceOf(choices, name);
    if (fixed && choice?.type && choice.type !== fixed) {
      throw new DatasetImportError(
        "unknown_column",
        `the dataset keeps this column as ${fixed}; an import cannot change its type.`,
        options.headerLine ?? 1,
        name,
      );
    }
    if (fixed && choice?.name !== undefined && choice.name !== name) {
      throw new DatasetImportError(
        "unknown_column",
        "an import into a dataset keeps its column names; rename the column on the dataset's page.",
        options.headerLine ?? 1,
        name,
      );
    }
    const saved = { header: name, name: savedName(choice?.name, name, options.headerLine ?? 1) };
    const type = fixed ?? choice?.type ?? detected.type;
    if (choice?.format !== undefined) {
      if (type === "boolean" || type === "string" || !formatFitsType(type, choice.format)) {
        throw new DatasetImportError(
          "unknown_column",
          `the chosen format is not one a ${type} column reads.`,
          options.headerLine ?? 1,
          name,
        );
      }
      return { ...saved, detected, type, format: choice.format, fixed: fixed !== undefined };
    }
    // The format the dataset last read the column in stands while every cell fits it: an
    // undecided day/month reads as it did before; a file written otherwise is detected afresh.
    const kept = fixed ? options.fixedFormats?.[index] : undefined;
    if (kept && cells.every((cell) => readCell(type, kept, cell) !== undefined)) {
      return { ...saved, detected, type, format: kept, fixed: true };
    }
    const format =
      own && type === own
        ? null
        : type === detected.type && !own
          ? detected.format
          : detectFormat(type, cells, { decimal: options.decimal }).format;
    return { ...saved, detected, type, format, fixed: fixed !== undefined };
  });
}

/** The name a column is saved under: the header, or the chosen name when it is one. */
function savedName(chosen: string | undefined, header: string, line: number): string {
  if (chosen === undefined) return header;
  const checked = columnNameChoiceSchema.safeParse(chosen);
  if (!checked.success) {
    throw new DatasetImportError(
      chosen.trim() === "" ? "empty_header" : "header_too_long",
      checked.error.issues[0]?.message ?? "the name does not fit.",
      line,
      header,
    );
  }
  return checked.data;
}

/** Refuses names two columns would be saved under, blaming the one renamed into the clash. */
export function checkSavedNames(readings: readonly ColumnReading[], headerLine: number): void {
  const clash = columnNameClash(
    readings.map((reading) => reading.name),
    readings.map((reading) => reading.header),
  );
  if (clash) {
    throw new DatasetImportError("duplicate_header", clash.reason, headerLine, clash.source);
  }
}

/** A column's format as the dataset keeps it: only when not the canonical form. */
export function keptFormat(reading: Pick<ColumnReading, "type" | "format">): {
  format?: ColumnFormat;
} {
  return reading.format === null || isCanonicalFormat(reading.type, reading.format)
    ? {}
    : { format: reading.format };
}

/** Why a file gave no header: empty, or ending before the header row chosen. */
/** A file whose header is followed by no row of data (blank lines are no rows). */
export function noRows(headerLine: number): DatasetImportError {
  return new DatasetImportError(
    "no_rows",
    "the file has a header but no rows of data.",
    headerLine + 1,
  );
}

export function noHeader(headerRow: number | undefined): DatasetImportError {
  return headerRow !== undefined && headerRow > 1
    ? new DatasetImportError(
        "empty",
        `the file ends before line ${headerRow}, the header row chosen.`,
        headerRow,
      )
    : new DatasetImportError(
        "empty",
        "the file is empty; the first line must name the columns.",
        1,
      );
}

/**
 * The line a table seems to start on when lines above it are notes (a title, an export date):
 * the first record as wide as most of the first ones, every cell filled; null when that is the
 * first record, or the records are too narrow (one column) to tell.
 */
export function suggestHeaderLine(records: readonly CsvRecord[]): number | null {
  const first = records.slice(0, 50);
  const counts = new Map<number, number>();
  for (const record of first) {
    counts.set(record.cells.length, (counts.get(record.cells.length) ?? 0) + 1);
  }
  let width = 0;
  let most = 0;
  for (const [cells, count] of counts) {
    if (count > most || (count === most && cells > width)) {
      width = cells;
      most = count;
    }
  }
  if (width < 2) return null;
  const start = first.findIndex(
    (record) => record.cells.length === width && record.cells.every((cell) => cell !== ""),
  );
  return start > 0 ? (first[start] as CsvRecord).line : null;
}

/** Refuses a header that does not name exactly the dataset's columns (in any order). */
export function checkHeaderNamesColumns(
  header: readonly string[],
  columns: readonly { name: string }[],
  line: number,
): void {
  const names = new Set(header);
  const missing = columns.filter((column) => !names.has(column.name));
  const known = new Set(columns.map((column) => column.name));
  const extra = header.filter((name) => !known.has(name));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      missing.length > 0 ? `missing ${missing.map((c) => `"${c.name}"`).join(", ")}` : "",
      extra.length > 0 ? `unknown ${extra.map((name) => `"${name.slice(0, 40)}"`).join(", ")}` : "",
    ].filter(Boolean);
    throw new DatasetImportError(
      "header_mismatch",
      `the header must name the dataset's columns (${parts.join("; ")}).`,
      line,
    );
  }
}
