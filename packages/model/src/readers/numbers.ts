import { datasetLimits } from "../limits.js";
import { isNumberText } from "../values.js";
import { currencySigns, isPlainNumberFormat, type NumberTextFormat } from "./formats.js";

// Numbers read from text in one left-to-right pass (no regular expression, so no backtracking on
// any input): sign or parentheses, currency sign, digits grouped in threes, decimal mark, exponent,
// percent. The digits are handed to Number() as canonical text, so the double is the one the text
// names, correctly rounded, with nothing added by arithmetic (a percent moves the exponent).

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isMinus(code: number): boolean {
  return code === 45 || code === 0x2212;
}

function isGroupMark(code: number, thousands: NumberTextFormat["thousands"]): boolean {
  switch (thousands) {
    case ",":
      return code === 44;
    case ".":
      return code === 46;
    case " ":
      return code === 32 || code === 0xa0 || code === 0x202f;
    case "'":
      return code === 39 || code === 0x2019;
    default:
      return false;
  }
}

/** The currency sign at `at` (one character of currencySigns), or null. */
function currencyAt(text: string, at: number): string | null {
  const char = text[at];
  return char !== undefined && currencySigns.includes(char) ? char : null;
}

function skipSpace(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code === 32 || code === 0xa0 || code === 0x202f ? at + 1 : at;
}

/** The number `text` writes in `format`, or undefined when it does not fit (or is not finite). */
export function readNumber(format: NumberTextFormat, text: string): number | undefined {
  // The common case, a plain column (the canonical format): its checked text is Number()'s own.
  // "-0" reads as 0: a cell never holds negative zero, which engines store and print differently.
  if (isPlainNumberFormat(format) && isNumberText(text)) return Number(text) + 0;
  const length = text.length;
  if (length === 0 || length > datasetLimits.maxNumberLength) return undefined;
  const decimalCode = format.decimal.charCodeAt(0);
  let at = 0;
  let negative = false;
  let signed = false;
  let currency: string | null = null;
  const parenthesised = text.charCodeAt(0) === 40;
  if (parenthesised) at++;
  const readSign = () => {
    const code = text.charCodeAt(at);
    if (!signed && (isMinus(code) || code === 43)) {
      negative = isMinus(code);
      signed = true;
      at++;
    }
  };
  readSign();
  currency = currencyAt(text, at);
  if (currency !== null) {
    at = skipSpace(text, at + 1);
    readSign();
  }
  // Integer digits, grouped in threes when the format groups them.
  let digits = "";
  let integerStart = at;
  while (isDigit(text.charCodeAt(at))) at++;
  let firstGroup = at - integerStart;
  let grouped = false;
  if (format.thousands !== null && firstGroup > 0 && firstGroup <= 3) {
    while (
      isGroupMark(text.charCodeAt(at), format.thousands) &&
      isDigit(text.charCodeAt(at + 1)) &&
      isDigit(text.charCodeAt(at + 2)) &&
      isDigit(text.charCodeAt(at + 3)) &&
      !isDigit(text.charCodeAt(at + 4))
    ) {
      digits += text.slice(integerStart, at);
      integerStart = at + 1;
      at += 4;
      grouped = true;
    }
  }
  digits += text.slice(integerStart, at);
  firstGroup = digits.length;
  let fraction = "";
  if (text.charCodeAt(at) === decimalCode) {
    const start = ++at;
    while (isDigit(text.charCodeAt(at))) at++;
    fraction = text.slice(start, at);
  }
  if (firstGroup + fraction.length === 0) return undefined;
  let exponent = 0;
  const e = text.charCodeAt(at);
  if ((e === 101 || e === 69) && !grouped) {
    at++;
    let expNegative = false;
    const sign = text.charCodeAt(at);
    if (sign === 43 || isMinus(sign)) {
      expNegative = isMinus(sign);
      at++;
    }
    const start = at;
    while (isDigit(text.charCodeAt(at))) at++;
    if (at === start || at - start > 6) return undefined;
    exponent = Number(text.slice(start, at)) * (expNegative ? -1 : 1);
  }
  if (currency === null) {
    const after = currencyAt(text, skipSpace(text, at));
    if (after !== null) {
      currency = after;
      at = skipSpace(text, at) + 1;
    }
  }
  if (currency !== null && format.currency !== null && currency !== format.currency) {
    return undefined;
  }
  if (currency !== null && format.currency === null) return undefined;
  if (format.percent) {
    if (text.charCodeAt(at) !== 37) return undefined;
    at++;
    exponent -= 2;
  }
  if (parenthesised) {
    if (signed || text.charCodeAt(at) !== 41) return undefined;
    negative = true;
    at++;
  }
  if (at !== length) return undefined;
  const canonical = `${negative ? "-" : ""}${digits || "0"}.${fraction || "0"}e${exponent}`;
  const value = Number(canonical) + 0;
  return Number.isFinite(value) ? value : undefined;
}
