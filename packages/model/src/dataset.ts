import { z } from "zod";
import { calculatedFieldsSchema } from "./calculated-fields.js";
import { cellProblem } from "./column-types.js";
import { type FieldProblem, ValidationError } from "./errors.js";
import { boundedText, optionalText, requiredText } from "./fields.js";
import { hierarchiesSchema } from "./hierarchies.js";
import { datasetLimits, textLimits } from "./limits.js";
import { booleanWords } from "./readers/read-cell.js";
import { type CellValue, type DatasetRow, isNumberText, setOwn } from "./values.js";
import { type ColumnType, columnTypes } from "./vocabulary.js";

export interface DatasetColumn {
  name: string;
  type: ColumnType;
}

export const columnSchema = z.object({
  name: boundedText(
    "Enter a column name.",
    datasetLimits.maxColumnNameLength,
    `Keep column names under ${datasetLimits.maxColumnNameLength + 1} characters.`,
  ),
  type: z.enum(columnTypes, {
    error: `Column type must be ${columnTypes.slice(0, -1).join(", ")} or ${columnTypes.at(-1)}.`,
  }),
});

const columnsSchema = z
  .array(columnSchema, { error: "Give the dataset's columns." })
  .min(1, "Add at least one column.")
  .max(datasetLimits.maxColumns, `A dataset has at most ${datasetLimits.maxColumns} columns.`)
  .superRefine((columns, ctx) => {
    const seen = new Set<string>();
    columns.forEach((column, index) => {
      if (seen.has(column.name)) {
        ctx.addIssue({
          code: "custom",
          path: [index, "name"],
          message: `Column name "${column.name}" is used twice.`,
        });
      }
      seen.add(column.name);
    });
  });

const rowsSchema = z
  .array(z.record(z.string(), z.unknown()), { error: "Rows must be a list of objects." })
  .max(datasetLimits.maxRows, `A dataset has at most ${datasetLimits.maxRows} rows.`);

const maxRowIssues = 10;

/** One bad cell (or unknown column) of a list of rows; `row` counts from 1 in the list given. */
export interface RowProblem {
  row: number;
  column: string;
  code: "invalid_cell" | "unknown_column";
  /** What is wrong with the cell, without the row: 'expected a number, got "abc".' */
  detail: string;
}

/** The sentence a form shows, naming the row as the caller does ("Row 12", "New row 2"). */
export function describeRowProblem(problem: RowProblem, rowLabel: string): string {
  return problem.code === "unknown_column"
    ? `${rowLabel}: unknown column "${problem.column}".`
    : `${rowLabel}, column "${problem.column}": ${problem.detail}`;
}

/**
 * Checks each cell against its column type and returns rows holding exactly the dataset's
 * columns (missing cells become null), or the first problems found.
 */
export function checkRows(
  columns: readonly DatasetColumn[],
  rows: ReadonlyArray<Record<string, unknown>>,
): { rows: DatasetRow[]; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  const known = new Set(columns.map((column) => column.name));
  const checked: DatasetRow[] = [];
  for (let index = 0; index < rows.length && problems.length < maxRowIssues; index++) {
    const row = rows[index] ?? {};
    for (const key in row) {
      if (problems.length >= maxRowIssues) break;
      if (!Object.hasOwn(row, key) || known.has(key)) continue;
      // No column has a longer name, so the cut name still says which key it was.
      const column =
        key.length > datasetLimits.maxColumnNameLength
          ? `${key.slice(0, datasetLimits.maxColumnNameLength)}…`
          : key;
      problems.push({ row: index + 1, column, code: "unknown_column", detail: "" });
    }
    const out: DatasetRow = {};
    for (const column of columns) {
      const value = normalizeCell(column, row[column.name]);
      const problem = cellProblem(column.type, value);
      if (problem) {
        problems.push({
          row: index + 1,
          column: column.name,
          code: "invalid_cell",
          detail: problem,
        });
      }
      setOwn(out, column.name, value === undefined ? null : (value as CellValue));
    }
    checked.push(out);
  }
  return { rows: checked, problems };
}

/**
 * The refusal for bad cells: the flat messages under "rows" for a summary, and each problem at
 * "rows.<ref>.<column>" with its code, so forms mark the cell without reading the sentence.
 */
export function rowProblemsError(
  problems: ReadonlyArray<{ problem: RowProblem; ref: string; label: string; row?: number }>,
  extra: FieldProblem[] = [],
): ValidationError {
  const fieldProblems: FieldProblem[] = [
    ...extra,
    ...problems.map(({ problem, ref, label, row }) => ({
      field: `rows.${ref}.${problem.column}`,
      code: problem.code,
      message: describeRowProblem(problem, label),
      // Callers that number rows (the push API) also get row and column apart from the path.
      ...(row === undefined ? {} : { row, column: problem.column }),
    })),
  ];
  return new ValidationError({
    fieldErrors: { rows: fieldProblems.map((problem) => problem.message) },
    problems: fieldProblems,
  });
}

/** Form fields arrive as text: blank becomes null and numeric text in a number column a number. */
function normalizeCell(column: DatasetColumn, value: unknown): unknown {
  if (column.type === "boolean") {
    // A boolean column's values are the text "true"/"false"; JSON booleans and the words a file
    // writes (yes/no, TRUE/FALSE, in any case) come to that.
    if (typeof value === "boolean") return value ? "true" : "false";
    if (typeof value === "string") {
      const text = value.trim();
      if (text === "") return null;
      const meant = booleanWords.get(text.toLowerCase());
      return meant === undefined ? text : meant ? "true" : "false";
    }
    return value;
  }
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (text === "") return null;
  if (column.type === "number" && isNumberText(text)) {
    return Number(text);
  }
  return column.type === "string" ? value : text;
}

function refineRows(
  value: { columns: DatasetColumn[]; rows: Record<string, unknown>[] },
  ctx: z.RefinementCtx,
) {
  for (const problem of checkRows(value.columns, value.rows).problems) {
    ctx.addIssue({
      code: "custom",
      path: ["rows"],
      message: describeRowProblem(problem, `Row ${problem.row}`),
    });
  }
}

/**
 * A dataset's name and description, as every way of making one checks them (the create form, the
 * streamed import, the API): trimmed, the name required, neither ever cut.
 */
export const datasetTextSchema = z.object({
  name: requiredText("name", textLimits.name),
  description: optionalText("description", textLimits.description).default(""),
});

export const datasetInputSchema = z
  .object({
    ...datasetTextSchema.shape,
    columns: columnsSchema,
    rows: rowsSchema.default([]),
  })
  .superRefine(refineRows);
export type DatasetInput = z.input<typeof datasetInputSchema>;

export const datasetPatchSchema = z
  .object({
    name: requiredText("name", textLimits.name).optional(),
    description: optionalText("description", textLimits.description).optional(),
    columns: columnsSchema.optional(),
    rows: rowsSchema.optional(),
    calculatedFields: calculatedFieldsSchema.optional(),
    hierarchies: hierarchiesSchema.optional(),
  })
  .superRefine((patch, ctx) => {
    if (patch.columns !== undefined && patch.rows === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["rows"],
        message: "Give the rows too when changing columns.",
      });
    }
  });
export type DatasetPatch = z.input<typeof datasetPatchSchema>;

export const datasetRowsSchema = rowsSchema;
