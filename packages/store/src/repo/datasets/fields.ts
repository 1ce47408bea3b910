import {
  type CalculatedField,
  type CalculatedFieldInput,
  calculatedFieldsOver,
  type DatasetColumnType,
  parseExpression,
  queryColumnsOf,
} from "@seed/model";
import { type Executor, parseJson } from "../../context.js";
import type { DatasetTable, TableColumn } from "../../db/dataset-table.js";

// A dataset's calculated fields as the store keeps them (datasets.fields_json, [{ name,
// expression }]) and the one place they become query columns: the engine compiles a column with
// an expression in place of reading a stored one (engine/compile.ts `ref`).

type StoredColumns = readonly Pick<TableColumn, "name" | "type">[];

/** The fields of a dataset row, each with its type or why it no longer fits the columns. */
export function calculatedFieldsOf(row: {
  columns_json: string;
  fields_json: string;
}): CalculatedField[] {
  return calculatedFieldsOver(
    parseJson<StoredColumns>(row.columns_json),
    parseJson<CalculatedFieldInput[]>(row.fields_json),
  );
}

/** The fields that fit the columns, as columns the engine computes (a broken one is left out). */
export function fieldColumns(columns: StoredColumns, fieldsJson: string): TableColumn[] {
  return parseJson<CalculatedFieldInput[]>(fieldsJson).flatMap((field) => {
    const parsed = parseExpression(field.expression, columns);
    return parsed.ok
      ? [{ id: "", name: field.name, type: parsed.type, expression: parsed.tree }]
      : [];
  });
}

/** A table with the computed columns after its stored ones. */
export function withFieldColumns(table: DatasetTable, fields: TableColumn[]): DatasetTable {
  return fields.length === 0 ? table : { ...table, columns: [...table.columns, ...fields] };
}

/**
 * What queries over a dataset may name (stored columns, then the fields that fit them), for
 * checking a chart, a stat tile or a dashboard filter; null when the dataset is missing.
 */
export async function queryColumnsIn(
  trx: Executor,
  datasetId: string,
): Promise<{ name: string; type: DatasetColumnType }[] | null> {
  const row = await trx
    .selectFrom("datasets")
    .select(["columns_json", "fields_json"])
    .where("id", "=", datasetId)
    .executeTakeFirst();
  if (!row) return null;
  return queryColumnsOf({
    columns: parseJson<StoredColumns>(row.columns_json),
    calculatedFields: calculatedFieldsOf(row),
  });
}
