import { createHash } from "node:crypto";

// How a value is compared across engines during migrate-to-postgres: one text form per value,
// whichever engine it was read from (the checksum input), its form as COPY input, and the
// SHA-256 over a table's rows that the copy is verified by.

/** How a column's values compare across engines; decided by the target column's type. */
export type ValueKind = "boolean" | "timestamp" | "date" | "integer" | "float" | "json" | "text";

export function valueKindOf(postgresType: string): ValueKind {
  switch (postgresType) {
    case "boolean":
      return "boolean";
    case "timestamp with time zone":
    case "timestamp without time zone":
      return "timestamp";
    case "date":
      return "date";
    case "smallint":
    case "integer":
    case "bigint":
      return "integer";
    case "real":
    case "double precision":
    case "numeric":
      return "float";
    case "json":
    case "jsonb":
      return "json";
    default:
      return "text";
  }
}

function booleanOf(value: unknown): boolean {
  if (value === true || value === 1 || value === 1n) return true;
  if (value === false || value === 0 || value === 0n) return false;
  const text = String(value).toLowerCase();
  if (text === "1" || text === "t" || text === "true") return true;
  if (text === "0" || text === "f" || text === "false") return false;
  throw new Error(`${JSON.stringify(String(value))} is not a boolean`);
}

/** Epoch milliseconds from SQLite's forms (ms numbers, ISO text) or PostgreSQL's (ms as text). */
function epochMsOf(value: unknown): number {
  let ms: number;
  if (typeof value === "number") ms = value;
  else if (typeof value === "bigint") ms = Number(value);
  else {
    const text = String(value);
    if (/^-?\d+(\.\d+)?$/.test(text)) ms = Number(text);
    else {
      // Date-times without a zone (SQLite's CURRENT_TIMESTAMP form) are UTC, never local time.
      const zoneless = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(text);
      ms = Date.parse(zoneless ? `${text.replace(" ", "T")}${text.length > 10 ? "Z" : ""}` : text);
    }
  }
  if (!Number.isFinite(ms)) throw new Error(`${JSON.stringify(String(value))} is not a timestamp`);
  return Math.round(ms);
}

function numberText(value: number): string {
  return Object.is(value, -0) ? "-0" : String(value);
}

function sortedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedJson);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortedJson((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * One text form per value, whichever engine it was read from: the checksum input. Booleans as
 * true/false, timestamps as epoch ms, numbers as JavaScript prints them, JSON with sorted keys.
 */
export function canonicalValue(kind: ValueKind, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) throw new Error("binary values are not supported");
  switch (kind) {
    case "boolean":
      return booleanOf(value) ? "true" : "false";
    case "timestamp":
      return String(epochMsOf(value));
    case "integer": {
      if (typeof value === "bigint") return value.toString();
      const text = String(value);
      return /^-?\d+$/.test(text) ? BigInt(text).toString() : numberText(Number(text));
    }
    case "float":
      return numberText(typeof value === "number" ? value : Number(String(value)));
    case "json":
      return JSON.stringify(sortedJson(JSON.parse(String(value))));
    default:
      return String(value);
  }
}

/** A source value as COPY's CSV input for a column of this kind. */
export function copyValue(kind: ValueKind, value: unknown): string | null {
  const canonical = canonicalValue(kind, value);
  if (canonical === null) return null;
  if (kind === "timestamp") return new Date(Number(canonical)).toISOString();
  if (kind === "json") return String(value);
  return canonical;
}

/** Rows in order into SHA-256; every value length-prefixed so no two row lists hash alike. */
export class TableChecksum {
  readonly #hash = createHash("sha256");
  rows = 0;
  constructor(columns: readonly string[]) {
    this.#hash.update(`${JSON.stringify(columns)}\n`);
  }
  add(values: ReadonlyArray<string | null>) {
    for (const value of values) {
      this.#hash.update(value === null ? "\u0000N" : `${value.length}:${value}`);
    }
    this.#hash.update("\n");
    this.rows += 1;
  }
  digest(): string {
    return this.#hash.digest("hex");
  }
}

/** A table or column name quoted for either engine. */
export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
