import { enUS } from "date-fns/locale/en-US";
import { isIsoDay } from "../values.js";
import {
  type DatePattern,
  isSerialTimeFormat,
  type TimeFormat,
  twoDigitYearWindow,
} from "./formats.js";

// Dates and instants read from text by scanners compiled once per pattern: one left-to-right pass,
// no regular expression, no Date object until the end. date-fns `parse` reads the same patterns
// (the tests hold the two together) but costs about 5 µs a cell, 5 s for a million; these scanners
// take a small fraction of that.

const monthNames = new Map<string, number>();
for (let month = 0; month < 12; month++) {
  for (const width of ["wide", "abbreviated"] as const) {
    monthNames.set(enUS.localize.month(month as 0, { width }).toLowerCase(), month + 1);
  }
}
monthNames.set("sept", 9);

// The scan's findings: one set of fields reused for every cell (no allocation per cell).
let year = 0;
let month = 0;
let day = 0;
let msOfDay = 0;
let offsetMinutes = 0;
let hasTime = false;

type Step = (text: string, at: number) => number;

function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** One or two digits at `at` into `set`; the position after them, or -1. */
function oneOrTwoDigits(set: (value: number) => void): Step {
  return (text, at) => {
    const first = text.charCodeAt(at);
    if (!isDigitCode(first)) return -1;
    const second = text.charCodeAt(at + 1);
    if (isDigitCode(second)) {
      set((first - 48) * 10 + second - 48);
      return at + 2;
    }
    set(first - 48);
    return at + 1;
  };
}

const yearStep: Step = (text, at) => {
  let value = 0;
  for (let index = at; index < at + 4; index++) {
    const code = text.charCodeAt(index);
    if (!isDigitCode(code)) return -1;
    value = value * 10 + code - 48;
  }
  if (isDigitCode(text.charCodeAt(at + 4))) return -1;
  year = value;
  return at + 4;
};

/** Exactly two digits: a year in the two-digit window (1950 to 2049). */
const twoDigitYearStep: Step = (text, at) => {
  const first = text.charCodeAt(at);
  const second = text.charCodeAt(at + 1);
  if (!isDigitCode(first) || !isDigitCode(second) || isDigitCode(text.charCodeAt(at + 2))) {
    return -1;
  }
  const twoDigits = (first - 48) * 10 + second - 48;
  const century = Math.floor(twoDigitYearWindow.first / 100) * 100;
  year = century + twoDigits + (twoDigits < twoDigitYearWindow.first % 100 ? 100 : 0);
  return at + 2;
};

const monthNameStep: Step = (text, at) => {
  let end = at;
  while (end < text.length && end - at < 10) {
    const code = text.charCodeAt(end) | 32;
    if (code < 97 || code > 122) break;
    end++;
  }
  const found = monthNames.get(text.slice(at, end).toLowerCase());
  if (found === undefined) return -1;
  month = found;
  // "Jan." and "Sept." with a dot.
  return text.charCodeAt(end) === 46 && end - at <= 4 ? end + 1 : end;
};

const spacesStep: Step = (text, at) => {
  let end = at;
  while (text.charCodeAt(end) === 32) end++;
  return end > at ? end : -1;
};

function literalStep(code: number): Step {
  return (text, at) => (text.charCodeAt(at) === code ? at + 1 : -1);
}

function compile(pattern: string): Step[] {
  const steps: Step[] = [];
  let at = 0;
  while (at < pattern.length) {
    const char = pattern[at] as string;
    let end = at;
    while (pattern[end] === char) end++;
    const run = end - at;
    if (char === "y" && run === 4) steps.push(yearStep);
    else if (char === "y" && run === 2) steps.push(twoDigitYearStep);
    else if (char === "M" && run <= 2)
      steps.push(
        oneOrTwoDigits((value) => {
          month = value;
        }),
      );
    else if (char === "M") steps.push(monthNameStep);
    else if (char === "d" && run <= 2)
      steps.push(
        oneOrTwoDigits((value) => {
          day = value;
        }),
      );
    else if (char === " ") steps.push(spacesStep);
    else if (/[a-zA-Z]/.test(char)) throw new Error(`Unsupported date pattern part: ${char}`);
    else for (let index = at; index < end; index++) steps.push(literalStep(char.charCodeAt(0)));
    at = end;
  }
  return steps;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian day (any year; no Date quirks for years < 100). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const shifted = m <= 2 ? y - 1 : y;
  const era = Math.floor(shifted / 400);
  const yearOfEra = shifted - era * 400;
  const dayOfYear = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** The time of day after a date: [T or spaces] H:mm[:ss[.fff]] [AM|PM] [Z|UTC|GMT|±hh[:mm]]. */
function scanTime(text: string, start: number): boolean {
  let at = start;
  if (text.charCodeAt(at) === 84) at++;
  else if (text.charCodeAt(at) === 32) while (text.charCodeAt(at) === 32) at++;
  else return false;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let millis = 0;
  at = oneOrTwoDigits((value) => {
    hour = value;
  })(text, at);
  if (at < 0 || text.charCodeAt(at) !== 58) return false;
  if (!isDigitCode(text.charCodeAt(at + 1)) || !isDigitCode(text.charCodeAt(at + 2))) return false;
  minute = (text.charCodeAt(at + 1) - 48) * 10 + text.charCodeAt(at + 2) - 48;
  at += 3;
  if (text.charCodeAt(at) === 58) {
    if (!isDigitCode(text.charCodeAt(at + 1)) || !isDigitCode(text.charCodeAt(at + 2))) {
      return false;
    }
    second = (text.charCodeAt(at + 1) - 48) * 10 + text.charCodeAt(at + 2) - 48;
    at += 3;
    const mark = text.charCodeAt(at);
    if (mark === 46 || mark === 44) {
      // Up to nine digits; the store keeps milliseconds, so further digits are cut.
      let digits = 0;
      at++;
      while (isDigitCode(text.charCodeAt(at)) && digits < 9) {
        if (digits < 3) millis = millis * 10 + text.charCodeAt(at) - 48;
        digits++;
        at++;
      }
      if (digits === 0) return false;
      for (let pad = digits; pad < 3; pad++) millis *= 10;
    }
  }
  let spaced = at;
  while (text.charCodeAt(spaced) === 32) spaced++;
  const meridiem = text.slice(spaced, spaced + 2).toUpperCase();
  if (meridiem === "AM" || meridiem === "PM") {
    if (hour < 1 || hour > 12) return false;
    hour = (hour % 12) + (meridiem === "PM" ? 12 : 0);
    at = spaced + 2;
    spaced = at;
    while (text.charCodeAt(spaced) === 32) spaced++;
  }
  if (hour > 23 || minute > 59 || second > 59) return false;
  offsetMinutes = 0;
  if (spaced < text.length) {
    const zone = text.slice(spaced);
    if (zone === "Z" || zone === "UTC" || zone === "GMT") at = text.length;
    else {
      const sign = zone.charCodeAt(0);
      if (sign !== 43 && sign !== 45 && sign !== 0x2212) return false;
      const digits =
        zone.length === 6 && zone[3] === ":" ? zone.slice(1, 3) + zone.slice(4) : zone.slice(1);
      if ((digits.length !== 2 && digits.length !== 4) || !/^\d+$/.test(digits)) return false;
      const hours = Number(digits.slice(0, 2));
      const minutes = digits.length === 4 ? Number(digits.slice(2)) : 0;
      if (hours > 18 || minutes > 59) return false;
      offsetMinutes = (sign === 43 ? 1 : -1) * (hours * 60 + minutes);
      at = text.length;
    }
  }
  if (at !== text.length) return false;
  msOfDay = ((hour * 60 + minute) * 60 + second) * 1000 + millis;
  return true;
}

export interface CompiledDate {
  /** Fills the scan's fields; false when the text is not a real day (or day and time) in the pattern. */
  scan(text: string, withTime: boolean): boolean;
}

const compiled = new Map<string, CompiledDate>();

/** The scanner of a day pattern, compiled once and kept. */
export function compileDatePattern(pattern: DatePattern): CompiledDate {
  const known = compiled.get(pattern);
  if (known) return known;
  const steps = compile(pattern);
  const scanner: CompiledDate = {
    scan(text, withTime) {
      let at = 0;
      for (const step of steps) {
        at = step(text, at);
        if (at < 0) return false;
      }
      if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || year < 1) {
        return false;
      }
      hasTime = false;
      msOfDay = 0;
      offsetMinutes = 0;
      if (at === text.length) return true;
      if (!withTime || !scanTime(text, at)) return false;
      hasTime = true;
      return true;
    },
  };
  compiled.set(pattern, scanner);
  return scanner;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

const dayMs = 86_400_000;
// Stored instants keep four-digit years: 0001-01-01 to 9999-12-31.
const minMs = daysFromCivil(1, 1, 1) * dayMs;
const maxMs = daysFromCivil(10000, 1, 1) * dayMs - 1;

function isoInstant(ms: number): string | undefined {
  return ms >= minMs && ms <= maxMs ? new Date(ms).toISOString() : undefined;
}

function isoDayOf(days: number): string | undefined {
  return isoInstant(days * dayMs)?.slice(0, 10);
}

/** A plain decimal at most `maxLength` long (digits, one dot, a leading minus) as a number, else NaN. */
function serialNumber(text: string, allowFraction: boolean): number {
  if (text.length === 0 || text.length > 24) return Number.NaN;
  let dots = 0;
  for (let at = text.charCodeAt(0) === 45 ? 1 : 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 46 && allowFraction && dots === 0) dots++;
    else if (!isDigitCode(code)) return Number.NaN;
  }
  return Number(text);
}

/** Excel's day count (1 = 1900-01-01, with its 1900-02-29, serial 60, refused) as days since 1970. */
function excelDays(serial: number): number {
  if (serial < 1 || serial >= 2_958_466 || Math.floor(serial) === 60) return Number.NaN;
  return serial < 60 ? serial - 25_568 : serial - 25_569;
}

/** A day in `format` as yyyy-mm-dd, or undefined. */
export function readDay(format: TimeFormat, text: string): string | undefined {
  if (format === "excel-serial") {
    const serial = serialNumber(text, false);
    return Number.isInteger(serial) ? isoDayOf(excelDays(serial)) : undefined;
  }
  if (isSerialTimeFormat(format)) return undefined;
  // The common case: a canonical day in the canonical pattern is already the stored form.
  if (format === "yyyy-MM-dd" && isIsoDay(text)) return text;
  if (!compileDatePattern(format).scan(text, false)) return undefined;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** An instant in `format` as an ISO 8601 UTC timestamp (yyyy-mm-ddTHH:mm:ss.sssZ), or undefined. */
export function readInstant(format: TimeFormat, text: string): string | undefined {
  if (isSerialTimeFormat(format)) {
    const value = serialNumber(text, format !== "unix-ms");
    if (Number.isNaN(value)) return undefined;
    if (format === "unix-s") return isoInstant(Math.round(value * 1000));
    if (format === "unix-ms") return isoInstant(value);
    const days = excelDays(value);
    return Number.isNaN(days) ? undefined : isoInstant(Math.round(days * dayMs));
  }
  if (!compileDatePattern(format).scan(text, true)) return undefined;
  return isoInstant(daysFromCivil(year, month, day) * dayMs + msOfDay - offsetMinutes * 60_000);
}

/** 0: not in the pattern; 1: a day; 2: a day and a time of day. For detection. */
export function dateShape(pattern: DatePattern, text: string): 0 | 1 | 2 {
  if (!compileDatePattern(pattern).scan(text, true)) return 0;
  return hasTime ? 2 : 1;
}
