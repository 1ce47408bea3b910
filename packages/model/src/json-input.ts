// Browser-safe and dependency-free: the one reader of JSON that arrives from outside (request
// bodies, form fields, cursors). It measures the text in one flat pass before JSON.parse, so no
// recursive step (parsing, validation, error messages) ever sees a value past the limits.

/** What one JSON input may hold; every limit is checked before the text is parsed. */
export interface JsonLimits {
  /** Most UTF-8 bytes of the text. */
  maxBytes: number;
  /** Most arrays and objects inside one another (`[]` is 1 deep, `[[]]` 2, a bare number 0). */
  maxDepth: number;
  /** Most values and object keys together (each array, object, string, number, literal and key). */
  maxValues: number;
}

export type JsonRefusalReason = "too_large" | "too_deep" | "too_many_values" | "invalid_json";

/** The HTTP status for each refusal: the sender's text is too big (413) or malformed (400). */
export const jsonRefusalStatus = {
  too_large: 413,
  too_many_values: 413,
  too_deep: 400,
  invalid_json: 400,
} as const satisfies Record<JsonRefusalReason, number>;

export type BoundedJsonResult =
  | { ok: true; value: unknown }
  | { ok: false; reason: JsonRefusalReason; message: string };

const quote = 0x22;
const backslash = 0x5c;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const openBrace = 0x7b;
const closeBrace = 0x7d;

function isSeparator(code: number): boolean {
  // space, tab, line feed, carriage return, comma, colon
  return (
    code === 0x20 ||
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0d ||
    code === 0x2c ||
    code === 0x3a
  );
}

/** UTF-8 length of `text`, counting no further than `stopAfter` (lone surrogates count 3, as encoders write U+FFFD). */
function utf8Length(text: string, stopAfter: number): number {
  let bytes = 0;
  for (let at = 0; at < text.length && bytes <= stopAfter; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        at++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

function sizeText(bytes: number): string {
  const mb = 1024 * 1024;
  if (bytes >= mb && bytes % mb === 0) return `${bytes / mb} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes.toLocaleString("en-US")} bytes`;
}

/** The refusal of a text over `limits.maxBytes`, for readers that stop reading at the limit. */
export function jsonTooLarge(limits: JsonLimits, subject = "The JSON") {
  return {
    ok: false as const,
    reason: "too_large" as const,
    message: `${subject} is larger than ${sizeText(limits.maxBytes)}.`,
  };
}

/** The reason `text` exceeds `limits`, found in one pass without parsing, or null when it fits. */
export function jsonLimitProblem(
  text: string,
  limits: JsonLimits,
  subject = "The JSON",
): { reason: Exclude<JsonRefusalReason, "invalid_json">; message: string } | null {
  const tooLarge = { reason: "too_large" as const, message: jsonTooLarge(limits, subject).message };
  // Every UTF-16 unit is at least one UTF-8 byte, and at most three.
  if (text.length > limits.maxBytes) return tooLarge;
  if (text.length * 3 > limits.maxBytes && utf8Length(text, limits.maxBytes) > limits.maxBytes) {
    return tooLarge;
  }
  const tooDeep = {
    reason: "too_deep" as const,
    message: `${subject} nests arrays and objects more than ${limits.maxDepth} deep.`,
  };
  const tooMany = {
    reason: "too_many_values" as const,
    message: `${subject} holds more than ${limits.maxValues.toLocaleString("en-US")} values and keys.`,
  };
  let depth = 0;
  let values = 0;
  let inLiteral = false;
  const length = text.length;
  for (let at = 0; at < length; at++) {
    const code = text.charCodeAt(at);
    if (code === quote) {
      inLiteral = false;
      values++;
      at++;
      while (at < length) {
        const inside = text.charCodeAt(at);
        if (inside === quote) break;
        at += inside === backslash ? 2 : 1;
      }
    } else if (code === openBracket || code === openBrace) {
      inLiteral = false;
      values++;
      depth++;
      if (depth > limits.maxDepth) return tooDeep;
    } else if (code === closeBracket || code === closeBrace) {
      inLiteral = false;
      depth--;
    } else if (isSeparator(code)) {
      inLiteral = false;
    } else if (!inLiteral) {
      // The first character of a number, true, false or null (or of text JSON.parse refuses).
      inLiteral = true;
      values++;
    }
    if (values > limits.maxValues) return tooMany;
  }
  return null;
}

/**
 * Parses JSON from outside within `limits`, or says why not. `subject` starts the message
 * ("The body", "The query"), which is written for the person who sent the text.
 */
export function readBoundedJson(
  text: string,
  limits: JsonLimits,
  subject = "The JSON",
): BoundedJsonResult {
  const problem = jsonLimitProblem(text, limits, subject);
  if (problem) return { ok: false, ...problem };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "invalid_json", message: `${subject} is not valid JSON.` };
  }
}
