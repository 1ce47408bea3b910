import { format as formatDate } from "date-fns";

// How a column of a file writes its values: the vocabulary detectColumn answers in and readCell
// reads with. Date patterns are date-fns patterns (https://date-fns.org/docs/format), so the
// reference reader in the tests is date-fns itself; the readers compile each one to a fast scanner.

/**
 * The day patterns read. Numeric day and month take one or two digits whatever the pattern's
 * padding ("1.2.2024" and "01.02.2024" both fit "dd.MM.yyyy"); month names are English, short or
 * long ("Jan", "Sept", "January") whatever MMM or MMMM says; a space matches a run of spaces.
 * A two-digit year (yy) is one of 1950 to 2049 (`twoDigitYearWindow`), as date-fns reads it
 * against a reference day in 2000: "24" is 2024, "99" is 1999.
 */
export const datePatterns = [
  "yyyy-MM-dd",
  "yyyy/MM/dd",
  "yyyy.MM.dd",
  "dd.MM.yyyy",
  "MM.dd.yyyy",
  "d/M/yyyy",
  "M/d/yyyy",
  "d-M-yyyy",
  "M-d-yyyy",
  "MMM d yyyy",
  "MMM d, yyyy",
  "MMMM d yyyy",
  "MMMM d, yyyy",
  "d MMM yyyy",
  "d MMMM yyyy",
  "d-MMM-yyyy",
  "M/d/yy",
  "d/M/yy",
  "dd.MM.yy",
  "d-MMM-yy",
] as const;
export type DatePattern = (typeof datePatterns)[number];

/** The years a two-digit year (yy) stands for: "50" is 1950, "49" is 2049. */
export const twoDigitYearWindow = { first: 1950, last: 2049 } as const;

/** Numbers standing for instants: seconds or milliseconds since 1970 (UTC), or Excel's day count. */
export const serialTimeFormats = ["unix-s", "unix-ms", "excel-serial"] as const;
export type SerialTimeFormat = (typeof serialTimeFormats)[number];

/**
 * A date or timestamp column's format. For a timestamp, a day pattern is followed by an optional
 * time of day after "T" or a space: H:mm, seconds and a fraction optional, then AM/PM and an offset
 * (Z, UTC, +01:00, +0100, +01) optional. A time with no offset is read as UTC, so the stored
 * instant never depends on the server's zone. A cell with no time is midnight UTC.
 */
export type TimeFormat = DatePattern | SerialTimeFormat;

/**
 * Pairs of patterns a file may leave undecided (every day and month at most 12): the first is the
 * default, and detectColumn reports the choice as ambiguous. Slashes default to month first (as
 * US exports, JavaScript and Excel in English do), dots and dashes to day first (as European ones).
 */
export const dayMonthPairs: readonly (readonly [DatePattern, DatePattern])[] = [
  ["M/d/yyyy", "d/M/yyyy"],
  ["M/d/yy", "d/M/yy"],
  ["dd.MM.yyyy", "MM.dd.yyyy"],
  ["d-M-yyyy", "M-d-yyyy"],
];

export const thousandsSeparators = [",", ".", " ", "'"] as const;
/** " " stands for any space (U+0020, no-break U+00A0, narrow no-break U+202F); "'" also for ’. */
export type ThousandsSeparator = (typeof thousandsSeparators)[number];

/** Single-character currency signs stripped from number cells (before or after the number). */
export const currencySigns = "$€£¥₹₩₽₺₫₪฿₦₱¢₴₵₡₲₸";

/**
 * How a number column writes its numbers. Negatives take "-", "−" or parentheses "(5)"; a
 * currency sign may stand before or after the number (a cell without one fits too, one with
 * another sign does not); with `percent` every cell ends in "%" and "12.5%" is stored as 0.125,
 * the value it means (as spreadsheets store it), read from the digits so no rounding is added.
 */
export interface NumberTextFormat {
  decimal: "." | ",";
  /** Digit grouping in threes; null: none allowed. Grouped cells take no exponent. */
  thousands: ThousandsSeparator | null;
  currency: string | null;
  percent: boolean;
}

export const plainNumberTextFormat: NumberTextFormat = {
  decimal: ".",
  thousands: null,
  currency: null,
  percent: false,
};

/** Numbers as Number() reads them: a point, no grouping, currency or percent. */
export function isPlainNumberFormat(format: NumberTextFormat): boolean {
  return (
    format.decimal === "." &&
    format.thousands === null &&
    format.currency === null &&
    !format.percent
  );
}

/** A column's format: numbers' or dates'; text and booleans have none. */
export type ColumnFormat = NumberTextFormat | TimeFormat;

export function isNumberTextFormat(
  format: ColumnFormat | null | undefined,
): format is NumberTextFormat {
  return typeof format === "object" && format !== null;
}

export function isSerialTimeFormat(format: unknown): format is SerialTimeFormat {
  return (serialTimeFormats as readonly unknown[]).includes(format);
}

export function isDatePattern(format: unknown): format is DatePattern {
  return (datePatterns as readonly unknown[]).includes(format);
}

/** The name a format goes by in messages: the pattern, "yyyy-MM-dd HH:mm", "1,234.5". */
export function formatName(type: "date" | "timestamp", format: TimeFormat): string {
  if (isSerialTimeFormat(format)) return format;
  return type === "timestamp" ? `${format} HH:mm` : format;
}

// 2000-01-31 13:45: a day over 12 shows which part is the day.
const exampleInstant = new Date(2000, 0, 31, 13, 45);

/** A value written in the format, to show people what fits: "Jan 31 2000", "1,234.5". */
export function formatExample(type: "number" | "date" | "timestamp", format: ColumnFormat): string {
  if (isNumberTextFormat(format)) {
    const group = format.thousands === null ? "" : format.thousands;
    const digits = format.percent ? "12" : `1${group}234`;
    return `${format.currency ?? ""}${digits}${format.decimal}5${format.percent ? "%" : ""}`;
  }
  if (format === "unix-s") return String(Date.UTC(2000, 0, 31, 13, 45) / 1000);
  if (format === "unix-ms") return String(Date.UTC(2000, 0, 31, 13, 45));
  if (format === "excel-serial") return type === "timestamp" ? "36556.5729" : "36556";
  const pattern = type === "timestamp" ? `${format} HH:mm` : format;
  return formatDate(exampleInstant, pattern);
}
