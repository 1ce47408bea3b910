import { datasetLimits, isNumberText } from "@seed/model";
import Papa from "papaparse";

/**
 * How a CSV file writes its values: the field separator and the decimal mark. Many European
 * exports (Excel in French, German, Italian...) use ";" and a decimal comma, "4.222,5".
 */
export const csvDelimiters = [",", ";", "\t", "|"] as const;
export type CsvDelimiter = (typeof csvDelimiters)[number];
export const decimalSeparators = [".", ","] as const;
export type DecimalSeparator = (typeof decimalSeparators)[number];

export interface CsvDialect {
  delimiter: CsvDelimiter;
  decimal: DecimalSeparator;
}

export const delimiterNames: Record<CsvDelimiter, string> = {
  ",": "comma",
  ";": "semicolon",
  "\t": "tab",
  "|": "pipe",
};

const sampleLines = 50;

function isDelimiter(value: unknown): value is CsvDelimiter {
  return typeof value === "string" && (csvDelimiters as readonly string[]).includes(value);
}

// Linear-time shapes (each repetition starts with its own separator, so nothing backtracks).
const commaDecimal = /^[+-]?(?:\d{1,3}(?:[. \u00a0\u202f]\d{3})+|\d+)(?:,\d+)?$/;
const dotDecimalWithThousands = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/**
 * Number text as written in `decimal`'s convention, in the canonical form isNumberText accepts
 * ("4.222,5" with ",": "4222.5"; "1,234.5" with ".": "1234.5"), or null when it is not a number.
 */
export function normalizeNumberText(text: string, decimal: DecimalSeparator): string | null {
  if (text.length === 0 || text.length > datasetLimits.maxNumberLength) return null;
  if (decimal === ",") {
    if (!commaDecimal.test(text)) return null;
    return text.replace(/[. \u00a0\u202f]/g, "").replace(",", ".");
  }
  if (isNumberText(text)) return text;
  if (dotDecimalWithThousands.test(text)) return text.replaceAll(",", "");
  return null;
}

/**
 * Guesses the dialect from the start of a file: the separator from papaparse's own guess among
 * comma, semicolon, tab and pipe; a decimal comma when the cells look like "12,5" more often than
 * like "12.5" (never with a comma separator, where an unquoted decimal comma cannot occur).
 */
export function detectCsvDialect(sample: string): CsvDialect {
  const head = sample.split(/\r\n|\n|\r/, sampleLines).join("\n");
  const guessed = Papa.parse<string[]>(head, {
    delimiter: "",
    delimitersToGuess: [...csvDelimiters],
    preview: sampleLines,
  });
  const delimiter = isDelimiter(guessed.meta.delimiter) ? guessed.meta.delimiter : ",";
  if (delimiter === ",") return { delimiter, decimal: "." };
  let commaVotes = 0;
  let dotVotes = 0;
  for (const row of guessed.data.slice(1)) {
    for (const raw of row) {
      const cell = raw.trim();
      if (/^[+-]?\d*,\d+$/.test(cell) || /^[+-]?\d{1,3}(?:\.\d{3})+,\d+$/.test(cell)) commaVotes++;
      else if (/^[+-]?\d*\.\d+$/.test(cell) && !/^[+-]?\d{1,3}\.\d{3}$/.test(cell)) dotVotes++;
    }
  }
  return { delimiter, decimal: commaVotes > dotVotes ? "," : "." };
}
