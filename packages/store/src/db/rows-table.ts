import {
  type CellValue,
  columnTypeSpecs,
  type DatasetColumnType,
  type DatasetRow,
  setOwn,
} from "@seed/model";
import { CompiledQuery, type Kysely, type RawBuilder, sql } from "kysely";
import {
  type DatasetTable,
  isSafeIdentifier,
  rowKeyColumn,
  type TableColumn,
  visibleRowsCondition,
} from "./dataset-table.js";
import { type Dialect, dialectOf } from "./dialect.js";

// Reads and writes a dataset's own table (see table.ts). Identifiers come only from
// datasetTableName/columnIdsFor and are checked again here before they reach SQL.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/** Bound parameters per statement: SQLite allows 32,766, PostgreSQL 65,535. */
const maxParameters = 30_000;
const maxBatchRows = 5_000;
const postgresBatchRows = 10_000;

export function batchSize(columnCount: number): number {
  return Math.max(1, Math.min(maxBatchRows, Math.floor(maxParameters / Math.max(1, columnCount))));
}

function checked(identifier: string): string {
  if (!isSafeIdentifier(identifier)) throw new Error(`Unsafe identifier ${identifier}`);
  return identifier;
}

/**
 * Creates the table; `indexes: false` leaves them to createRowsIndexes after a bulk load.
 * `hidden` column definitions (data-file.ts's `_v`) go in the same statement: DuckDB 1.5 cannot
 * replay an ALTER TABLE ... ADD COLUMN from its WAL on a table whose key defaults to nextval.
 */
export async function createRowsTable(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  options: {
    indexes?: boolean;
    hidden?: readonly RawBuilder<unknown>[];
    /**
     * The DuckDB data file's generations: every writer gives `_row` itself (no default, no
     * sequence), or leaves it empty for a key implied by the row id (dialect.rowKeyRef).
     */
    keysGiven?: boolean;
  } = {},
) {
  const dialect = dialectOf(executor);
  const table = checked(descriptor.table);
  const key = options.keysGiven
    ? sql`${sql.id(rowKeyColumn)} bigint`
    : dialect.rowKey(rowKeyColumn, table);
  const columns = descriptor.columns.map(
    (column) => sql`${sql.id(checked(column.id))} ${sql.raw(dialect.columnTypes[column.type])}`,
  );
  const sequence = options.keysGiven ? null : dialect.keySequence(table);
  if (sequence) await sequence.create.execute(executor);
  const hidden = options.hidden ?? [];
  await sql`create table ${sql.table(table)} (${sql.join([key, ...columns, ...hidden])})`.execute(
    executor,
  );
  if (options.indexes !== false) await createRowsIndexes(executor, descriptor);
}

/** An index on every date and timestamp column (building them after a bulk load is faster). */
export async function createRowsIndexes(executor: AnyExecutor, descriptor: DatasetTable) {
  if (!dialectOf(executor).timeIndexes) return;
  const table = checked(descriptor.table);
  for (const column of descriptor.columns) {
    if (column.type !== "date" && column.type !== "timestamp") continue;
    const index = checked(`${table}_${column.id}`.slice(0, 63));
    await sql`create index ${sql.id(index)} on ${sql.table(table)} (${sql.id(column.id)})`.execute(
      executor,
    );
  }
}

export async function dropRowsTable(executor: AnyExecutor, table: string) {
  await sql`drop table if exists ${sql.table(checked(table))}`.execute(executor);
  await dialectOf(executor).keySequence(table)?.drop.execute(executor);
}

/**
 * Empties a rows table and restarts its row keys at 1 on every engine, so rows after a replace
 * are numbered the same way everywhere.
 */
export async function clearRowsTable(executor: AnyExecutor, table: string) {
  await dialectOf(executor).clearTable(executor, checked(table));
}

function fromStored(type: DatasetColumnType, value: unknown): CellValue {
  return value === null || value === undefined ? null : columnTypeSpecs[type].fromRead(value);
}

/**
 * Inserts rows keyed by column id, in multi-row INSERTs sized under the parameter limit. The
 * statement text is built once per batch size with placeholders (no per-cell query builder), as
 * this is the hot path of a million-row import.
 */
export async function insertRows(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  rows: ReadonlyArray<Record<string, CellValue | boolean>>,
) {
  const dialect = dialectOf(executor);
  const columns = descriptor.columns;
  const size = batchSize(columns.length);
  const head = `insert into "${checked(descriptor.table)}" (${columns
    .map((column) => `"${checked(column.id)}"`)
    .join(", ")}) values `;
  const statements = new Map<number, string>();
  const statementFor = (count: number) => {
    let text = statements.get(count);
    if (text === undefined) {
      const tuples: string[] = [];
      let parameter = 0;
      for (let row = 0; row < count; row++) {
        const marks = columns.map(() => dialect.placeholder(++parameter));
        tuples.push(`(${marks.join(", ")})`);
      }
      text = head + tuples.join(", ");
      statements.set(count, text);
    }
    return text;
  };
  if (dialect.jsonBatchInsert) {
    // One JSON parameter per batch (V8's JSON.stringify and PostgreSQL's JSON parser are both
    // native and fast) instead of one parameter per cell, which is what makes bulk INSERTs slow.
    const text = `${head.replace(/ values $/, "")} select ${columns
      .map((column, index) => `(r->>${index})::${dialect.columnTypes[column.type]}`)
      .join(", ")} from json_array_elements($1::json) as r`;
    for (let start = 0; start < rows.length; start += postgresBatchRows) {
      const batch = rows.slice(start, start + postgresBatchRows);
      const tuples = batch.map((row) =>
        columns.map((column) => dialect.stored(column.type, row[column.id] ?? null)),
      );
      await executor.executeQuery(CompiledQuery.raw(text, [JSON.stringify(tuples)]));
    }
    return;
  }
  for (let start = 0; start < rows.length; start += size) {
    const batch = rows.slice(start, start + size);
    const parameters: unknown[] = [];
    for (const row of batch) {
      for (const column of columns) {
        parameters.push(dialect.stored(column.type, row[column.id] ?? null));
      }
    }
    await executor.executeQuery(CompiledQuery.raw(statementFor(batch.length), parameters));
  }
}

/** Expressions that read each column back as text, numbers or epoch ms on every engine. */
function selectList(dialect: Dialect, columns: readonly TableColumn[]) {
  return columns.map((column) => {
    const id = sql.id(checked(column.id));
    return sql`${dialect.read(id, column.type)} as ${id}`;
  });
}

export interface RowsPageOptions {
  limit: number;
  offset?: number;
  /** Column id to sort by; rows keep insertion order otherwise and within ties. */
  sortBy?: string;
  descending?: boolean;
  /** Case-insensitive substring filter over text columns. */
  search?: string;
}

/** Rows keyed by display name, in insertion order unless sorted; never more than `limit`. */
export async function readRows(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  options: RowsPageOptions,
): Promise<DatasetRow[]> {
  return (await readKeyedRows(executor, descriptor, options)).map((keyed) => keyed.row);
}

/** A row with its key (`_row`), the handle for editing it. */
export interface KeyedRow {
  key: number;
  row: DatasetRow;
}

export async function readKeyedRows(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  options: RowsPageOptions,
): Promise<KeyedRow[]> {
  const dialect = dialectOf(executor);
  const table = sql.table(checked(descriptor.table));
  const key = dialect.rowKeyRef;
  const sortColumn = descriptor.columns.find((column) => column.id === options.sortBy);
  const direction = sql.raw(options.descending ? "desc" : "asc");
  const order = sortColumn
    ? sql`${sql.id(checked(sortColumn.id))} ${direction}, ${key}`
    : sql`${key} ${direction}`;
  const where = whereClause(dialect, descriptor, options.search);
  const result = await sql<
    Record<string, unknown>
  >`select ${key} as ${sql.id(rowKeyColumn)}, ${sql.join(
    selectList(dialect, descriptor.columns),
  )} from ${table} ${where} order by ${order} limit ${Math.max(0, Math.floor(options.limit))} offset ${Math.max(0, Math.floor(options.offset ?? 0))}`.execute(
    executor,
  );
  return result.rows.map((stored) => {
    const row: DatasetRow = {};
    for (const column of descriptor.columns) {
      setOwn(row, column.name, fromStored(column.type, stored[column.id]));
    }
    return { key: Number(stored[rowKeyColumn]), row };
  });
}

/** Which of these row keys exist among the rows a read of the descriptor sees. */
export async function existingKeys(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  keys: readonly number[],
): Promise<Set<number>> {
  if (keys.length === 0) return new Set();
  const key = dialectOf(executor).rowKeyRef;
  const visible = visibleRowsCondition(descriptor);
  const result = await sql<{ k: number | string }>`select ${key} as k from ${sql.table(
    checked(descriptor.table),
  )} where ${key} in (${sql.join(keys.map((k) => sql.val(k)))})${
    visible ? sql` and ${visible}` : sql``
  }`.execute(executor);
  return new Set(result.rows.map((row) => Number(row.k)));
}

export async function updateRow(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  key: number,
  row: Record<string, CellValue | boolean>,
) {
  const dialect = dialectOf(executor);
  const assignments = descriptor.columns.map(
    (column) =>
      sql`${sql.id(checked(column.id))} = ${sql.val(dialect.stored(column.type, row[column.id] ?? null))}`,
  );
  await sql`update ${sql.table(checked(descriptor.table))} set ${sql.join(assignments)} where ${
    dialect.rowKeyRef
  } = ${key}`.execute(executor);
}

export async function deleteRows(executor: AnyExecutor, table: string, keys: readonly number[]) {
  if (keys.length === 0) return;
  await sql`delete from ${sql.table(checked(table))} where ${dialectOf(executor).rowKeyRef} in (${sql.join(
    keys.map((k) => sql.val(k)),
  )})`.execute(executor);
}

/** The rows a read sees: the committed ones (data file), matching the search if there is one. */
function whereClause(dialect: Dialect, descriptor: DatasetTable, search?: string) {
  const parts: RawBuilder<unknown>[] = [];
  const visible = visibleRowsCondition(descriptor);
  if (visible) parts.push(visible);
  const text = search?.trim();
  const textColumns = descriptor.columns.filter((column) => column.type === "string");
  if (text && textColumns.length > 0) {
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = dialect.ilike;
    const matches = textColumns.map(
      (column) => sql`lower(${sql.id(checked(column.id))}) ${like} ${pattern} escape '\\'`,
    );
    parts.push(sql`(${sql.join(matches, sql` or `)})`);
  }
  return parts.length === 0 ? sql`` : sql`where ${sql.join(parts, sql` and `)}`;
}

export async function countRows(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  search?: string,
): Promise<number> {
  const where = whereClause(dialectOf(executor), descriptor, search);
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(
    checked(descriptor.table),
  )} ${where}`.execute(executor);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * What one cell counts toward datasetLimits.maxDatasetBytes: the UTF-8 bytes of text, 8 for any
 * other filled cell. storedBytes measures the same in SQL.
 */
export function cellBytes(type: DatasetColumnType, value: unknown): number {
  if (value === null || value === undefined) return 0;
  return type === "string" ? Buffer.byteLength(String(value), "utf8") : 8;
}

/** A dataset table's size as cellBytes counts it, measured by the database. */
/**
 * At most what storedBytes counts for `rows` rows read from a UTF-8 CSV file of `fileBytes`
 * bytes: 8 for each other cell, and text cells no more bytes than the file holds them in (a
 * cell's stored text is its text in the file unquoted, trimmed, its line ends made \n). Where
 * this is within a limit, the rows are, with no pass over them.
 */
export function storedBytesBound(
  columns: readonly TableColumn[],
  rows: number,
  fileBytes: number,
): number {
  const fixed = columns.filter((column) => column.type !== "string").length;
  return rows * 8 * fixed + fileBytes;
}

export async function storedBytes(
  executor: AnyExecutor,
  descriptor: DatasetTable,
): Promise<number> {
  if (descriptor.columns.length === 0) return 0;
  const dialect = dialectOf(executor);
  const terms = descriptor.columns.map((column) => {
    const id = sql.id(checked(column.id));
    if (column.type !== "string") return sql`case when ${id} is null then 0 else 8 end`;
    return dialect.textBytes(id);
  });
  const result = await sql<{ n: number | string | null }>`select sum(${sql.join(
    terms,
    sql` + `,
  )}) as n from ${sql.table(checked(descriptor.table))} ${whereClause(dialect, descriptor)}`.execute(
    executor,
  );
  return Number(result.rows[0]?.n ?? 0);
}

/** The dataset's rows keyed by column id, as insertRows takes them. */
export function rowsById(columns: readonly TableColumn[], rows: readonly DatasetRow[]) {
  return rows.map((row) => {
    const out: Record<string, DatasetRow[string]> = {};
    for (const column of columns) out[column.id] = row[column.name] ?? null;
    return out;
  });
}
