"use server";

import {
  type AttributeCondition,
  type FilterForm,
  type FilterOperator,
  filterOfForm,
  filterOperators,
  rowLimitLimits,
} from "@seed/model";
import { z } from "zod";
import { storeErrorState } from "@/components/admin/store-errors";
import { type FormState, formText } from "@/lib/form-state";
import { done, formAction, refuse } from "@/server/form-action";

// Row limits (admins): a group's access to a dataset narrowed to the rows meeting its
// conditions. The store checks the conditions against the dataset's columns, writes and audits;
// the engine applies the limit to every read of the dataset for the group's members.

export type RowLimitFormState = FormState<Record<string, string>>;

const idSchema = z.string().min(1).max(200);
const limitOperators: readonly FilterOperator[] = filterOperators.filter((op) => op !== "relative");

function idsOf(formData: FormData) {
  const datasetId = idSchema.safeParse(formText(formData, "datasetId"));
  const groupId = idSchema.safeParse(formText(formData, "groupId"));
  return datasetId.success && groupId.success
    ? { datasetId: datasetId.data, groupId: groupId.data }
    : null;
}

/** Rows `column<i>`, `op<i>`, `value<i>`, `to<i>`; a row with no column is left out. */
export const setRowLimit = formAction<RowLimitFormState>(
  "collections.manage",
  async ({ formData, store, actor }) => {
    const ids = idsOf(formData);
    if (!ids) {
      return refuse({ fieldErrors: { groupId: ["Choose a group."] } });
    }
    const dataset = await store.getDataset(ids.datasetId, 0);
    if (!dataset) return refuse({ formError: "This dataset no longer exists. Reload the page." });
    const rows: { index: number; row: FilterForm | AttributeCondition }[] = [];
    for (let index = 0; index < rowLimitLimits.maxConditions; index++) {
      const column = formText(formData, `column${index}`).slice(0, 64);
      if (column === "") continue;
      const op = formText(formData, `op${index}`);
      const text = (name: string) => formText(formData, `${name}${index}`).slice(0, 10_000);
      if (op === "is_attribute") {
        const attribute = text("value").trim().slice(0, 100);
        rows.push({ index, row: { column, op: "is_attribute", attribute } });
        continue;
      }
      if (!limitOperators.includes(op as FilterOperator)) {
        return refuse({ fieldErrors: { [`op${index}`]: ["Choose how to compare."] } });
      }
      rows.push({
        index,
        row: {
          key: index,
          column,
          op: op as FilterOperator,
          value: text("value"),
          to: text("to"),
          unit: "day",
          which: "last_n",
          n: "1",
          anchor: "today",
        },
      });
    }
    if (rows.length === 0) {
      return refuse({ fieldErrors: { column0: ["Choose a column for at least one condition."] } });
    }
    try {
      const limit = await store.setRowLimit(actor, {
        ...ids,
        conditions: rows.map(({ row }) =>
          "attribute" in row ? row : filterOfForm(row, dataset.columns),
        ),
      });
      return done({
        message: `Saved: ${limit.groupName} sees the rows where ${limit.phrase}.`,
        revalidate: { adminPath: `/admin/datasets/${ids.datasetId}` },
      });
    } catch (error) {
      // The store names conditions by their place among those sent; the form by its row.
      const state = storeErrorState(error);
      const fieldErrors: Record<string, string[]> = {};
      for (const [path, messages] of Object.entries(state.fieldErrors ?? {})) {
        const match = /^conditions\.(\d+)\.(column|op|value)$/.exec(path);
        const row = match ? rows[Number(match[1])] : undefined;
        const field = match?.[2] === "column" ? "column" : match?.[2] === "op" ? "op" : "value";
        const name = row ? `${field}${row.index}` : path === "groupId" ? "groupId" : "column0";
        fieldErrors[name] = [...(fieldErrors[name] ?? []), ...(messages ?? [])];
      }
      return refuse({ ...state, fieldErrors });
    }
  },
);

export const clearRowLimit = formAction<RowLimitFormState>(
  "collections.manage",
  async ({ formData, store, actor }) => {
    const ids = idsOf(formData);
    if (!ids) return refuse({ formError: "Reload the page and try again." });
    await store.clearRowLimit(actor, ids);
    return done({
      message: "Limit removed: the group sees every row its collection grants.",
      revalidate: { adminPath: `/admin/datasets/${ids.datasetId}` },
    });
  },
);
