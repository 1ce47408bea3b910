"use client";

import {
  type ColorRuleCondition,
  type ColorRuleForm,
  chartLimits,
  colorRuleConditions,
  newColorRuleForm,
  type ThresholdTone,
  thresholdTones,
} from "@seed/model";
import { EditableRows } from "./editable-rows";

// A table's conditional colours: each rule tones the cells of one measure whose value meets it,
// with words beside the colour; the first rule a value meets applies.

const conditionLabels: Record<ColorRuleCondition, string> = {
  below: "is below",
  at_or_below: "is at most",
  above: "is above",
  at_or_above: "is at least",
  equal: "equals",
};

const toneLabels: Record<ThresholdTone, string> = {
  good: "Good (green)",
  warning: "Warning (amber)",
  bad: "Bad (red)",
};

export function ColorRuleList({
  rules,
  measures,
  errors,
  onChange,
}: {
  rules: ColorRuleForm[];
  /** The query's measures by name, in order (a rule names one by position). */
  measures: readonly string[];
  errors: Record<string, string[] | undefined>;
  onChange: (rules: ColorRuleForm[]) => void;
}) {
  return (
    <EditableRows
      legend="Colour rules"
      rowName="Rule"
      intro={
        <p className="muted">
          Colour a measure's cells by their value, e.g. below 0 in red with the words "loss".
          Numbers are in the measure's own units (a share of 25% is 0.25); the first rule a value
          meets applies.
        </p>
      }
      path="colorRules"
      idPrefix="chart-color-rule"
      errorsId="chart-color-rules-errors"
      addLabel="Add a colour rule"
      limit={chartLimits.maxColorRules}
      rows={rules}
      errors={errors}
      onChange={onChange}
      newRow={newColorRuleForm}
      fields={(row, update, prefix) => {
        const measure = Number(row.measure);
        return (
          <>
            <label>
              Measure
              <select
                id={`${prefix}-measure`}
                value={row.measure}
                onChange={(event) => update({ measure: event.currentTarget.value })}
              >
                {measures.map((name, at) => (
                  <option key={at} value={String(at)}>
                    {name}
                  </option>
                ))}
                {Number.isInteger(measure) && measure >= measures.length ? (
                  <option value={row.measure}>
                    Measure {measure + 1} (no longer in the query)
                  </option>
                ) : null}
              </select>
            </label>
            <label>
              When the value
              <select
                id={`${prefix}-when`}
                value={row.when}
                onChange={(event) =>
                  update({ when: event.currentTarget.value as ColorRuleCondition })
                }
              >
                {colorRuleConditions.map((condition) => (
                  <option key={condition} value={condition}>
                    {conditionLabels[condition]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Number
              <input
                id={`${prefix}-value`}
                inputMode="decimal"
                value={row.value}
                onChange={(event) => update({ value: event.currentTarget.value })}
              />
            </label>
            <label>
              Colour
              <select
                id={`${prefix}-tone`}
                value={row.tone}
                onChange={(event) => update({ tone: event.currentTarget.value as ThresholdTone })}
              >
                {thresholdTones.map((tone) => (
                  <option key={tone} value={tone}>
                    {toneLabels[tone]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Words beside it (optional)
              <input
                id={`${prefix}-label`}
                value={row.label}
                maxLength={chartLimits.maxColorRuleLabel}
                onChange={(event) => update({ label: event.currentTarget.value })}
              />
            </label>
          </>
        );
      }}
    />
  );
}
