"use client";

import { type CalculatedField, calculatedFieldLimits, type ExpressionColumn } from "@seed/model";
import { saveCalculatedFields } from "@/app/admin/datasets/actions";
import { ExpressionHelp, expressionCheck } from "@/components/admin/expression-help";
import { FormMessages, TextAreaField } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { useKeyedRows } from "@/components/admin/use-keyed-rows";
import { FormField } from "@/components/form-field";

/**
 * A dataset's calculated fields as one list: add, change or remove fields, then save them all.
 * Each expression is checked against the columns as it is typed; the server refuses a bad list
 * with an error on each field at fault and keeps the old one.
 */
export function CalculatedFieldsForm({
  datasetId,
  version,
  columns,
  fields,
}: {
  datasetId: string;
  version: number;
  columns: readonly ExpressionColumn[];
  fields: readonly CalculatedField[];
}) {
  const { state, pending, onSubmit } = useContentForm(saveCalculatedFields);
  const { rows, add, change, remove } = useKeyedRows(
    fields.map((field) => ({ name: field.name, expression: field.expression })),
  );
  const errors = state.fieldErrors ?? {};
  const full = rows.length >= calculatedFieldLimits.maxFields;
  return (
    <form onSubmit={onSubmit} className="form" noValidate aria-label="Calculated fields">
      <input type="hidden" name="datasetId" value={datasetId} />
      <input type="hidden" name="version" value={version} />
      <FormMessages state={state} />
      {errors.calculatedFields ? (
        <p className="field-error">{errors.calculatedFields.join(" ")}</p>
      ) : null}
      {rows.length === 0 ? <p className="muted">No calculated fields yet.</p> : null}
      {rows.map((row, index) => {
        const label = row.name.trim() || `field ${index + 1}`;
        return (
          <fieldset key={row.key} className="form calculated-field">
            <legend>{`Field ${index + 1}`}</legend>
            <FormField
              name="fieldName"
              label="Name"
              id={`calculated-name-${row.key}`}
              value={row.name}
              onChange={(event) => change(row.key, { name: event.currentTarget.value })}
              errors={errors[`calculatedFields.${index}.name`]}
            />
            <TextAreaField
              name="fieldExpression"
              label="Expression"
              id={`calculated-expression-${row.key}`}
              rows={2}
              spellCheck={false}
              className="code-input"
              value={row.expression}
              onChange={(event) => change(row.key, { expression: event.currentTarget.value })}
              hint={expressionCheck(row.expression, columns, "row")}
              errors={errors[`calculatedFields.${index}.expression`]}
            />
            <div>
              <button
                type="button"
                className="button button-secondary"
                aria-label={`Remove ${label}`}
                onClick={() => remove(row.key)}
              >
                Remove
              </button>
            </div>
          </fieldset>
        );
      })}
      <div className="button-row">
        <button
          type="button"
          className="button button-secondary"
          disabled={full}
          onClick={() => add({ name: "", expression: "" })}
        >
          Add a field
        </button>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : "Save fields"}
        </button>
      </div>
      {full ? (
        <p className="muted">{`A dataset has at most ${calculatedFieldLimits.maxFields} calculated fields.`}</p>
      ) : null}
      <ExpressionHelp columns={columns} mode="row" />
    </form>
  );
}
