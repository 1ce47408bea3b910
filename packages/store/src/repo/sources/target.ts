import type { Kysely } from "kysely";
import { type Executor, parseJson, type StoreContext } from "../../context.js";
import { type DatasetTable, datasetTableName, type TableColumn } from "../../db/dataset-table.js";
import { sourceFailure } from "./connections.js";
import { withSource } from "./remote.js";
import { getSourceRowIn } from "./sources.js";

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/** Where and how a dataset is queried: its own table here, or a live source's table there. */
export interface DatasetTarget {
  table: DatasetTable;
  /** The live source's cache time-to-live in seconds; null for a dataset kept here. */
  cacheTtlSeconds: number | null;
  /** Runs the engine's work on the right executor (a live source: read-only, with its timeout). */
  run<T>(work: (executor: AnyExecutor) => Promise<T>): Promise<T>;
}

/** The one place that decides where a dataset's queries run; null when the dataset is missing. */
export async function resolveDatasetTarget(
  ctx: StoreContext,
  trx: Executor,
  datasetId: string,
): Promise<DatasetTarget | null> {
  const row = await trx
    .selectFrom("datasets")
    .select(["columns_json", "source_id", "source_schema", "source_table"])
    .where("id", "=", datasetId)
    .executeTakeFirst();
  if (!row) return null;
  const columns = parseJson<TableColumn[]>(row.columns_json);
  if (row.source_id === null) {
    return {
      table: { table: datasetTableName(datasetId), columns },
      cacheTtlSeconds: null,
      run: (work) => work(trx as AnyExecutor),
    };
  }
  const source = await getSourceRowIn(trx, row.source_id);
  if (!source) throw sourceFailure("The live source of this dataset no longer exists.");
  return {
    table: {
      table: row.source_table ?? "",
      columns,
      remote: { schema: row.source_schema ?? "", rowCap: Number(source.row_cap) },
    },
    cacheTtlSeconds: Number(source.cache_ttl_seconds),
    run: (work) => withSource(ctx, source, work),
  };
}
