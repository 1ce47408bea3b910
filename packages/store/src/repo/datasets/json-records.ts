import { datasetLimits } from "@seed/model";
import { isLosslessNumber, parse as parseExact, stringify as stringifyExact } from "lossless-json";
import type { CsvRecord } from "./csv-records.js";

// JSON and NDJSON files as the import's records (the shape CSV text becomes, csv-records.ts), so
// both go through the same typing, checks and writes: a header of the fields found, then one
// record per object, each value as the text a CSV file would hold. Nested objects become dotted
// names ("address.city"); arrays are kept as their JSON text; null and absent fields are empty.
// NDJSON (one object per line) streams; a JSON file (an array of objects) is read whole, up to
// `jsonLimits.maxArrayBytes`. A number keeps the text the file wrote (an id past 2^53, a long
// decimal, "1.50"), so the column's typing sees what a CSV cell would hold and a text column
// holds what the file said.

export const jsonLimits = {
  /** A JSON array is parsed whole: larger files go as NDJSON, which streams. */
  maxArrayChars: 256 * 1024 * 1024,
  /** Objects whose fields make the header: a field first seen later is named as a problem. */
  headerRows: 1_000,
  /** Nesting flattened into dotted names; deeper values are kept as JSON text. */
  maxDepth: 8,
} as const;

export type JsonFormat = "json" | "ndjson";

/** The file cannot be read as the format says; `line` is where (1-based). */
export class JsonSyntaxError extends Error {
  override name = "JsonSyntaxError";
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(`Line ${line}: ${reason}`);
  }
}

/** A field first seen after the header rows, or a field the header cannot hold. */
export class JsonFieldError extends Error {
  override name = "JsonFieldError";
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly field: string,
  ) {
    super(`Line ${line}, field "${field}": ${reason}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !isLosslessNumber(value)
  );
}

/**
 * JSON text read keeping each number as the digits the file wrote ("12345678901234567890",
 * "999999999999999.9375", "1.50" stay as written; a number column reads them as doubles later).
 * V8's JSON.parse runs only when this fails, to say where and why in the words it uses.
 */
function parseJson(source: string, line: number): unknown {
  try {
    return parseExact(source);
  } catch (error) {
    JSON.parse(source); // Throws the syntax error, with its position, when there is one.
    if (error instanceof RangeError) {
      throw new JsonSyntaxError("values are nested too deeply to read.", line);
    }
    // The one text JSON.parse takes and this refuses: a key given twice with different values.
    const reason = error instanceof Error ? error.message.replace(/[.]$/, "") : String(error);
    throw new JsonSyntaxError(`${reason}; give each field once.`, line);
  }
}

/** An object's fields as dotted names and CSV-like text, in the order they are met. */
function flatten(
  value: Record<string, unknown>,
  into: Map<string, string>,
  prefix = "",
  depth = 1,
): Map<string, string> {
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix === "" ? key : `${prefix}.${key}`;
    if (isPlainObject(inner) && depth < jsonLimits.maxDepth && Object.keys(inner).length > 0) {
      flatten(inner, into, name, depth + 1);
    } else {
      into.set(name, cellText(inner));
    }
  }
  return into;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (isLosslessNumber(value)) return value.value;
  return stringifyExact(value) ?? "";
}

interface ElementSpan {
  start: number;
  end: number;
  /** The 1-based line the element starts on. */
  line: number;
}

/** Where each top-level element of a JSON array is, in one pass over the text. */
function elementSpans(text: string): ElementSpan[] {
  const spans: ElementSpan[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expecting = false;
  let open: ElementSpan | null = null;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 10) line++;
    if (inString) {
      if (code === 92) at++;
      else if (code === 34) inString = false;
      continue;
    }
    if (code === 32 || code === 9 || code === 10 || code === 13) continue;
    if (depth === 1 && expecting && code !== 93 && code !== 44) {
      open = { start: at, end: text.length, line };
      spans.push(open);
      expecting = false;
    }
    if (code === 34) inString = true;
    else if (code === 91 || code === 123) {
      depth++;
      if (depth === 1 && code === 91) expecting = true;
    } else if (code === 93 || code === 125) {
      depth--;
      if (depth === 0 && open) open.end = at;
    } else if (code === 44 && depth === 1) {
      if (open) open.end = at;
      open = null;
      expecting = true;
    }
  }
  return spans;
}

/**
 * Where a JSON.parse error is (V8 names a position in the text): its line, counted from
 * `firstLine`, and why, with the character on that line.
 */
function syntaxProblem(text: string, error: unknown, firstLine: number): JsonSyntaxError {
  const message = error instanceof Error ? error.message : String(error);
  const match = /(?: in JSON)? at position (\d+)/.exec(message);
  // V8's words without the echo of the input it sometimes adds ('..., "{"a": }" is not valid').
  const words = message
    .replace(/ in JSON at position \d+.*$/s, "")
    .replace(/, (?:\.\.\.)?".*$/s, "")
    .replace(/[.]$/, "");
  if (!match) return new JsonSyntaxError(`not valid JSON (${words}).`, firstLine);
  const position = Math.min(Number(match[1]), text.length);
  let line = firstLine;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < position; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return new JsonSyntaxError(
    `not valid JSON at character ${position - lineStart + 1} (${words}).`,
    line,
  );
}

/** Objects with their lines, from NDJSON text (one object per non-blank line). */
async function* ndjsonObjects(
  text: AsyncIterable<string>,
): AsyncGenerator<{ object: Record<string, unknown>; line: number }> {
  let rest = "";
  let line = 0;
  const parse = (source: string, at: number) => {
    if (source.trim() === "") return null;
    let value: unknown;
    try {
      value = parseJson(source, at);
    } catch (error) {
      throw error instanceof JsonSyntaxError ? error : syntaxProblem(source, error, at);
    }
    if (!isPlainObject(value)) {
      throw new JsonSyntaxError('each line must hold one object, such as {"a": 1}.', at);
    }
    return value;
  };
  for await (const chunk of text) {
    rest += chunk;
    let end = rest.indexOf("\n");
    while (end !== -1) {
      line++;
      const object = parse(rest.slice(0, end), line);
      if (object) yield { object, line };
      rest = rest.slice(end + 1);
      end = rest.indexOf("\n");
    }
    if (rest.length > datasetLimits.maxCellLength * datasetLimits.maxColumns * 4) {
      throw new JsonSyntaxError("a line is too long to be one row.", line + 1);
    }
  }
  line++;
  const object = parse(rest, line);
  if (object) yield { object, line };
}

/** Objects with their lines, from a JSON file holding one array of objects. */
async function* arrayObjects(
  text: AsyncIterable<string>,
): AsyncGenerator<{ object: Record<string, unknown>; line: number }> {
  let whole = "";
  for await (const chunk of text) {
    whole += chunk;
    if (whole.length > jsonLimits.maxArrayChars) {
      throw new JsonSyntaxError(
        "a JSON file is read whole, up to 256 MB of text; send a larger one as NDJSON (one object per line), which streams.",
        1,
      );
    }
  }
  let value: unknown;
  try {
    value = parseJson(whole, 1);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw error;
    // V8 does not always say where: each element is parsed alone to find the one at fault.
    for (const span of elementSpans(whole)) {
      const part = whole.slice(span.start, span.end);
      try {
        JSON.parse(part);
      } catch (inner) {
        throw syntaxProblem(part, inner, span.line);
      }
    }
    throw syntaxProblem(whole, error, 1);
  }
  if (!Array.isArray(value)) {
    throw new JsonSyntaxError(
      'the file must hold an array of objects, one per row, such as [{"a": 1}, {"a": 2}].',
      1,
    );
  }
  const spans = elementSpans(whole);
  for (const [index, element] of value.entries()) {
    const line = spans[index]?.line ?? 1;
    if (!isPlainObject(element)) {
      throw new JsonSyntaxError(`row ${index + 1} is not an object; each row must be one.`, line);
    }
    yield { object: element, line };
  }
}

/**
 * The records of a JSON or NDJSON text stream in batches: first the header (every field of the
 * first `jsonLimits.headerRows` objects, in the order met; line 1), then one record per object.
 */
export async function* streamJsonRecords(
  text: AsyncIterable<string>,
  format: JsonFormat,
  batchSize = 2_000,
): AsyncGenerator<CsvRecord[]> {
  const objects = format === "ndjson" ? ndjsonObjects(text) : arrayObjects(text);
  const head: { fields: Map<string, string>; line: number }[] = [];
  const names: string[] = [];
  const known = new Map<string, number>();
  const record = (fields: Map<string, string>, line: number): CsvRecord => {
    const cells = new Array<string>(names.length).fill("");
    for (const [name, value] of fields) {
      const index = known.get(name);
      if (index === undefined) {
        throw new JsonFieldError(
          `this field is not among those of the first ${jsonLimits.headerRows.toLocaleString("en-US")} rows, which name the columns; add it to an early row (even empty) or leave it out.`,
          line,
          name,
        );
      }
      cells[index] = value;
    }
    return { cells, line };
  };
  let headerSent = false;
  let batch: CsvRecord[] = [];
  const header = (): CsvRecord[] => [
    { cells: [...names], line: 1 },
    ...head.map((entry) => record(entry.fields, entry.line)),
  ];
  for await (const { object, line } of objects) {
    const fields = flatten(object, new Map());
    if (!headerSent) {
      head.push({ fields, line });
      for (const name of fields.keys()) {
        if (!known.has(name)) {
          known.set(name, names.length);
          names.push(name);
        }
      }
      if (head.length === jsonLimits.headerRows) {
        yield header();
        headerSent = true;
      }
      continue;
    }
    batch.push(record(fields, line));
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (head.length === 0) {
    throw new JsonSyntaxError("the file holds no objects, so there are no rows to import.", 1);
  }
  if (names.length === 0) {
    throw new JsonSyntaxError("the objects have no fields, so there are no columns.", 1);
  }
  if (!headerSent) yield header();
  else if (batch.length > 0) yield batch;
}

/**
 * The start of a JSON array cut after its last whole element and closed again ("[{…},{…}]"), so
 * a preview can read the first megabyte of a file too large to send whole. "no_row" when not one
 * element ends in it; "not_array" when the text is something else (the reader says what). Only
 * the array's own commas are cut at: brackets and braces are counted and strings (with their
 * escapes) skipped. UTF-8 and the single-byte encodings keep every structural character as one
 * ASCII byte (no byte of a multi-byte character is below 0x80); UTF-16 with its byte order mark
 * is read in two-byte units.
 */
export function jsonArrayHead(bytes: Uint8Array): Uint8Array | "no_row" | "not_array" {
  const littleEndian = bytes[0] === 0xff && bytes[1] === 0xfe;
  const bigEndian = bytes[0] === 0xfe && bytes[1] === 0xff;
  const unit = littleEndian || bigEndian ? 2 : 1;
  const utf8Mark = [0xef, 0xbb, 0xbf];
  const markLength = utf8Mark.findIndex((byte, index) => bytes[index] !== byte);
  // Bytes that are only the start of a byte order mark hold no row yet.
  if (bytes.length < 2 && (bytes[0] === 0xff || bytes[0] === 0xfe)) return "no_row";
  if (markLength === bytes.length && bytes.length < 3) return "no_row";
  const start = unit === 2 ? 2 : markLength === -1 ? 3 : 0;
  const at = (index: number): number => {
    if (unit === 1) return bytes[index] ?? 0;
    const high = bytes[littleEndian ? index + 1 : index] ?? 0;
    return high === 0 ? (bytes[littleEndian ? index : index + 1] ?? 0) : 0xffff;
  };
  let first = start;
  while (first + unit <= bytes.length && [0x20, 0x09, 0x0a, 0x0d].includes(at(first)))
    first += unit;
  if (first + unit > bytes.length) return "no_row";
  if (at(first) !== 0x5b) return "not_array";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let lastComma = -1;
  for (let index = first; index + unit <= bytes.length; index += unit) {
    const code = at(index);
    if (inString) {
      if (escaped) escaped = false;
      else if (code === 0x5c) escaped = true;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) depth++;
    else if (code === 0x5d || code === 0x7d) {
      depth--;
      // The array closes inside the head: the file is all here.
      if (depth === 0) return bytes.subarray(0, index + unit);
    } else if (code === 0x2c && depth === 1) lastComma = index;
  }
  if (lastComma < 0) return "no_row";
  const close = unit === 1 ? [0x5d] : littleEndian ? [0x5d, 0x00] : [0x00, 0x5d];
  const head = new Uint8Array(lastComma + close.length);
  head.set(bytes.subarray(0, lastComma));
  head.set(close, lastComma);
  return head;
}
