import { datasetLimits, ValidationError } from "@seed/model";
import type { Executor } from "../../context.js";
import type { DatasetTable } from "../../db/dataset-table.js";
import { storedBytes } from "../../db/rows-table.js";
import { formatBytes } from "./csv.js";

/** The reason a dataset may not grow past datasetLimits.maxDatasetBytes. */
export function datasetSizeReason(maxBytes: number = datasetLimits.maxDatasetBytes): string {
  return `a dataset holds at most ${formatBytes(maxBytes)} of data; remove rows or split the data into several datasets.`;
}

/** Refuses a write (inside its transaction, so nothing stays) that left the dataset too large. */
export async function assertDatasetSize(trx: Executor, descriptor: DatasetTable): Promise<void> {
  const bytes = await storedBytes(trx, descriptor);
  if (bytes > datasetLimits.maxDatasetBytes) {
    const reason = datasetSizeReason();
    throw new ValidationError({
      fieldErrors: { rows: [`${reason.charAt(0).toUpperCase()}${reason.slice(1)}`] },
    });
  }
}
