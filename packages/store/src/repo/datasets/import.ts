import type { ColumnFormat, DatasetColumnType, ImportColumnChoices, RowsLimits } from "@seed/model";
import {
  ConflictError,
  datasetTextSchema,
  formatZodError,
  isCanonicalFormat,
  NotFoundError,
  rowsPermission,
  ValidationError,
} from "@seed/model";
import { type Actor, authorize } from "../../access/policy.js";
import {
  type AuditAction,
  type Executor,
  newId,
  type RecordedActor,
  type StoreContext,
} from "../../context.js";
import type { RowWriter } from "../../db/bulk-load.js";
import {
  columnIdsFor,
  type DatasetTable,
  liveDatasetReadOnly,
  rowsKeptHere,
  type TableColumn,
} from "../../db/dataset-table.js";
import { CsvLoadDeclined } from "../../db/duckdb-csv.js";
import { completeWrite, type RowsState, type RowsWrite } from "../../db/rows-home.js";
import { cellBytes, countRows, storedBytes, storedBytesBound } from "../../db/rows-table.js";
import {
  createdWrite,
  type VersionedRow,
  versionedWriteIn,
  type WriteRecord,
} from "../versioned-write.js";
import type { TypedRecord } from "./binary-records.js";
import { maxListedCsvProblems } from "./csv.js";
import type { CsvDialect } from "./csv-dialect.js";
import type { CsvRecord } from "./csv-records.js";
import { rowsStateOf } from "./datasets.js";
import type { CsvEncoding } from "./encoding.js";
import {
  type ColumnReading,
  checkHeaderNamesColumns,
  checkSavedNames,
  keptFormat,
  noHeader,
  noRows,
  readColumns,
} from "./import-columns.js";
import {
  type CsvSource,
  checkHeader,
  csvRecords,
  DatasetImportError,
  describeAt,
  type ImportFormat,
  type ImportLineProblem,
  typedCell,
} from "./import-input.js";
import { datasetSizeReason, type RowsAdded, recordRowsAdded } from "./size.js";
import { removeSpool, type SpooledCsv, spooledSource, spoolUpload } from "./spool.js";

export type ImportMode = "replace" | "append";

/** Where an import stands, reported after each batch. */
export interface ImportProgress {
  rows: number;
  bytes: number;
  /** How the file's bytes are decoded, once its first bytes are read (null before). */
  encoding: CsvEncoding | null;
}

interface ImportOptions {
  source: CsvSource;
  onProgress?: (progress: ImportProgress) => void;
  /** Lower limits for tests and callers; never above the store's own. */
  maxBytes?: number;
  maxRows?: number;
  /** What a refusal at `maxRows` says, when that limit is the caller's own (e.g. per push). */
  maxRowsReason?: string;
  /** Lower dataset size limit (see datasetLimits.maxDatasetBytes) for tests; never above it. */
  maxDatasetBytes?: number;
  /** The announced size (Content-Length): a shorter or longer stream is refused. */
  expectedBytes?: number;
  /** How the file writes values (see csv-dialect.ts); default comma-separated, decimal point. */
  dialect?: Partial<CsvDialect>;
  /**
   * The encoding of the file, any iconv-lite knows (e.g. "windows-1252"); "auto" (the default)
   * reads it from the BOM or detects it on the first 64 KiB (see encoding.ts).
   */
  encoding?: string;
  /** CSV (the default), JSON, NDJSON, Parquet, Arrow or an Excel workbook (importFormats). */
  format?: ImportFormat;
  /** With an Excel workbook: the sheet to import, by name (the first sheet when not given). */
  sheet?: string;
  /**
   * The line (a workbook's row) that names the columns; the lines above it (a title, notes) are
   * left out. Default: the first line that is not blank.
   */
  headerRow?: number;
  /**
   * Types and formats chosen for the file's columns, by header (the preview's pickers); the
   * rest are read as their first rows suggest. An existing dataset's types stand.
   */
  columns?: ImportColumnChoices;
}

export interface ImportIntoDatasetInput extends ImportOptions {
  datasetId: string;
  expectedVersion: number;
  mode: ImportMode;
}

export interface ImportNewDatasetInput extends ImportOptions {
  name: string;
  description?: string;
}

export interface ImportResult extends RowsAdded {
  /** How the file's bytes were decoded (detected or as chosen). */
  encoding: CsvEncoding;
  /**
   * Who read the file: "engine" (the DuckDB data file's read_csv, every cell checked against the
   * canonical forms) or "store" (the store's own reader, which reads every format).
   */
  reader: "engine" | "store";
}

/** What reading a file into a write gave. */
interface StreamedRows {
  imported: number;
  encoding: CsvEncoding;
  reader: ImportResult["reader"];
}

// Rows used to choose column types when a new dataset is imported.
const inferenceRows = 1_000;
// Rows between progress reports.
const progressEvery = 5_000;

/**
 * Streams records into a dataset's rows write in batches; `writeFor` gives the write (and so the
 * table's columns) once the header (and, for new datasets, the first rows) are known. Throws on
 * the first bad line; the caller gives the write up then.
 */
async function streamInto(
  limits: RowsLimits,
  spooled: SpooledCsv | null,
  options: ImportOptions,
  rowsBefore: number,
  bytesBefore: number,
  writeFor: (
    header: string[],
    sample: CsvRecord[],
    declared: readonly DatasetColumnType[] | undefined,
    headerLine: number,
  ) => Promise<{
    write: RowsWrite;
    /** A new dataset's columns as read from the file, in its order (none: an existing one's). */
    readings?: readonly ColumnReading[];
  }>,
): Promise<StreamedRows> {
  const maxBytes = Math.min(options.maxBytes ?? Infinity, limits.maxImportBytes);
  const maxRows = Math.min(options.maxRows ?? Infinity, limits.maxImportRows);
  const maxDatasetBytes = Math.min(options.maxDatasetBytes ?? Infinity, limits.maxDatasetBytes);
  let bytes = 0;
  let imported = 0;
  let encoding: CsvEncoding | null = null;
  let header: CsvRecord | null = null;
  let descriptor: DatasetTable | null = null;
  let order: number[] = [];
  let writer: RowWriter | null = null;
  let storedSize = bytesBefore;
  let types: DatasetColumnType[] = [];
  let formats: (ColumnFormat | null)[] = [];
  const pending: CsvRecord[] = [];
  const decimal = options.dialect?.decimal ?? ".";
  let write: RowsWrite | null = null;
  // The engine reads the spooled file itself once the head shows canonical columns (see below):
  // then this holds the write it reads into.
  const engine: { write: RowsWrite | null } = { write: null };

  // Bad rows are all told at once (up to the listed limit); after the first, nothing more is
  // written, but the rest of the file is still read to find the others.
  const problems: ImportLineProblem[] = [];
  let problemCount = 0;
  let firstReason = "";
  const problem = (
    code: DatasetImportError["code"],
    reason: string,
    line: number,
    column: string | null,
    row: number,
  ) => {
    if (problemCount === 0) firstReason = reason;
    problemCount++;
    if (problems.length < maxListedCsvProblems) {
      problems.push({ code, message: describeAt(line, column, reason), line, column, row });
    }
  };

  /** Checks and writes one row; a promise only when the writer asks to wait. */
  let seen = 0;
  const add = (record: CsvRecord): void | Promise<void> => {
    const table = descriptor;
    if (!table || !header || !writer) return;
    const row = ++seen;
    if (record.cells.length !== header.cells.length) {
      problem(
        "wrong_value_count",
        `expected ${header.cells.length} values (one per column), got ${record.cells.length}.`,
        record.line,
        null,
        row,
      );
      return;
    }
    if (rowsBefore + imported >= maxRows) {
      throw new DatasetImportError(
        "too_many_rows",
        maxRows < limits.maxImportRows && options.maxRowsReason
          ? options.maxRowsReason
          : `a dataset holds at most ${maxRows.toLocaleString("en-US")} rows.`,
        record.line,
        null,
        row,
      );
    }
    const values: unknown[] = new Array(types.length);
    let rowIsBad = false;
    for (let index = 0; index < types.length; index++) {
      const type = types[index] as DatasetColumnType;
      const cell = record.cells[order[index] as number] ?? "";
      const typed = typedCell(type, cell, formats[index] ?? null);
      if (!typed.ok) {
        // Named as the file names it (a new dataset's column may be saved under another name).
        const column = header.cells[order[index] as number] ?? table.columns[index]?.name ?? null;
        problem(typed.code, typed.reason, record.line, column, row);
        rowIsBad = true;
        continue;
      }
      storedSize += cellBytes(type, typed.value);
      values[index] = (write as RowsWrite).dialect.stored(type, typed.value);
    }
    if (rowIsBad || problemCount > 0) return;
    if (storedSize > maxDatasetBytes) {
      throw new DatasetImportError(
        "dataset_too_large",
        datasetSizeReason(maxDatasetBytes),
        record.line,
        null,
        row,
      );
    }
    imported++;
    if (imported % progressEvery === 0) options.onProgress?.({ rows: imported, bytes, encoding });
    return writer.write(values);
  };
  const start = async () => {
    if (!header) return;
    const made = await writeFor(header.cells, pending, (header as TypedRecord).types, header.line);
    write = made.write;
    descriptor = write.table;
    types = descriptor.columns.map((column) => column.type);
    if (made.readings) {
      // A new dataset: its columns are the file's, in order, read as the preview showed.
      order = made.readings.map((_, index) => index);
      formats = made.readings.map((reading) => reading.format);
    } else {
      const byName = new Map(header.cells.map((name, index) => [name, index]));
      order = descriptor.columns.map((column) => byName.get(column.name) ?? -1);
      // Each column read in the format chosen, or the one the dataset last read it in while the
      // cells fit it (an existing dataset's columns keep their types; the file brings its format).
      formats = readColumns(
        descriptor.columns.map((column) => column.name),
        pending.map((record) => ({
          line: record.line,
          cells: order.map((at) => record.cells[at] ?? ""),
        })),
        {
          decimal,
          fixed: types,
          fixedFormats: descriptor.columns.map((column) => column.format),
          choices: options.columns ?? {},
          headerLine: header.line,
        },
      ).map((reading) => reading.format);
    }
    if (
      spooled !== null &&
      write.loadCsvFile !== undefined &&
      (encoding as CsvEncoding | null)?.name === "UTF-8" &&
      types.every((type, index) => isCanonicalFormat(type, formats[index]))
    ) {
      engine.write = write;
      return;
    }
    writer = await write.openWriter();
    for (const record of pending.splice(0)) {
      const writing = add(record);
      if (writing) await writing;
    }
  };

  const onBytes = (total: number) => {
    bytes = total;
  };
  try {
    const records = csvRecords(
      options.source,
      maxBytes,
      onBytes,
      options.expectedBytes,
      options.dialect?.delimiter ?? ",",
      {
        chosen: options.encoding && options.encoding !== "auto" ? options.encoding : null,
        onEncoding: (found) => {
          encoding = found;
        },
      },
      options.format ?? "csv",
      options.sheet,
      options.headerRow,
    );
    reading: for await (const batch of records) {
      for (const record of batch) {
        if (engine.write) break reading;
        if (descriptor) {
          const writing = add(record);
          if (writing) await writing;
        } else if (!header) {
          if (record.line < (options.headerRow ?? 1)) continue;
          checkHeader(record);
          header = record;
        } else {
          pending.push(record);
          if (pending.length >= inferenceRows) await start();
        }
      }
    }
    if (!header) throw noHeader(options.headerRow);
    if (!descriptor) await start();
    if (engine.write) {
      return await engineRead(
        engine.write,
        spooled as SpooledCsv,
        (header as CsvRecord).cells.length,
        order,
        options,
        {
          rowsBefore,
          bytesBefore,
          maxRows,
          maxDatasetBytes,
          encoding: encoding as CsvEncoding | null,
        },
      );
    }
    const [first] = problems;
    if (first) {
      throw new DatasetImportError(first.code, firstReason, first.line, first.column, first.row, {
        problems,
        count: problemCount,
      });
    }
    await (writer as RowWriter | null)?.close();
  } catch (error) {
    await (writer as RowWriter | null)?.abort();
    throw error;
  }
  options.onProgress?.({ rows: imported, bytes, encoding });
  if (imported === 0) throw noRows((header as CsvRecord).line);
  // The decoder tells the encoding before the first record, so it is known by now.
  const found = encoding as CsvEncoding | null;
  if (found === null) throw new Error("The CSV decoder did not tell the encoding.");
  return { imported, encoding: found, reader: "store" };
}

/**
 * The whole spooled file read by the engine (the DuckDB data file's read_csv), every cell checked
 * against the canonical forms in SQL. Anything uncertain, or past a limit, declines
 * (CsvLoadDeclined): the caller then reads the file again with the store's own reader, which
 * imports it or names the line at fault.
 */
async function engineRead(
  write: RowsWrite,
  spooled: SpooledCsv,
  headerCount: number,
  order: readonly number[],
  options: ImportOptions,
  bounds: {
    rowsBefore: number;
    /** What the dataset's rows held before (appends), as storedBytes counts. */
    bytesBefore: number;
    maxRows: number;
    maxDatasetBytes: number;
    encoding: CsvEncoding | null;
  },
): Promise<StreamedRows> {
  const load = write.loadCsvFile as NonNullable<RowsWrite["loadCsvFile"]>;
  const imported = await load(
    {
      file: spooled.file,
      delimiter: options.dialect?.delimiter ?? ",",
      headerCount,
      order,
      carriageReturns: spooled.carriageReturns,
      edgeWhitespace: spooled.edgeWhitespace,
      quotes: spooled.quotes,
      underscores: spooled.underscores,
      plusSigns: spooled.plusSigns,
    },
    (rowsRead) =>
      options.onProgress?.({ rows: rowsRead, bytes: spooled.bytes, encoding: bounds.encoding }),
  );
  if (imported === 0 || bounds.rowsBefore + imported > bounds.maxRows) {
    throw new CsvLoadDeclined("no rows, or past the row limit");
  }
  // The exact size (a pass over every row) only where the file's own bound does not settle it.
  const bound = bounds.bytesBefore + storedBytesBound(write.table.columns, imported, spooled.bytes);
  if (
    bound > bounds.maxDatasetBytes &&
    (await storedBytes(write.executor, write.table)) > bounds.maxDatasetBytes
  ) {
    throw new CsvLoadDeclined("past the size limit");
  }
  if (bounds.encoding === null) throw new Error("The CSV decoder did not tell the encoding.");
  options.onProgress?.({ rows: imported, bytes: spooled.bytes, encoding: bounds.encoding });
  return { imported, encoding: bounds.encoding, reader: "engine" };
}

/**
 * Runs an import's `load`. Where the rows home reads CSV files itself (the DuckDB data file), the
 * upload is spooled first and `load` gets the copy to read; if the engine declines the file
 * (CsvLoadDeclined: a cell or line it cannot read with certainty, or a limit), `load` runs again
 * on the same bytes with the store's own reader, which imports them or names the bad line.
 */
async function withEngineRead<T>(
  ctx: StoreContext,
  options: ImportOptions,
  load: (source: CsvSource, spooled: SpooledCsv | null) => Promise<T>,
): Promise<T> {
  const dir = ctx.rows.spoolDir;
  // The engine reads CSV files only; JSON and NDJSON go through the store's reader.
  if (dir === null || (options.format ?? "csv") !== "csv") return load(options.source, null);
  const maxBytes = Math.min(options.maxBytes ?? Infinity, ctx.rows.limits.maxImportBytes);
  const spooled = await spoolUpload(
    options.source,
    dir,
    maxBytes,
    options.dialect?.delimiter ?? ",",
    options.onProgress,
  );
  try {
    const whole =
      spooled.bytes <= maxBytes &&
      (options.expectedBytes === undefined || spooled.bytes === options.expectedBytes);
    if (whole) {
      try {
        return await load(spooledSource(spooled), spooled);
      } catch (error) {
        if (!(error instanceof CsvLoadDeclined)) throw error;
      }
    }
    return await load(spooledSource(spooled), null);
  } finally {
    await removeSpool(spooled);
  }
}

/** An import's rows written (finished on the rows' side), before the state records them. */
interface StagedImport extends StreamedRows {
  /** Rows the dataset held before (appends). */
  before: number;
  /** The generation the rows are in (the data file), for the state commit to record. */
  generation: number;
}

/** The dataset row an import into it reads and checks. */
function readImportTarget(reader: Executor, id: string) {
  return reader
    .selectFrom("datasets")
    .select(["id", "version", "columns_json", "source_id", "rows_generation", "question_sql"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** Writes an import's rows on the dataset's committed state `state`, through `trx`. */
async function stageImportInto(
  ctx: StoreContext,
  trx: Executor,
  state: RowsState,
  input: ImportIntoDatasetInput,
): Promise<StagedImport> {
  const { value, generation } = await withEngineRead(ctx, input, async (source, spooled) => {
    const write =
      input.mode === "replace"
        ? await ctx.rows.replace(trx, input.datasetId, state, state.columns)
        : await ctx.rows.append(trx, state);
    return completeWrite(write, async () => {
      const append = input.mode === "append";
      const before = append ? await countRows(write.executor, write.table) : 0;
      const bytesBefore = append ? await storedBytes(write.executor, write.table) : 0;
      const streamed = await streamInto(
        ctx.rows.limits,
        spooled,
        { ...input, source },
        before,
        bytesBefore,
        async (header, _sample, _declared, headerLine) => {
          checkHeaderNamesColumns(header, state.columns, headerLine);
          return { write };
        },
      );
      return { ...streamed, before };
    });
  });
  return { ...value, generation };
}

/** What the state records of a staged import: row count, version, generation, audit event. */
async function recordImport(
  ctx: StoreContext,
  row: VersionedRow,
  input: ImportIntoDatasetInput,
  staged: StagedImport,
  audit: ImportAudit | undefined,
): Promise<WriteRecord<ImportResult>> {
  const { imported, encoding, reader, before, generation } = staged;
  const added = await recordRowsAdded(ctx, row, input, before, imported, generation);
  const result = { ...added, encoding, reader };
  const { rowCount } = result;
  return {
    result,
    action: audit?.action ?? "dataset.update",
    detail: audit
      ? { ...audit.detail, imported, rowCount }
      : { changed: ["rows"], import: input.mode, imported, rowCount },
  };
}

/**
 * Imports a CSV stream into an existing dataset: all rows or none. In the state database, in one
 * transaction. On the data file the rows are staged outside the state transaction (reads and
 * other datasets' writes go on meanwhile; other writes of this dataset are refused), then one
 * short state transaction records them.
 */
export async function importIntoDataset(
  ctx: StoreContext,
  input: ImportIntoDatasetInput,
  actor: Actor,
): Promise<ImportResult> {
  const checkedActor = authorize(actor, rowsPermission(input.mode), {
    datasetId: input.datasetId,
  });
  if (!ctx.rows.stagesOutside) {
    return ctx.db
      .transaction()
      .execute((trx) => importIntoDatasetIn(trx, ctx, input, checkedActor));
  }
  return ctx.rows.exclusive(input.datasetId, async () => {
    // Read under the state database's write lock: a write of this dataset inside a state
    // transaction has then committed, and later ones are refused until this one ends.
    const current = await ctx.db
      .transaction()
      .execute((trx) => readImportTarget(trx, input.datasetId));
    if (!current) throw new NotFoundError("dataset", input.datasetId);
    if (Number(current.version) !== input.expectedVersion) {
      throw new ConflictError(
        "dataset",
        input.datasetId,
        input.expectedVersion,
        Number(current.version),
      );
    }
    if (!rowsKeptHere(current)) throw liveDatasetReadOnly(current);
    const staged = await stageImportInto(ctx, ctx.db, rowsStateOf(input.datasetId, current), input);
    return ctx.db.transaction().execute((trx) =>
      versionedWriteIn(trx, ctx, checkedActor, {
        entityType: "dataset",
        id: input.datasetId,
        expectedVersion: input.expectedVersion,
        read: readImportTarget,
        change: (_now, row) => recordImport(ctx, row, input, staged, undefined),
      }),
    );
  });
}

/** How an import records itself in the audit log, when not as a plain dataset.update. */
export interface ImportAudit {
  action: AuditAction;
  detail: Record<string, unknown>;
}

/** importIntoDataset on the caller's transaction (the push API adds its own records to it). */
export async function importIntoDatasetIn(
  trx: Executor,
  ctx: StoreContext,
  input: ImportIntoDatasetInput,
  actor: RecordedActor,
  audit?: ImportAudit,
): Promise<ImportResult> {
  return versionedWriteIn(trx, ctx, actor, {
    entityType: "dataset",
    id: input.datasetId,
    expectedVersion: input.expectedVersion,
    read: readImportTarget,
    change: async (current, row, trx) => {
      if (!rowsKeptHere(current)) throw liveDatasetReadOnly(current);
      const staged = await stageImportInto(ctx, trx, rowsStateOf(input.datasetId, current), input);
      return recordImport(ctx, row, input, staged, audit);
    },
  });
}

/** A new dataset's rows written from the file, its columns typed from the first rows. */
async function stageNewDataset(
  ctx: StoreContext,
  trx: Executor,
  id: string,
  input: ImportNewDatasetInput,
) {
  const decimal = input.dialect?.decimal ?? ".";
  return withEngineRead(ctx, input, async (source, spooled) => {
    let write: RowsWrite | null = null;
    let columns: TableColumn[] = [];
    const streaming = streamInto(
      ctx.rows.limits,
      spooled,
      { ...input, source },
      0,
      0,
      async (header, sample, declared, headerLine) => {
        const ids = columnIdsFor(header);
        // The chosen names and types, else a columnar file's own types, else what the text's
        // first rows suggest.
        const readings = readColumns(header, sample, {
          decimal,
          ...(declared ? { declared } : {}),
          choices: input.columns ?? {},
          headerLine,
        });
        checkSavedNames(readings, headerLine);
        columns = readings.map((reading, index) => ({
          id: ids[index] ?? `c_${index}`,
          name: reading.name,
          type: reading.type,
          ...keptFormat(reading),
        }));
        write = await ctx.rows.replace(trx, id, null, columns);
        return { write, readings };
      },
    );
    try {
      const streamed = await streaming;
      const generation = (await (write as RowsWrite | null)?.finish()) ?? 0;
      return { streamed, columns, generation };
    } catch (error) {
      await (write as RowsWrite | null)?.abort().catch(() => undefined);
      throw error;
    }
  });
}

/**
 * Creates a dataset from a CSV stream; column types come from the first 1,000 rows. On the data
 * file the rows are staged before the state transaction, as for importIntoDataset.
 */
export async function importNewDataset(
  ctx: StoreContext,
  input: ImportNewDatasetInput,
  actor: Actor,
): Promise<ImportResult> {
  const checkedActor = authorize(actor, "content.write");
  const text = datasetTextSchema.safeParse({
    name: input.name,
    description: input.description ?? "",
  });
  if (!text.success) throw new ValidationError(formatZodError(text.error));
  const { name, description } = text.data;
  const id = newId();
  // The dataset's row goes in once its rows are written: a second reading of the file (the
  // engine declined it) starts from nothing in the state database.
  const record = (trx: Executor, staged: Awaited<ReturnType<typeof stageNewDataset>>) =>
    createdWrite(trx, ctx, checkedActor, {
      entityType: "dataset",
      id,
      create: async () => {
        const at = ctx.now().toISOString();
        const { streamed, columns, generation } = staged;
        const { imported, encoding, reader } = streamed;
        await trx
          .insertInto("datasets")
          .values({
            id,
            name,
            description,
            columns_json: JSON.stringify(columns),
            row_count: imported,
            version: 1,
            rows_generation: generation,
            created_at: at,
            updated_at: at,
            rows_added_at: imported > 0 ? at : null,
          })
          .execute();
        return {
          result: { datasetId: id, version: 1, imported, rowCount: imported, encoding, reader },
          action: "dataset.create" as const,
          detail: { name, rowCount: imported, import: "create" },
        };
      },
    });
  if (!ctx.rows.stagesOutside) {
    return ctx.db
      .transaction()
      .execute(async (trx) => record(trx, await stageNewDataset(ctx, trx, id, input)));
  }
  return ctx.rows.exclusive(id, async () => {
    const staged = await stageNewDataset(ctx, ctx.db, id, input);
    try {
      return await ctx.db.transaction().execute((trx) => record(trx, staged));
    } catch (error) {
      // The staged rows belong to no dataset: dropped now (or at the next open).
      await ctx.rows.removed(id).catch(() => undefined);
      throw error;
    }
  });
}

/** Streamed CSV imports, all or nothing; each throws DatasetImportError on the first bad line. */
export const importOperations = { importIntoDataset, importNewDataset };
