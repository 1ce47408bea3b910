import {
  checkRows,
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
import { liveDatasetReadOnly } from "../../db/dataset-table.js";
import { completeWrite, type RowsState, writeAllRows } from "../../db/rows-home.js";
import { countRows, deleteRows, existingKeys, rowsById, updateRow } from "../../db/rows-table.js";
import { versionedWrite, versionedWriteIn } from "../versioned-write.js";
import { type Dataset, getDatasetSummaryIn, rowsOrThrow, rowsStateIn } from "./datasets.js";
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
      if (current.live || current.question)
        throw liveDatasetReadOnly({ question_sql: current.question?.sql });
      const state = (await rowsStateIn(trx, id)) as RowsState;
      const sets = edits.set ?? [];
      const removals = [...new Set(edits.remove ?? [])];
      const keys = [...sets.map((edit) => edit.key), ...removals];
      const wanted = keys.filter((key) => Number.isSafeInteger(key));
      const present = await ctx.rows.read(trx, state, (executor, table) =>
        existingKeys(executor, table, wanted),
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
      const write = await ctx.rows.edit(trx, state);
      const { executor, table } = write;
      const { value: rowCount, generation } = await completeWrite(write, async () => {
        for (const { key, row } of checkedSets) {
          await updateRow(executor, table, key, rowsById(table.columns, [row])[0] ?? {});
        }
        await deleteRows(executor, table.table, removals);
        await writeAllRows(
          write,
          appended.rows.map((added) => table.columns.map((column) => added[column.name] ?? null)),
        );
        if (sets.length > 0 || appended.rows.length > 0) {
          await assertDatasetSize(executor, table, ctx.rows.limits.maxDatasetBytes);
        }
        return countRows(executor, table);
      });
      const at = ctx.now().toISOString();
      await row.update({ row_count: rowCount, rows_generation: generation, updated_at: at });
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
      if (current.live || current.question)
        throw liveDatasetReadOnly({ question_sql: current.question?.sql });
      const rows = rowsOrThrow(current.columns, input.rows, { numbered: true });
      const state = (await rowsStateIn(trx, input.datasetId)) as RowsState;
      const before = input.mode === "append" ? current.rowCount : 0;
      const { maxImportRows } = ctx.rows.limits;
      if (before + rows.length > maxImportRows) {
        throw new ValidationError({
          fieldErrors: {
            rows: [`A dataset holds at most ${maxImportRows.toLocaleString("en-US")} rows.`],
          },
          problems: [
            {
              field: "rows",
              code: "too_many_rows",
              message: `A dataset holds at most ${maxImportRows.toLocaleString("en-US")} rows.`,
            },
          ],
        });
      }
      const write =
        input.mode === "replace"
          ? await ctx.rows.replace(trx, input.datasetId, state, state.columns)
          : await ctx.rows.append(trx, state);
      const { generation } = await completeWrite(write, async () => {
        await writeAllRows(
          write,
          rows.map((added) => write.table.columns.map((column) => added[column.name] ?? null)),
        );
        await assertDatasetSize(write.executor, write.table, ctx.rows.limits.maxDatasetBytes);
      });
      const result = await recordRowsAdded(ctx, row, input, before, rows.length, generation);
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
