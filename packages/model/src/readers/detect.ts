import type { ColumnType, DatasetColumnType } from "../vocabulary.js";
import { dateShape } from "./dates.js";
import {
  type ColumnFormat,
  currencySigns,
  type DatePattern,
  datePatterns,
  dayMonthPairs,
  type NumberTextFormat,
  type ThousandsSeparator,
} from "./formats.js";
import { readNumber } from "./numbers.js";
import { isEmptyMarker } from "./read-cell.js";

// The type and format a person would give a column, decided from its first cells.

/** A column is typed when at most this share of its filled cells misfit; those are then reported. */
export const misfitShare = 0.1;

export interface DetectOptions {
  /** The file's decimal mark (see the store's CSV dialect); default ".". */
  decimal?: "." | ",";
}

export interface DetectedColumn {
  type: ColumnType;
  /** How the cells are written (null for text). */
  format: ColumnFormat | null;
  /**
   * Set when the cells fit two formats that read them differently (day-first and month-first,
   * every part at most 12): `format` is the defined default, `other` the reading not chosen.
   */
  ambiguous?: { other: DatePattern };
}

/**
 * Digit strings that are identifiers, not amounts: a leading zero ("00501", "007") or more digits
 * than a double holds exactly (16 or more: card numbers, long ids, signed or not). A column with
 * any stays text, so no digit is lost.
 */
function isIdentifierDigits(text: string): boolean {
  const signed = text.charCodeAt(0) === 45 || text.charCodeAt(0) === 43;
  const start = signed ? 1 : 0;
  const digits = text.length - start;
  if (digits < 2) return false;
  for (let at = start; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 48 || code > 57) return false;
  }
  return (!signed && text.charCodeAt(0) === 48) || digits > 15;
}

function misses(cells: readonly string[], fits: (cell: string) => boolean, limit: number): number {
  let count = 0;
  for (const cell of cells) {
    if (!fits(cell)) {
      count++;
      if (count > limit) return count;
    }
  }
  return count;
}

/** The number format the cells are written in (the best fit; may still fit none). */
function numberFormatFor(filled: readonly string[], decimal: "." | ","): NumberTextFormat {
  let percents = 0;
  const signs = new Map<string, number>();
  for (const cell of filled) {
    if (cell.endsWith("%")) percents++;
    for (const char of cell.length <= 40 ? cell : "") {
      if (currencySigns.includes(char)) signs.set(char, (signs.get(char) ?? 0) + 1);
    }
  }
  let currency: string | null = null;
  let most = 0;
  for (const [sign, count] of signs) {
    if (count > most) [currency, most] = [sign, count];
  }
  const percent = percents * 2 > filled.length;
  const groupings: (ThousandsSeparator | null)[] =
    decimal === "." ? [null, ",", " ", "'"] : [null, ".", " ", "'"];
  let best: NumberTextFormat = { decimal, thousands: null, currency, percent };
  let bestMisses = Number.POSITIVE_INFINITY;
  for (const thousands of groupings) {
    const format: NumberTextFormat = { decimal, thousands, currency, percent };
    const missed = misses(filled, (cell) => readNumber(format, cell) !== undefined, bestMisses - 1);
    if (missed < bestMisses) [best, bestMisses] = [format, missed];
  }
  return best;
}

interface TimeFit {
  pattern: DatePattern;
  misses: number;
  withTime: boolean;
  ambiguous?: { other: DatePattern };
}

function timeFit(pattern: DatePattern, filled: readonly string[], limit: number): TimeFit {
  let missed = 0;
  let withTime = false;
  for (const cell of filled) {
    const shape = dateShape(pattern, cell);
    if (shape === 0 && ++missed > limit) break;
    if (shape === 2) withTime = true;
  }
  return { pattern, misses: missed, withTime };
}

/** Long month names ("January") in most cells: the MMMM variant of a MMM pattern. */
function longMonthNames(filled: readonly string[]): boolean {
  let long = 0;
  for (const cell of filled) {
    const match = /[A-Za-z]{5,}/.exec(cell.slice(0, 20));
    if (match && match[0].toLowerCase() !== "sept") long++;
  }
  return long * 2 > filled.length;
}

/** The day pattern the cells fit best, day-first or month-first decided from the data. */
function bestTimeFit(filled: readonly string[], limit: number): TimeFit | null {
  let best: TimeFit | null = null;
  for (const pattern of datePatterns) {
    const fit = timeFit(pattern, filled, best ? Math.min(limit, best.misses) : limit);
    if (fit.misses <= limit && (!best || fit.misses < best.misses)) best = fit;
  }
  if (!best) return null;
  const chosen = best.pattern;
  const pair = dayMonthPairs.find((candidates) => candidates.includes(chosen));
  if (pair) {
    const [first, second] = pair;
    const one = timeFit(first, filled, filled.length);
    const two = timeFit(second, filled, filled.length);
    if (one.misses === two.misses) best = { ...one, ambiguous: { other: second } };
  }
  if (best.pattern.startsWith("MMM ") || best.pattern.includes(" MMM ")) {
    if (longMonthNames(filled)) {
      best = { ...best, pattern: best.pattern.replace("MMM", "MMMM") as DatePattern };
    }
  }
  return best;
}

/** The words that make a column boolean when every filled cell is one (any case). */
const booleanColumnWords = new Set(["true", "false", "yes", "no"]);

function filledCells(cells: readonly string[]): string[] {
  return cells.filter((cell) => cell !== "" && !isEmptyMarker(cell));
}

/**
 * The type and format of a column from its cells (the first rows of a file): a boolean when every
 * filled cell is true/false or yes/no (any case), a number when at
 * least 90% of the filled cells read as numbers in one format, else a date or timestamp (any cell
 * with a time of day makes a timestamp) in one day pattern, else text. Empty cells and empty markers
 * ("NA", "-") are left out; digit strings with a leading zero keep the column text. Numbers standing
 * for instants (Unix time, Excel serials) stay numbers: nothing in the cells alone tells them apart.
 */
export function detectColumn(
  cells: readonly string[],
  options: DetectOptions = {},
): DetectedColumn {
  const filled = filledCells(cells);
  if (filled.length === 0 || filled.some(isIdentifierDigits)) {
    return { type: "string", format: null };
  }
  // Every cell a word of yes or no: true/false or yes/no in any case (1/0, y/n and t/f alone
  // stay numbers or text: too many codes are written so).
  if (filled.every((cell) => booleanColumnWords.has(cell.toLowerCase()))) {
    return { type: "boolean", format: null };
  }
  const allowed = Math.floor(filled.length * misfitShare);
  const number = numberFormatFor(filled, options.decimal ?? ".");
  const numberMisses = misses(filled, (cell) => readNumber(number, cell) !== undefined, allowed);
  if (numberMisses <= allowed && numberMisses < filled.length) {
    return { type: "number", format: number };
  }
  const time = bestTimeFit(filled, allowed);
  if (time && time.misses < filled.length) {
    return {
      type: time.withTime ? "timestamp" : "date",
      format: time.pattern,
      ...(time.ambiguous ? { ambiguous: time.ambiguous } : {}),
    };
  }
  return { type: "string", format: null };
}

/**
 * The format of a column whose type was chosen (by a person, or an existing dataset's), from its
 * cells: the best fit even when few cells fit (they are then reported), else the canonical one.
 */
export function detectFormat(
  type: DatasetColumnType,
  cells: readonly string[],
  options: DetectOptions = {},
): Pick<DetectedColumn, "format" | "ambiguous"> {
  const filled = filledCells(cells);
  if (type === "number") return { format: numberFormatFor(filled, options.decimal ?? ".") };
  if (type !== "date" && type !== "timestamp") return { format: null };
  const time = filled.length === 0 ? null : bestTimeFit(filled, filled.length - 1);
  if (!time) return { format: "yyyy-MM-dd" };
  return { format: time.pattern, ...(time.ambiguous ? { ambiguous: time.ambiguous } : {}) };
}
