import {
  type CheckedExpression,
  type ColumnFormat,
  type DatasetColumnType,
  ValidationError,
} from "@seed/model";
import { type RawBuilder, sql } from "kysely";

// The physical form of a dataset's rows, shared by the datasets module (which writes them) and
// the query engine (which reads them). See DATASET-TABLES contract: one table per dataset, a `_row`
// key, one typed column per dataset column named by a safe identifier.

/** A column of a dataset's own table: its SQL name beside the name people see. */
export interface TableColumn {
  /** SQL column name, `c_<slug>`; never user text unescaped. */
  id: string;
  /** Display name, as the CSV header or the editor gave it. */
  name: string;
  type: DatasetColumnType;
  /**
   * How the file the column came from wrote its values, when not the canonical form (a number
   * format, a day pattern): a later import reads the column so while its cells fit (a day-first
   * reading chosen once is never silently read month-first again).
   */
  format?: ColumnFormat;
  /**
   * A calculated field's checked expression over the stored columns (repo/datasets/fields.ts):
   * the engine computes the column instead of reading one, and `id` is unused.
   */
  expression?: CheckedExpression;
}

export interface DatasetTable {
  table: string;
  columns: TableColumn[];
  /**
   * A live source's table or view (src/repo/sources): `table` and the column ids are the names its
   * catalog gave, quoted when used; it has no row key, and raw series stop at its row cap.
   */
  remote?: { schema: string; rowCap: number };
  /**
   * A saved SQL question (src/repo/sql-questions.ts): the statement read instead of a table, with
   * `remote` for its column names (quoted as the question gave them) and its row cap.
   */
  subquery?: RawBuilder<unknown>;
  /**
   * A generation table of the DuckDB data file (data-file.ts): only rows whose `_v` is at most
   * this version are the dataset's committed rows; the query engine adds `_v <= visibleVersion`
   * to every statement's where clause.
   */
  visibleVersion?: number;
  /**
   * The rows a reader is limited to (src/repo/row-limits.ts, compiled by src/engine/row-limit.ts):
   * a condition over the table's columns that every statement reading the rows adds, like
   * `visibleVersion`.
   */
  rowLimit?: RawBuilder<unknown>;
}

/** The hidden column of a data-file generation table: the version whose write added the row. */
export const versionColumn = "_v";

/**
 * The condition that keeps the rows a read of the descriptor sees: its committed rows
 * (`_v <= visibleVersion`) within the reader's row limit; null for a table that holds only
 * committed rows, read by someone no limit applies to. Every statement that reads a dataset's
 * rows adds it.
 */
export function visibleRowsCondition(descriptor: DatasetTable): RawBuilder<unknown> | null {
  const parts: RawBuilder<unknown>[] = [];
  const visible = descriptor.visibleVersion;
  if (visible !== undefined) {
    if (!Number.isSafeInteger(visible) || visible < 0) throw new Error(`Bad version ${visible}`);
    parts.push(sql`${sql.id(versionColumn)} <= ${sql.lit(visible)}`);
  }
  if (descriptor.rowLimit) parts.push(descriptor.rowLimit);
  return parts.length === 0 ? null : sql.join(parts, sql` and `);
}

/** Longest identifier PostgreSQL keeps (NAMEDATALEN - 1); SQLite has no limit. */
const maxIdentifierBytes = 63;
const maxSlugBytes = 60;

/** The row key column of every dataset table: insertion order, integer primary key. */
export const rowKeyColumn = "_row";

/** `ds_<id>` with every character outside [a-z0-9] as `_`, cut to fit 63 bytes. */
export function datasetTableName(id: string): string {
  const safe = id.toLowerCase().replace(/[^a-z0-9]/g, "_");
  return `ds_${safe}`.slice(0, maxIdentifierBytes);
}

function slugOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return slug === "" ? "column" : slug;
}

/**
 * Safe SQL column names `c_<slug>` for display names, in order: lower-case [a-z0-9_], at most
 * 60 bytes, repeats numbered _2, _3, ... Only ever [a-z0-9_], so quoting is never needed.
 */
export function columnIdsFor(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    const base = `c_${slugOf(name)}`.slice(0, maxSlugBytes);
    let id = base;
    for (let n = 2; used.has(id); n++) {
      const suffix = `_${n}`;
      id = `${base.slice(0, maxSlugBytes - suffix.length)}${suffix}`;
    }
    used.add(id);
    return id;
  });
}

/** A name from a remote catalog: PostgreSQL keeps at most 63 bytes, and none holds a NUL. */
export function isRemoteIdentifier(identifier: string): boolean {
  return (
    identifier.length > 0 &&
    Buffer.byteLength(identifier) <= maxIdentifierBytes &&
    !identifier.includes("\u0000")
  );
}

/** True for identifiers this module makes; checked before any identifier reaches SQL. */
export function isSafeIdentifier(identifier: string): boolean {
  return /^[a-z_][a-z0-9_]{0,62}$/.test(identifier);
}

/**
 * Whether a dataset's rows are kept here (its own table) rather than read elsewhere: a live
 * source's table, or a saved SQL question's answer. The one rule every rows path asks.
 */
export function rowsKeptHere(row: {
  source_id: string | null;
  question_sql?: string | null;
}): boolean {
  return row.source_id === null && (row.question_sql ?? null) === null;
}

/**
 * The refusal of a rows write (import, push, edit) on a dataset whose rows are not kept here:
 * a live dataset's stay in its source; a question's are its answer.
 */
export function liveDatasetReadOnly(row?: { question_sql?: string | null }): ValidationError {
  return new ValidationError({
    fieldErrors: {},
    formError:
      (row?.question_sql ?? null) !== null
        ? "This dataset is a SQL question: its rows are the question's answer and cannot be imported, pushed or edited here. Change the question instead."
        : "This dataset is live: its rows stay in its source database and cannot be imported, pushed or edited here.",
  });
}
