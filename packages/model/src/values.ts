import { datasetLimits } from "./limits.js";

// Cell values and the checks on them that run in browsers, the store and CSV import alike.

export type CellValue = number | string | null;
export type DatasetRow = Record<string, CellValue>;

/**
 * Sets `key` on `target` as its own property. A column may be named anything a header holds,
 * "__proto__" included, where `target[key] = value` would set the object's prototype instead and
 * lose the value silently; every object keyed by column names is written through this.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else target[key] = value;
}

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const isoDateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function digitsAt(value: string, start: number, count: number): number {
  let result = 0;
  for (let at = start; at < start + count; at++) {
    const code = value.charCodeAt(at) - 48;
    if (code < 0 || code > 9) return -1;
    result = result * 10 + code;
  }
  return result;
}

/** True for yyyy-mm-dd that is a real calendar day (no regular expression: CSV import's hot path). */
export function isIsoDay(value: string): boolean {
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  return year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** True for yyyy-mm-dd (a real calendar day) or a full ISO 8601 date-time. */
export function isIsoDate(value: string): boolean {
  const dateOnly = isoDatePattern.exec(value);
  const match = dateOnly ?? isoDateTimePattern.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  // Plain days need no Date parsing (the hot path of CSV type inference).
  return dateOnly !== null || !Number.isNaN(Date.parse(value));
}

function isDigit(code: number | undefined): boolean {
  return code !== undefined && code >= 48 && code <= 57;
}

/**
 * The grammar isNumberText checks, as a regular expression (RE2 and JavaScript alike), for engines
 * that check cells in SQL (the DuckDB data file's CSV path): a sign, digits with at most one point
 * and at least one digit, an exponent. isNumberText also bounds the length and wants a finite value.
 */
export const numberTextPattern = "[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?";

/**
 * The shape of a stored day, yyyy-mm-dd, as a regular expression for engines that check cells in
 * SQL; isIsoDay also wants a real calendar day (the engine's own date cast checks that there).
 */
export const storedDayPattern = "[0-9]{4}-[0-9]{2}-[0-9]{2}";
/** The shape of a stored instant, yyyy-mm-ddThh:mm:ss.sssZ (Date#toISOString), likewise. */
export const storedInstantPattern = `${storedDayPattern}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z`;

/**
 * True for decimal number text (`-1`, `2.5`, `.5`, `1e-3`) that is a finite double. One pass
 * over the characters, no regular expression: linear time on any input (a backtracking pattern
 * took seconds on 40,000 digits followed by a letter). Refuses text over maxNumberLength.
 */
export function isNumberText(text: string): boolean {
  const length = text.length;
  if (length === 0 || length > datasetLimits.maxNumberLength) return false;
  let at = 0;
  const sign = text.charCodeAt(0);
  if (sign === 43 || sign === 45) at++;
  let digits = 0;
  while (isDigit(text.charCodeAt(at))) {
    at++;
    digits++;
  }
  if (text.charCodeAt(at) === 46) {
    at++;
    while (isDigit(text.charCodeAt(at))) {
      at++;
      digits++;
    }
  }
  if (digits === 0) return false;
  const e = text.charCodeAt(at);
  if (e === 101 || e === 69) {
    at++;
    const expSign = text.charCodeAt(at);
    if (expSign === 43 || expSign === 45) at++;
    if (!isDigit(text.charCodeAt(at))) return false;
    while (isDigit(text.charCodeAt(at))) at++;
  }
  return at === length && Number.isFinite(Number(text));
}

const describedLength = 40;
const describedDepth = 3;

/**
 * `value` as JSON up to a little past describedLength characters: at most describedDepth levels
 * down and only the items that fit, so any value (deep, wide, cyclic) costs bounded work.
 */
function preview(value: unknown, depth: number, roomLeft: number): string {
  const room = Math.max(0, roomLeft);
  if (typeof value === "string") return JSON.stringify(value.slice(0, room));
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (value === null || typeof value !== "object") return String(value).slice(0, room);
  if (depth >= describedDepth) return Array.isArray(value) ? "[…]" : "{…}";
  const parts: string[] = [];
  let length = 2;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length && length <= room; index++) {
      const part = preview(value[index], depth + 1, room - length);
      parts.push(part);
      length += part.length + 1;
    }
    return `[${parts.join(",")}]`;
  }
  for (const key in value) {
    if (length > room) break;
    if (!Object.hasOwn(value, key)) continue;
    const name = `${JSON.stringify(key.slice(0, room))}:`;
    const part = `${name}${preview((value as Record<string, unknown>)[key], depth + 1, room - length - name.length)}`;
    parts.push(part);
    length += part.length + 1;
  }
  return `{${parts.join(",")}}`;
}

/**
 * A value quoted for a message, cut to 40 characters so a huge cell never makes a huge message.
 * Safe on any value: never serialises all of it, recurses at most a few levels, never throws.
 */
export function describeValue(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    const quoted = JSON.stringify(value.slice(0, describedLength));
    return quoted.length > describedLength || value.length > describedLength
      ? `${quoted.slice(0, describedLength)}… (${value.length.toLocaleString("en-US")} characters)`
      : quoted;
  }
  try {
    const text = preview(value, 0, describedLength + 1);
    if (text.length <= describedLength) return text;
    const size = Array.isArray(value) ? ` (${value.length.toLocaleString("en-US")} items)` : "";
    return `${text.slice(0, describedLength)}…${size}`;
  } catch {
    return "a value that cannot be shown";
  }
}

/** What an empty category value (null or "") reads as where it names a series or a drill. */
export const emptyValueLabel = "(empty)";
