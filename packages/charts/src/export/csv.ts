/** A cell as the caller has it: numbers stay numbers, so negative values are never escaped. */
export type CsvCell = string | number | null | undefined;

/** Leading characters that make Excel, Sheets and LibreOffice read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d[\d,]*)?(\.\d+)?([eE][+-]?\d+)?%?$/;

/** A time as a CSV cell spreadsheets read as a date: ISO 8601, midnight UTC as a plain day. */
export function csvTime(ms: number): string {
  return new Date(ms).toISOString().replace("T00:00:00.000Z", "");
}

/** One CSV field: formula-like text gets a leading ' (OWASP), then RFC 4180 quoting. */
export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return "";
  let text = typeof cell === "number" ? (Number.isFinite(cell) ? String(cell) : "") : cell;
  if (typeof cell === "string" && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) {
    text = `'${text}`;
  }
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV: a header line, then one line per row, CRLF line ends. */
export function toCsv(header: readonly CsvCell[], rows: readonly (readonly CsvCell[])[]): string {
  return `${[header, ...rows].map((row) => row.map(csvField).join(",")).join("\r\n")}\r\n`;
}
