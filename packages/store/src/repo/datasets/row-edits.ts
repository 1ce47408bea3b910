import {
  checkRows,
  datasetLimits,
  datasetRowsSchema,
  type RowProblem,
  rowProblemsError,
  ValidationError,
} from "@seed/model";
import { type Actor, authorize } from "../../access/policy.js";
import {
  type AuditAction,
  type Executor,
  parseInput,
  type RecordedActor,
  type StoreContext,
} from "../../context.js";
import { type DatasetTable, liveDatasetReadOnly } from "../../db/dataset-table.js";
import {
  clearRowsTable,
  countRows,
  deleteRows,
  existingKeys,
  insertRows,
  rowsById,
  updateRow,
} from "../../db/rows-table.js";
import { versionedWrite, versionedWriteIn } from "../versioned-write.js";
import { type Dataset, getDatasetSummaryIn, getDatasetTableIn, rowsOrThrow } from "./datasets.js";
import { assertDatasetSize, type RowsAdded, recordRowsAdded } from "./size.js";

/** Row-level edits by row key (`_row`, see listDatasetRows): set replaces, remove drops, append adds. */
export interface DatasetRowEdits {
  set?: ReadonlyArray<{ key: number; row: Record<string, unknown> }>;
  remove?: readonly number[];
  append?: ReadonlyArray<Record<string, unknown>>;
}

/** Applies row edits in place (UPDATE, DELETE, INSERT of those rows only), versioned and audited. */
export async function editDatasetRows(
  ctx: StoreContext,
  id: string,
  expectedVersion: number,
  edits: DatasetRowEdits,
  actor: Actor,
): Promise<Dataset> {
  const checkedActor = authorize(actor, "content.write");
  return versionedWrite(ctx, checkedActor, {
    entityType: "dataset",
    id,
    expectedVersion,
    read: getDatasetSummaryIn,
    change: async (current, row, trx) => {
      if (current.live) throw liveDatasetReadOnly();
      const descriptor = (await getDatasetTableIn(trx, id)) as DatasetTable;
      const sets = edits.set ?? [];
      const removals = [...new Set(edits.remove ?? [])];
      const keys = [...sets.map((edit) => edit.key), ...removals];
      const present = await existingKeys(
        trx,
        descriptor.table,
        keys.filter((key) => Number.isSafeInteger(key)),
      );
      const badKeys = [...new Set(keys.filter((key) => !present.has(key)))];
      if (badKeys.length > 0) {
        const missing = badKeys.map((key) => ({
          field: `rows.${key}`,
          code: "missing_row",
          message: `Row ${key} does not exist.`,
        }));
        throw new ValidationError({
          fieldErrors: { rows: missing.map((problem) => problem.message) },
          problems: missing,
        });
      }
      // Stored rows are named by their key, added rows as "new 1", "new 2"... in the order given.
      const problems: { problem: RowProblem; ref: string; label: string }[] = [];
      const checkedSets = sets.map(({ key, row }) => {
        const checked = checkRows(current.columns, parseInput(datasetRowsSchema, [row]));
        for (const problem of checked.problems) {
          problems.push({ problem, ref: String(key), label: `Row ${key}` });
        }
        return { key, row: checked.rows[0] ?? {} };
      });
      const appended = checkRows(
        current.columns,
        parseInput(datasetRowsSchema, edits.append ?? []),
      );
      for (const problem of appended.problems) {
        problems.push({ problem, ref: `new-${problem.row}`, label: `New row ${problem.row}` });
      }
      if (problems.length > 0) throw rowProblemsError(problems);
      for (const { key, row } of checkedSets) {
        await updateRow(trx, descriptor, key, rowsById(descriptor.columns, [row])[0] ?? {});
      }
      await deleteRows(trx, descriptor.table, removals);
      await insertRows(trx, descriptor, rowsById(descriptor.columns, appended.rows));
      if (sets.length > 0 || appended.rows.length > 0) await assertDatasetSize(trx, descriptor);
      const rowCount = await countRows(trx, descriptor);
      const at = ctx.now().toISOString();
      await row.update({ row_count: rowCount, updated_at: at });
      return {
        result: { ...current, rowCount, version: expectedVersion + 1, updatedAt: at },
        action: "dataset.update",
        detail: {
          changed: ["rows"],
          set: sets.length,
          removed: removals.length,
          appended: appended.rows.length,
        },
      };
    },
  });
}

/** Rows given as a list (the push API's JSON), checked and written all or none. */
export interface ListedRowsInput {
  datasetId: string;
  expectedVersion: number;
  mode: "append" | "replace";
  rows: ReadonlyArray<Record<string, unknown>>;
}

/**
 * Appends or replaces rows on the caller's transaction: each cell checked against its column
 * (problems name the row as given and the column), the table cleared first for replace, the
 * dataset's size and row limits kept, one versioned update and one audit event.
 */
export async function writeListedRowsIn(
  trx: Executor,
  ctx: StoreContext,
  input: ListedRowsInput,
  actor: RecordedActor,
  audit: { action: AuditAction; detail: Record<string, unknown> },
): Promise<RowsAdded> {
  return versionedWriteIn(trx, ctx, actor, {
    entityType: "dataset",
    id: input.datasetId,
    expectedVersion: input.expectedVersion,
    read: getDatasetSummaryIn,
    change: async (current, row, trx) => {
      if (current.live) throw liveDatasetReadOnly();
      const rows = rowsOrThrow(current.columns, input.rows, { numbered: true });
      const descriptor = (await getDatasetTableIn(trx, input.datasetId)) as DatasetTable;
      if (input.mode === "replace") await clearRowsTable(trx, descriptor.table);
      const before = input.mode === "append" ? current.rowCount : 0;
      if (before + rows.length > datasetLimits.maxImportRows) {
        throw new ValidationError({
          fieldErrors: {
            rows: [
              `A dataset holds at most ${datasetLimits.maxImportRows.toLocaleString("en-US")} rows.`,
            ],
          },
          problems: [
            {
              field: "rows",
              code: "too_many_rows",
              message: `A dataset holds at most ${datasetLimits.maxImportRows.toLocaleString("en-US")} rows.`,
            },
          ],
        });
      }
      await insertRows(trx, descriptor, rowsById(descriptor.columns, rows));
      await assertDatasetSize(trx, descriptor);
      const result = await recordRowsAdded(ctx, row, input, before, rows.length);
      return {
        result,
        action: audit.action,
        detail: { ...audit.detail, imported: result.imported, rowCount: result.rowCount },
      };
    },
  });
}

/** Row edits by key, in place: set replaces, remove drops, append adds. */
export const rowEditOperations = { editDatasetRows };
