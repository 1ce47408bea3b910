"use client";

import {
  chartTypeSpecs,
  formSplits,
  type MeasureForm,
  measureLabel,
  measureOfForm,
  newMeasureForm,
  numericAggregates,
  type QueryAggregate,
  queryLimits,
  showsFor,
} from "@seed/model";
import { useRef } from "react";
import styles from "@/components/admin/admin.module.css";
import { ExpressionHelp, expressionCheck } from "@/components/admin/expression-help";
import {
  ChoiceField,
  errorsWhere,
  FieldMessages,
  SelectField,
  TextAreaField,
} from "@/components/admin/form-controls";
import { FormField } from "@/components/form-field";
import { withMeasureAggregate, withoutMeasure } from "./draft";
import { aggregateLabels, showLabels } from "./labels";
import { FilterList, measureConditionList, measurePathIndex } from "./query-filters";
import type { SectionProps } from "./section-props";

// Measures after the series columns', each with its own aggregate, column or formula, conditions
// and way of showing: "Count" beside "Count where status is late", or a median beside a sum.

const rowAggregates = (Object.keys(aggregateLabels) as QueryAggregate[]).filter(
  (aggregate): aggregate is MeasureForm["aggregate"] => aggregate !== "none",
);

/** Why this chart cannot take more measures as it stands, or null when it can. */
function moreMeasuresBlocker(draft: SectionProps["draft"]): string | null {
  const spec = chartTypeSpecs[draft.type];
  if (!spec.accepts.multipleMeasures) {
    return `A ${spec.label.toLowerCase()} chart draws one measure.`;
  }
  if (formSplits(draft)) return "A split into series draws one measure: remove the split.";
  if (draft.aggregate === "none") return "Raw values draw columns as they are: combine rows first.";
  return null;
}

export function MoreMeasures({
  draft,
  columns,
  errors,
  setDraft,
  first,
}: SectionProps & {
  /** The query index of the first row (after the series columns' measures). */
  first: number;
}) {
  const keys = useRef(draft.moreMeasures.reduce((top, row) => Math.max(top, row.key), 0));
  const conditionKeys = useRef(1_000);
  const rows = draft.moreMeasures;
  const blocker = moreMeasuresBlocker(draft);
  const most = chartTypeSpecs[draft.type].accepts.maxMeasures ?? queryLimits.maxMeasures;
  const room = most - first - rows.length;

  function change(key: number, next: (row: MeasureForm) => MeasureForm) {
    setDraft((current) => ({
      ...current,
      moreMeasures: current.moreMeasures.map((row) => (row.key === key ? next(row) : row)),
    }));
  }

  /** The store's problems with the row at query index `at`, by the end of their path. */
  function rowErrors(at: number, keep: (rest: string) => boolean): string[] {
    return errorsWhere(
      errors,
      (path) => measurePathIndex(path) === at && keep(path.slice(`query.measures.${at}`.length)),
    );
  }

  if (rows.length === 0 && blocker) return null;
  return (
    <fieldset className={styles.fieldset}>
      <legend>More measures</legend>
      {rows.length === 0 ? (
        <p className="muted">
          Each measure here has its own aggregate and conditions, drawn beside the series columns.
        </p>
      ) : null}
      {blocker && rows.length > 0 ? <p className="form-error">{blocker}</p> : null}
      {rows.map((row, index) => {
        const at = first + index;
        const prefix = `chart-measure-${row.key}`;
        const name = measureLabel(measureOfForm(row, columns));
        const offered = columns.filter(
          (column) => !numericAggregates.includes(row.aggregate) || column.type === "number",
        );
        return (
          <fieldset key={row.key} className={styles.fieldset}>
            <legend>
              Measure {at + 1}: {name}
            </legend>
            <FormField
              id={`${prefix}-label`}
              name={`${prefix}-label`}
              label="Name (optional)"
              maxLength={80}
              value={row.label}
              placeholder={measureLabel(measureOfForm({ ...row, label: "" }, columns))}
              onChange={(event) => {
                const label = event.currentTarget.value;
                change(row.key, (current) => ({ ...current, label }));
              }}
              errors={rowErrors(at, (rest) => rest === ".label")}
            />
            <ChoiceField
              id={`${prefix}-aggregate`}
              name={`${prefix}-aggregate`}
              label="Combine rows with"
              value={row.aggregate}
              choices={rowAggregates}
              labels={aggregateLabels}
              onChoose={(aggregate) =>
                change(row.key, (current) => withMeasureAggregate(current, aggregate, columns))
              }
              errors={rowErrors(at, (rest) => rest === ".aggregate")}
            />
            {row.aggregate === "formula" ? (
              <>
                <TextAreaField
                  id={`${prefix}-formula`}
                  name={`${prefix}-formula`}
                  label="Formula"
                  rows={2}
                  spellCheck={false}
                  className="code-input"
                  value={row.formula}
                  onChange={(event) => {
                    const formula = event.currentTarget.value;
                    change(row.key, (current) => ({ ...current, formula }));
                  }}
                  hint={expressionCheck(row.formula, columns, "formula")}
                  errors={rowErrors(at, (rest) => rest === ".formula")}
                />
                <ExpressionHelp columns={columns} mode="formula" />
              </>
            ) : (
              <SelectField
                id={`${prefix}-column`}
                name={`${prefix}-column`}
                label="Column"
                value={row.column}
                onChange={(event) => {
                  const column = event.currentTarget.value;
                  change(row.key, (current) => ({ ...current, column }));
                }}
                errors={rowErrors(at, (rest) => rest === "" || rest === ".column")}
              >
                {row.aggregate === "count" ? (
                  <option value="">Every row</option>
                ) : (
                  <option value="">Choose a column</option>
                )}
                {offered.map((column) => (
                  <option key={column.name} value={column.name}>
                    {column.name} ({column.type})
                  </option>
                ))}
              </SelectField>
            )}
            <ChoiceField
              id={`${prefix}-show`}
              name={`${prefix}-show`}
              label="Show values as"
              value={row.show}
              choices={showsFor(row.aggregate)}
              labels={showLabels}
              onChoose={(show) => change(row.key, (current) => ({ ...current, show }))}
              errors={rowErrors(at, (rest) => rest === ".show")}
            />
            <FilterList
              kind={measureConditionList(at, 1, `${prefix}-condition`)}
              filters={row.where}
              columns={columns}
              errors={errors}
              onChange={(where) => change(row.key, (current) => ({ ...current, where }))}
              nextKey={() => {
                conditionKeys.current += 1;
                return conditionKeys.current;
              }}
            />
            <FieldMessages
              id={`${prefix}-errors`}
              errors={rowErrors(at, (rest) => rest === ".where")}
            />
            <div>
              <button
                type="button"
                className="button button-secondary"
                aria-label={`Remove measure ${at + 1}`}
                onClick={() => setDraft((current) => withoutMeasure(current, row.key))}
              >
                Remove
              </button>
            </div>
          </fieldset>
        );
      })}
      {!blocker && room > 0 ? (
        <div>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              keys.current += 1;
              const key = keys.current;
              setDraft((current) => ({
                ...current,
                moreMeasures: [...current.moreMeasures, newMeasureForm(key)],
              }));
            }}
          >
            Add a measure
          </button>
        </div>
      ) : null}
      {!blocker && room <= 0 ? (
        <p className="muted">
          A {chartTypeSpecs[draft.type].label.toLowerCase()} chart has at most {most} measures
          {draft.type === "scatter" ? " (y, then the points' size)" : ""}.
        </p>
      ) : null}
    </fieldset>
  );
}
