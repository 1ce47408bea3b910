import { columnTypeSpecs } from "../column-types.js";
import type { CellValue } from "../values.js";
import type { DatasetColumnType } from "../vocabulary.js";
import { readDay, readInstant } from "./dates.js";
import {
  type ColumnFormat,
  formatExample,
  formatName,
  isNumberTextFormat,
  isPlainNumberFormat,
  type NumberTextFormat,
  plainNumberTextFormat,
  type TimeFormat,
} from "./formats.js";
import { readNumber } from "./numbers.js";

// A cell's text as the value its column stores, in the column's format: numbers as numbers, days
// as yyyy-mm-dd, instants as ISO 8601 UTC. Without a format, the canonical forms only (as before).

/**
 * Texts that mean "no value" in number, date and time columns (compared without case): "NA",
 * "N/A", "#N/A", "null", "NaN", "-", "--", "—". A text column keeps them as written: "NA" may be
 * Namibia, "-" a real label.
 */
export const emptyMarkerTexts = ["na", "n/a", "#n/a", "null", "nan", "-", "--", "\u2014"] as const;
const emptyMarkers = new Set<string>(emptyMarkerTexts);

export function isEmptyMarker(text: string): boolean {
  return text.length <= 4 && emptyMarkers.has(text.toLowerCase());
}

/** The words a boolean cell may be written with (compared without case), and what each means. */
export const booleanWords: ReadonlyMap<string, boolean> = new Map<string, boolean>([
  ["true", true],
  ["false", false],
  ["yes", true],
  ["no", false],
  ["y", true],
  ["n", false],
  ["t", true],
  ["f", false],
  ["1", true],
  ["0", false],
]);

function timeFormatOf(format: ColumnFormat | null | undefined): TimeFormat {
  return format === null || format === undefined || isNumberTextFormat(format)
    ? "yyyy-MM-dd"
    : format;
}

function numberFormatOf(format: ColumnFormat | null | undefined): NumberTextFormat {
  return isNumberTextFormat(format) ? format : plainNumberTextFormat;
}

/**
 * The value `text` stands for in a column of `type` written in `format`: null for no value ("",
 * or an empty marker in a typed column), undefined when it does not fit. Booleans (live sources'
 * type) read true/false, yes/no, y/n, t/f and 1/0, in any case.
 */
export function readCell(
  type: DatasetColumnType,
  format: ColumnFormat | null | undefined,
  text: string,
): CellValue | boolean | undefined {
  if (text === "") return null;
  switch (type) {
    case "string":
      return text;
    case "number":
      return isEmptyMarker(text) ? null : readNumber(numberFormatOf(format), text);
    case "date":
      return isEmptyMarker(text) ? null : readDay(timeFormatOf(format), text);
    case "timestamp":
      return isEmptyMarker(text) ? null : readInstant(timeFormatOf(format), text);
    case "boolean":
      return isEmptyMarker(text) ? null : booleanWords.get(text.toLowerCase());
  }
}

/**
 * Whether a column of `type` in `format` reads only the canonical forms: plain numbers, days and
 * instants in ISO 8601 ("yyyy-MM-dd"), any text. An engine may then read such a file itself
 * (the DuckDB data file's CSV path), checking each cell against the canonical form.
 */
export function isCanonicalFormat(
  type: DatasetColumnType,
  format: ColumnFormat | null | undefined,
): boolean {
  if (type === "number") return isPlainNumberFormat(numberFormatOf(format));
  if (type === "date" || type === "timestamp") return timeFormatOf(format) === "yyyy-MM-dd";
  return true;
}

/**
 * What a cell of the column should look like, after "expected": the type's own words for the
 * canonical formats ("a number", "a date (yyyy-mm-dd)"), else an example and the format's name:
 * `a date like "Jan 31 2000" (MMM d yyyy)`, `a number like "$1,234.5"`.
 */
export function expectedCell(
  type: DatasetColumnType,
  format: ColumnFormat | null | undefined,
): string {
  const spec = columnTypeSpecs[type];
  if (type === "number") {
    const number = numberFormatOf(format);
    return isPlainNumberFormat(number)
      ? spec.expected
      : `a number like "${formatExample("number", number)}"`;
  }
  if (type === "date" || type === "timestamp") {
    const time = timeFormatOf(format);
    if (time === "yyyy-MM-dd") return spec.expected;
    const what = type === "date" ? "a date" : "a date and time";
    return `${what} like "${formatExample(type, time)}" (${formatName(type, time)})`;
  }
  return spec.expected;
}
