import { formatBytes, ValidationError } from "@seed/model";
import type { Executor, StoreContext } from "../../context.js";
import type { DatasetTable } from "../../db/dataset-table.js";
import { storedBytes } from "../../db/rows-table.js";
import type { VersionedRow } from "../versioned-write.js";

/** The reason a dataset may not grow past its rows home's maxDatasetBytes. */
export function datasetSizeReason(maxBytes: number): string {
  return `a dataset holds at most ${formatBytes(maxBytes)} of data; remove rows or split the data into several datasets.`;
}

/**
 * Refuses a write (inside its transaction, so nothing stays) that left the dataset larger than
 * `maxBytes` (the rows home's maxDatasetBytes).
 */
export async function assertDatasetSize(
  trx: Executor,
  descriptor: DatasetTable,
  maxBytes: number,
): Promise<void> {
  const bytes = await storedBytes(trx, descriptor);
  if (bytes > maxBytes) {
    const reason = datasetSizeReason(maxBytes);
    throw new ValidationError({
      fieldErrors: { rows: [`${reason.charAt(0).toUpperCase()}${reason.slice(1)}`] },
    });
  }
}

/** What adding rows to a dataset reports: the new version, rows added and rows now held. */
export interface RowsAdded {
  datasetId: string;
  version: number;
  /** Rows this write added. */
  imported: number;
  rowCount: number;
}

/** After `imported` rows went in on top of `before`: the row count and time kept, the report. */
export async function recordRowsAdded(
  ctx: StoreContext,
  row: VersionedRow,
  input: { datasetId: string; expectedVersion: number },
  before: number,
  imported: number,
  /** The data file's generation the rows are now in (rows-home.ts; 0 for the state database). */
  generation: number,
): Promise<RowsAdded> {
  const rowCount = before + imported;
  const at = ctx.now().toISOString();
  await row.update({
    row_count: rowCount,
    rows_generation: generation,
    updated_at: at,
    // A freshness alert (repo/alerts.ts) reads when rows last came in.
    ...(imported > 0 ? { rows_added_at: at } : {}),
  });
  return { datasetId: input.datasetId, version: input.expectedVersion + 1, imported, rowCount };
}
