import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import type pg from "pg";
import type { DatasetTable } from "./db/dataset-table.js";
import type { StoreDatabase } from "./db/schema.js";

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime.
type AnyExecutor = Kysely<any>;

export interface StoreInternals {
  db: Kysely<StoreDatabase>;
  /** The driver object: the better-sqlite3 Database or the pg Pool. */
  database: BetterSqlite3.Database | pg.Pool;
  /** Runs `work` on a dataset's committed rows where they live (state database or data file). */
  rowsOf<T>(
    datasetId: string,
    work: (executor: AnyExecutor, table: DatasetTable) => Promise<T>,
  ): Promise<T>;
}

/**
 * The raw handles behind each open store, for the package's own tests and benchmarks. Not in the
 * package's exports: apps write only through the Store API.
 */
export const storeInternals = new WeakMap<object, StoreInternals>();

export function internalsOf(store: object): StoreInternals {
  const internals = storeInternals.get(store);
  if (!internals) throw new Error("Not a store opened by openStore().");
  return internals;
}
