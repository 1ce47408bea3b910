import {
  booleanWords,
  type DatasetColumnType,
  datasetLimits,
  emptyMarkerTexts,
  storedInstantPattern,
} from "@seed/model";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { type DatasetTable, rowKeyColumn, versionColumn } from "./dataset-table.js";
import { duckDbConnectionOf } from "./duckdb.js";

// A CSV file read by DuckDB itself (read_csv) into a data-file generation table: the import's
// fast path for files whose columns are all in the canonical forms (plain numbers, ISO days and
// instants, any text). Each cell is checked in SQL against exactly the text the store's own reader
// takes without doubt; a cell outside it (or anything DuckDB's reader refuses: a ragged line, bad
// UTF-8) stops the statement, and the caller reads the whole file again with the store's own
// reader, which then imports it or names the bad line. DuckDB never decides a cell the model's
// reader would decide differently.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/** The file could not be read here with certainty: read it with the store's own reader. */
export class CsvLoadDeclined extends Error {
  override name = "CsvLoadDeclined";
}

export interface CsvFilePlan {
  /** The spooled upload: UTF-8 (or ASCII) text. */
  file: string;
  delimiter: string;
  /** How many columns the header names. */
  headerCount: number;
  /** For each of the table's columns, its index among the file's columns. */
  order: readonly number[];
  /** The file holds a carriage return somewhere: cells get the reader's line-end rule. */
  carriageReturns: boolean;
  /** Whitespace may sit at some cell's edge: cells are trimmed as the reader trims them. */
  edgeWhitespace: boolean;
  /** Quoted cells, which may hold a line break at an edge: cells are trimmed then too. */
  quotes: boolean;
  /** An underscore somewhere in the file: number cells are checked for digit separators. */
  underscores: boolean;
  /** A plus sign somewhere in the file: number cells are checked for a "+-" sign. */
  plusSigns: boolean;
}

/** What a file may hold that DuckDB's cast takes and the reader does not (CsvFilePlan's). */
export interface NumberTextRisks {
  underscores: boolean;
  plusSigns: boolean;
}

const declined = sql`error('seed: read with the store reader')`;

/** What JavaScript's String.prototype.trim removes: the store's reader trims every cell so. */
const jsWhitespace =
  "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

/** `x` with \r\n and lone \r as \n, as the store's reader reads line ends inside cells. */
function lineEnds(x: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`replace(replace(${x}, chr(13) || chr(10), chr(10)), chr(13), chr(10))`;
}

/** `x` trimmed as the reader trims it; the full trim only when an end is not plain ASCII. */
function trimmed(x: RawBuilder<unknown>): RawBuilder<unknown> {
  const plain = (end: RawBuilder<unknown>) => sql`ascii(${end}) between 33 and 126`;
  return sql`case when ${plain(x)} and ${plain(sql`right(${x}, 1)`)} then ${x} else trim(${x}, ${sql.lit(
    jsWhitespace,
  )}) end`;
}

/** `t` is wholly of this shape (RE2, DuckDB's regular expressions). */
function shaped(t: RawBuilder<unknown>, pattern: string) {
  return sql`regexp_full_match(${t}, ${sql.lit(pattern)})`;
}

/** Every spelling of "any case" of a word: its ASCII letters each lower or upper. */
function caseSpellings(word: string): string[] {
  let spellings = [""];
  for (const character of word) {
    const lower = character.toLowerCase();
    const upper = character.toUpperCase();
    spellings = spellings.flatMap((start) =>
      lower === upper || !/[a-z]/.test(lower)
        ? [start + character]
        : [start + lower, start + upper],
    );
  }
  return spellings;
}

/**
 * The empty markers in every case the reader takes them (it lowercases a cell before looking it
 * up, and no other character lowercases to their ASCII letters): DuckDB's CASE evaluates a
 * branch's condition over whole vectors, and lower() on every cell cost 0.45 s at 10M rows where
 * a list of spellings costs nothing.
 */
const markerTexts = sql.join(
  emptyMarkerTexts.flatMap((marker) => caseSpellings(marker)).map((text) => sql.lit(text)),
);

/**
 * Whether DuckDB's reading `parsed` (try_cast to DOUBLE) of a number cell's text `t` is the
 * reader's (isNumberText, @seed/model): with no whitespace at the text's edges (trimmed before
 * where a file may have it), DuckDB's cast takes the reader's grammar and only these besides:
 * underscores between digits ("1_000", "0_1"), a "+-" sign ("+-5") and infinities or NaN
 * ("inf", not finite). Ruling those out costs a third of matching the grammar as a regular
 * expression (numberTextPattern) on every cell; test/csv-engine-reader.test.ts holds DuckDB to
 * this on generated text. A file with no underscore (or no plus sign) anywhere needs no check
 * for it (`risks`, from the spool's byte search): 0.4 s of 3.8 s at 10M rows of three numbers.
 */
export function numberCellReads(
  t: RawBuilder<unknown>,
  parsed: RawBuilder<unknown>,
  risks: NumberTextRisks = { underscores: true, plusSigns: true },
) {
  const checks = [sql`strlen(${t}) <= ${sql.lit(datasetLimits.maxNumberLength)}`];
  if (risks.underscores) checks.push(sql`not contains(${t}, '_')`);
  if (risks.plusSigns) checks.push(sql`not starts_with(${t}, '+-')`);
  checks.push(sql`isfinite(${parsed})`);
  return sql.join(checks, sql` and `);
}

/**
 * Whether DuckDB's reading `parsed` (try_cast to DATE) of a day cell's text `t` is the reader's:
 * `t` is yyyy-mm-dd (storedDayPattern) and a real day. DuckDB's cast reads a year's digits up to a
 * separator, one or two digits of month and of day between the same separator twice, and lets
 * anything follow the day ("2020-1-05x" is 2020-01-05). So ten bytes, the first a digit, the
 * first "-" the fifth, a "-" the eighth and a digit the last are exactly the shape wherever the
 * cast reads them. Three times cheaper than the regular expression (0.1 s against 0.3 s at 10M
 * cells); test/csv-engine-reader.test.ts holds DuckDB to it on generated text.
 */
export function dayCellReads(t: RawBuilder<unknown>, parsed: RawBuilder<unknown>) {
  return sql`strlen(${t}) = 10 and ${t} between '0000-00-00' and '9999-99-99' and position('-' in ${t}) = 5 and ${t}[8] = '-' and ${t}[10] between '0' and '9' and ${parsed} is not null`;
}

/**
 * The stored value of a cell of `type`: `t` is its text as the reader has it, `parsed` the
 * engine's reading of it (try_cast to the column's type, computed once). Where the text is not
 * certain, the statement stops.
 */
function cellValue(
  type: DatasetColumnType,
  t: RawBuilder<unknown>,
  parsed: RawBuilder<unknown>,
  risks: NumberTextRisks,
): RawBuilder<unknown> {
  if (type === "string") {
    // UTF-8 bytes are at least the UTF-16 units the reader counts: within the limit in bytes is
    // within it for the reader; beyond it, the reader decides.
    return sql`case when strlen(${t}) > ${sql.lit(datasetLimits.maxCellLength)} then ${declined} else nullif(${t}, '') end`;
  }
  const marker = sql`${t} in (${markerTexts})`;
  const blank = sql`${t} is null or ${t} = ''`;
  switch (type) {
    case "number":
      // The usual cell first: CASE tests each later branch on the rows left, and an empty or
      // marker cell never reads (its cast is null). + 0.0: "-0" is 0, as the reader reads it.
      return sql`case when ${numberCellReads(t, parsed, risks)} then ${parsed} + 0.0 when ${blank} or ${marker} then null else ${declined} end`;
    case "date":
      return sql`case when ${dayCellReads(t, parsed)} then ${parsed} when ${blank} or ${marker} then null else ${declined} end`;
    case "timestamp":
      return sql`case when ${blank} then null when ${shaped(t, storedInstantPattern)} and ${parsed} is not null then ${parsed} when ${marker} then null else ${declined} end`;
    case "boolean": {
      const words = (value: boolean) =>
        sql.join(
          [...booleanWords].filter(([, means]) => means === value).map(([word]) => sql.lit(word)),
        );
      return sql`case when ${blank} or (${marker}) then null when lower(${t}) in (${words(true)}) then true when lower(${t}) in (${words(false)}) then false else ${declined} end`;
    }
  }
}

/** DuckDB's reading of a cell's text in a column of `type` (null when it does not read). */
function parsedAs(type: DatasetColumnType, t: RawBuilder<unknown>): RawBuilder<unknown> {
  switch (type) {
    case "number":
      return sql`try_cast(${t} as double)`;
    case "date":
      return sql`try_cast(${t} as date)`;
    case "timestamp":
      return sql`try_cast(${t} as timestamptz)`;
    default:
      return sql`null`;
  }
}

/** A text literal for DuckDB's options: the file path and the delimiter (never user SQL). */
function literal(text: string) {
  if (text.includes("\u0000")) throw new CsvLoadDeclined("a NUL in the name");
  return sql.lit(text);
}

/**
 * Inserts every data line of the file into `table` (keys from `firstKey` on, in file order, each
 * row tagged `version`), inside the caller's DuckDB transaction; the number of rows. Throws
 * CsvLoadDeclined when any cell or line is not certain (the transaction is then unusable).
 * `firstKey` null: the table is a fresh generation and its rows keep no key of their own (their
 * row ids imply them, data-file.ts).
 *
 * One parallel pass reads, checks and types every cell into the generation table with key 0 (or
 * none), then the keys are numbered from the new rows' row ids (contiguous, in the file's order).
 * Measured at 10M rows on 2 cores: a row_number() window instead (above or below the checks) took
 * twice as long, and a text staging table spilled past the memory limit (9 s against 4.5 s).
 */
export async function insertCsvFile(
  trx: AnyExecutor,
  table: DatasetTable,
  plan: CsvFilePlan,
  version: number,
  firstKey: number | null,
  onProgress?: (rowsRead: number) => void,
): Promise<number> {
  if (plan.order.length !== table.columns.length) throw new CsvLoadDeclined("column count");
  // With one column a line of spaces is a blank line to the reader (skipped) but a row to DuckDB.
  if (plan.headerCount < 2) throw new CsvLoadDeclined("one column");
  const fileColumns = Array.from({ length: plan.headerCount }, (_, index) => `f${index}`);
  const columns = sql.raw(`{${fileColumns.map((name) => `'${name}': 'VARCHAR'`).join(", ")}}`);
  // Each cell as the reader has it (line ends as \n when the file has any \r; trimmed where a
  // cell may have whitespace at an edge), then the engine's reading of it, once.
  const texts = table.columns.map((_, index) => {
    const raw = sql.id(`f${plan.order[index]}`);
    const text = plan.carriageReturns ? lineEnds(raw) : raw;
    // Any cell may need the reader's trim where the file has whitespace beside a delimiter or
    // line end, quoted cells (a line break at a cell's edge) or carriage returns (a line end
    // inside a cell); otherwise no cell has whitespace at an edge.
    const trim = plan.edgeWhitespace || plan.quotes || plan.carriageReturns;
    return sql`${trim ? trimmed(text) : text} as ${sql.id(`t${index}`)}`;
  });
  const parsed = table.columns.map(
    (column, index) => sql`${parsedAs(column.type, sql.id(`t${index}`))} as ${sql.id(`p${index}`)}`,
  );
  const values = table.columns.map((column, index) =>
    cellValue(column.type, sql.id(`t${index}`), sql.id(`p${index}`), plan),
  );
  const targets = [
    sql.id(rowKeyColumn),
    ...table.columns.map((column) => sql.id(column.id)),
    sql.id(versionColumn),
  ];
  // DuckDB's own progress of the statement, polled while it runs.
  const connection = onProgress ? await duckDbConnectionOf(trx) : null;
  if (connection) {
    await connection.run("set enable_progress_bar = true");
    await connection.run("set enable_progress_bar_print = false");
  }
  let read = 0;
  const polling = connection
    ? setInterval(() => {
        const now = Number(connection.progress.rows_processed);
        if (now > read) {
          read = now;
          onProgress?.(read);
        }
      }, 250)
    : null;
  try {
    // Keys are 0 (never a real key) until the rows are in, then numbered from their row ids.
    const result = await sql`insert into ${sql.table(table.table)} (${sql.join(targets)}) select ${
      firstKey === null ? sql`null` : sql`0`
    }, ${sql.join(values)}, ${sql.lit(version)} from (select ${sql.join(
      table.columns.map((_, index) => sql.id(`t${index}`)),
    )}, ${sql.join(parsed)} from (select ${sql.join(texts)} from read_csv(${literal(
      plan.file,
    )}, header = true, auto_detect = false, delim = ${literal(plan.delimiter)}, quote = '"', escape = '"', strict_mode = true, null_padding = false, columns = ${columns})))`.execute(
      trx,
    );
    // The new rows sit in this transaction's own storage, their row ids contiguous in the
    // file's order (read_csv keeps insertion order): keys count from the first.
    const key = sql.id(rowKeyColumn);
    const added = firstKey === null ? sql`${key} is null` : sql`${key} = 0`;
    const span = await sql<{
      spread: unknown;
      n: unknown;
    }>`select cast(max(rowid) - min(rowid) + 1 as varchar) as spread, count(*) as n from ${sql.table(
      table.table,
    )} where ${added}`.execute(trx);
    const { spread, n } = span.rows[0] ?? {};
    if (Number(n ?? 0) > 0 && String(spread) !== String(n)) {
      throw new CsvLoadDeclined("row ids out of order");
    }
    if (firstKey !== null)
      await sql`update ${sql.table(table.table)} set ${key} = rowid - (select min(rowid) from ${sql.table(
        table.table,
      )} where ${key} = 0) + ${sql.lit(firstKey)} where ${key} = 0`.execute(trx);
    // DuckDB answers an insert with one row, {Count: n}.
    const counted = (result.rows[0] as { Count?: unknown } | undefined)?.Count;
    return Number(result.numAffectedRows ?? counted ?? 0);
  } catch (error) {
    throw new CsvLoadDeclined(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  } finally {
    if (polling) clearInterval(polling);
  }
}
