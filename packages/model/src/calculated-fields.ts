import { z } from "zod";
import { parseExpression } from "./expression/check.js";
import { type ExpressionColumn, expressionLimits } from "./expression/tree.js";
import { boundedText } from "./fields.js";
import { datasetLimits } from "./limits.js";
import type { QueryColumn } from "./query/spec.js";
import type { DatasetColumnType } from "./vocabulary.js";

// Calculated fields: a name and an expression over a dataset's stored columns, kept with the
// dataset and usable in a query wherever a column is (x, measure, breakdown, filter). A field's
// type is its expression's; the engines compile it to SQL (store: engine/expression.ts). A field
// names stored columns only, so deleting or retyping a column is what can break one.

export const calculatedFieldLimits = {
  /** Fields on one dataset. */
  maxFields: 30,
} as const;

export interface CalculatedFieldInput {
  name: string;
  expression: string;
}

/** A field as the dataset keeps it: its type, or why it no longer fits the columns. */
export interface CalculatedField extends CalculatedFieldInput {
  /** The expression's type; null when it no longer fits the columns (see `problem`). */
  type: DatasetColumnType | null;
  /** Why the expression does not fit the dataset's columns now; null when it does. */
  problem: string | null;
}

const fieldSchema = z.object({
  name: boundedText(
    "Enter a name for the field.",
    datasetLimits.maxColumnNameLength,
    `Keep field names under ${datasetLimits.maxColumnNameLength + 1} characters.`,
  ),
  expression: boundedText(
    "Enter an expression.",
    expressionLimits.maxLength,
    `Keep expressions under ${expressionLimits.maxLength + 1} characters.`,
  ),
});

export const calculatedFieldsSchema = z
  .array(fieldSchema, { error: "Give the calculated fields as a list." })
  .max(
    calculatedFieldLimits.maxFields,
    `A dataset has at most ${calculatedFieldLimits.maxFields} calculated fields.`,
  );

/** A field checked against the columns: its type, or the expression's problems in sentences. */
function checkField(
  columns: readonly ExpressionColumn[],
  field: CalculatedFieldInput,
): { type: DatasetColumnType } | { problems: string[] } {
  const parsed = parseExpression(field.expression, columns);
  return parsed.ok
    ? { type: parsed.type }
    : { problems: parsed.errors.map((error) => error.message) };
}

/**
 * The fields as the dataset keeps them over these columns (a field that no longer fits says why).
 * Names are compared as queries compare them: exactly.
 */
export function calculatedFieldsOver(
  columns: readonly ExpressionColumn[],
  fields: readonly CalculatedFieldInput[],
): CalculatedField[] {
  return fields.map((field) => {
    const checked = checkField(columns, field);
    return "type" in checked
      ? { ...field, type: checked.type, problem: null }
      : { ...field, type: null, problem: checked.problems.join(" ") };
  });
}

/**
 * The problems of a new list of fields over the columns, keyed by field path
 * (`calculatedFields.2.expression`): a name used by a column or by another field, an expression
 * that does not parse, names an unknown column, mixes types, or is always empty.
 */
export function calculatedFieldErrors(
  columns: readonly ExpressionColumn[],
  fields: readonly CalculatedFieldInput[],
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (path: string, message: string) => {
    errors[path] = [...(errors[path] ?? []), message];
  };
  const columnNames = new Set(columns.map((column) => column.name));
  const seen = new Set<string>();
  fields.forEach((field, index) => {
    const path = `calculatedFields.${index}`;
    if (columnNames.has(field.name)) {
      add(`${path}.name`, `"${field.name}" is already a column of the dataset; pick another name.`);
    } else if (seen.has(field.name)) {
      add(`${path}.name`, `Field name "${field.name}" is used twice.`);
    }
    seen.add(field.name);
    const checked = checkField(columns, field);
    if ("problems" in checked) {
      for (const problem of checked.problems) add(`${path}.expression`, problem);
    }
  });
  return errors;
}

/**
 * What a query may name: the stored columns, then the fields that fit them (a broken field is
 * left out, so a query naming it says the column is missing).
 */
export function queryColumnsOf(dataset: {
  columns: readonly { name: string; type: DatasetColumnType }[];
  calculatedFields?: readonly CalculatedField[];
}): QueryColumn[] {
  const fields = (dataset.calculatedFields ?? []).flatMap((field) =>
    field.type === null ? [] : [{ name: field.name, type: field.type, calculated: true as const }],
  );
  return [...dataset.columns.map(({ name, type }) => ({ name, type })), ...fields];
}
