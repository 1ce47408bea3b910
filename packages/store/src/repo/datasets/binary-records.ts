import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { DuckDBType } from "@duckdb/node-api";
import { type DatasetColumnType, formatBytes } from "@seed/model";
import { converterOf, duckDbApi, valueKindOf } from "../../db/duckdb.js";
import { openLockedDuckDb, quoteLiteral } from "../../db/sql-sandbox.js";
import type { CsvRecord } from "./csv-records.js";
import { spoolUpload } from "./upload-bytes.js";

// Parquet and Arrow files, read by well-kept readers (DuckDB's read_parquet in a locked in-memory
// instance; apache-arrow's IPC reader) into the same records as CSV: a header, then rows of cells
// in the canonical text forms the importer reads (numbers as the shortest text that gives the
// same value back, dates yyyy-mm-dd, instants ISO 8601 UTC). The header carries the types the file
// declares, so "00501" in a text column stays text and nothing is guessed again. Both formats
// need the whole file (Parquet's footer is at its end): it is spooled to a private temp folder.

export const binaryFormats = ["parquet", "arrow"] as const;
export type BinaryFormat = (typeof binaryFormats)[number];

/** A file's records: the header (with declared types) first, then rows in batches. */
export type TypedRecord = CsvRecord & { types?: DatasetColumnType[] };

export class BinaryFileError extends Error {
  override name = "BinaryFileError";
  constructor(
    readonly code: "file_too_large" | "invalid_file",
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** An Arrow file is read whole into memory: past this it is refused (as a JSON array is). */
export const maxArrowBytes = 256 * 1024 * 1024;
const batchRows = 1_000;
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/** A float32's shortest decimal text that reads back as the same float32 (0.1f is "0.1"). */
function float32Text(value: number): string {
  for (let digits = 1; digits <= 9; digits++) {
    const text = Number(value.toPrecision(digits));
    if (Math.fround(text) === value) return String(text);
  }
  return String(value);
}

function isoOfMs(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, inner) => {
    if (typeof inner === "bigint") return inner.toString();
    if (inner && typeof inner === "object" && "toJSON" in inner) return inner.toJSON();
    return inner;
  });
}

/** Whether an integer column's bound fits a number exactly (else the column is read as text). */
function fitsNumber(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "bigint") return value <= maxSafe && value >= -maxSafe;
  if (typeof value === "number") return Number.isSafeInteger(value);
  return false;
}

/** The records of a Parquet or Arrow byte stream (see the module comment). */
export async function* binaryRecords(
  source: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>,
  format: BinaryFormat,
  maxBytes: number,
  onBytes: (bytes: number) => void,
  expectedBytes: number | undefined,
): AsyncGenerator<TypedRecord[]> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "seed-import-"));
  try {
    const file = path.join(folder, `upload.${format}`);
    await spoolUpload(source, file, maxBytes, onBytes, expectedBytes);
    if (format === "parquet") yield* parquetRecords(file);
    else yield* arrowRecords(file);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

type DuckApi = typeof import("@duckdb/node-api");

/** The column type a dataset gets for a DuckDB type, and how its values become text. */
function duckColumn(
  api: DuckApi,
  type: DuckDBType,
): { type: DatasetColumnType; text: (value: unknown) => string; integer: boolean } {
  const { kind, integer, float32, plainText } = valueKindOf(api, type);
  if (kind === "number") {
    return {
      type: "number",
      text: float32 ? (value) => float32Text(value as number) : String,
      integer,
    };
  }
  if (kind === "date") return { type: "date", text: String, integer: false };
  if (kind === "timestamp") {
    return {
      type: "timestamp",
      text: (value) => (value instanceof Date ? isoOfMs(value.getTime()) : String(value)),
      integer: false,
    };
  }
  // Booleans, lists, structs, maps, blobs, intervals: as text a person can read back.
  return {
    type: "string",
    text: plainText ? String : (value) => (typeof value === "string" ? value : jsonText(value)),
    integer: false,
  };
}

async function* parquetRecords(file: string): AsyncGenerator<TypedRecord[]> {
  const api = await duckDbApi();
  // The file is untrusted: the reader may open it and nothing else.
  const { instance, connection } = await openLockedDuckDb(api, [file], "512MB");
  try {
    const relation = `read_parquet(${quoteLiteral(file)})`;
    let described: { names: string[]; types: DuckDBType[] };
    try {
      const probe = await connection.run(`SELECT * FROM ${relation} LIMIT 0`);
      described = { names: probe.columnNames(), types: probe.columnTypes() };
    } catch (error) {
      throw new BinaryFileError(
        "invalid_file",
        `This is not a Parquet file DuckDB can read: ${(error as Error).message.split("\n")[0]}`,
      );
    }
    const columns = described.types.map((type) => duckColumn(api, type));
    // An integer column with a value past 2^53 would lose digits as a number: it is read as text.
    const wide = columns.flatMap((column, index) => (column.integer ? [index] : []));
    if (wide.length > 0) {
      const bounds = await connection.runAndReadAll(
        `SELECT ${wide
          .map((index) => {
            const ref = `"${(described.names[index] ?? "").replaceAll('"', '""')}"`;
            return `min(${ref}), max(${ref})`;
          })
          .join(", ")} FROM ${relation}`,
      );
      const row = bounds.getRows()[0] ?? [];
      wide.forEach((index, at) => {
        if (!fitsNumber(row[at * 2]) || !fitsNumber(row[at * 2 + 1])) {
          columns[index] = { type: "string", text: String, integer: false };
        }
      });
    }
    yield [{ cells: described.names, line: 1, types: columns.map((column) => column.type) }];
    const result = await connection.stream(`SELECT * FROM ${relation}`);
    const convert = converterOf(api);
    let line = 1;
    for await (const rows of result.yieldConvertedRows(convert)) {
      const batch: TypedRecord[] = [];
      for (const row of rows) {
        line++;
        batch.push({
          line,
          cells: row.map((value, index) =>
            value === null || value === undefined
              ? ""
              : (columns[index] as (typeof columns)[number]).text(value),
          ),
        });
      }
      for (let at = 0; at < batch.length; at += batchRows) yield batch.slice(at, at + batchRows);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function* arrowRecords(file: string): AsyncGenerator<TypedRecord[]> {
  const size = (await stat(file)).size;
  if (size > maxArrowBytes) {
    throw new BinaryFileError(
      "file_too_large",
      `An Arrow file is read whole, so it may be at most ${formatBytes(maxArrowBytes)}; this one is ${formatBytes(size)}. Save it as Parquet to import it streamed.`,
    );
  }
  const arrow = await import("apache-arrow");
  let table: import("apache-arrow").Table;
  try {
    table = arrow.tableFromIPC(await readFile(file));
  } catch (error) {
    throw new BinaryFileError(
      "invalid_file",
      `This is not an Arrow IPC file: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  const { Type } = arrow;
  const fields = table.schema.fields;
  const columns = fields.map((field, index) => {
    const type = field.type;
    const kind = type.typeId;
    if (kind === Type.Int) {
      const vector = table.getChildAt(index);
      let fits = true;
      for (const value of vector ?? []) {
        if (typeof value === "bigint" && (value > maxSafe || value < -maxSafe)) {
          fits = false;
          break;
        }
      }
      return fits
        ? { type: "number" as const, text: String }
        : { type: "string" as const, text: String };
    }
    if (kind === Type.Float) {
      return {
        type: "number" as const,
        text:
          (type as { precision?: number }).precision === 1
            ? (value: unknown) => float32Text(value as number)
            : String,
      };
    }
    if (kind === Type.Decimal)
      return { type: "number" as const, text: (value: unknown) => String(Number(value)) };
    if (kind === Type.Date) {
      return {
        type: "date" as const,
        text: (value: unknown) => isoOfMs(Number(value)).slice(0, 10),
      };
    }
    if (kind === Type.Timestamp) {
      return { type: "timestamp" as const, text: (value: unknown) => isoOfMs(Number(value)) };
    }
    if (kind === Type.Utf8 || kind === Type.LargeUtf8 || kind === Type.Dictionary) {
      return { type: "string" as const, text: (value: unknown) => String(value) };
    }
    return {
      type: "string" as const,
      text: (value: unknown) => (typeof value === "string" ? value : jsonText(value)),
    };
  });
  yield [
    {
      cells: fields.map((field) => field.name),
      line: 1,
      types: columns.map((column) => column.type),
    },
  ];
  let line = 1;
  for (const recordBatch of table.batches) {
    const vectors = fields.map((_field, index) => recordBatch.getChildAt(index));
    let batch: TypedRecord[] = [];
    for (let row = 0; row < recordBatch.numRows; row++) {
      line++;
      batch.push({
        line,
        cells: vectors.map((vector, index) => {
          const value = vector?.get(row);
          return value === null || value === undefined
            ? ""
            : (columns[index] as (typeof columns)[number]).text(value);
        }),
      });
      if (batch.length === batchRows) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }
}
