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
import styles from "@/components/admin/admin.module.css";
import { errorsWhere, FieldMessages } from "@/components/admin/form-controls";

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

/** The store's problems with rule `index` ("colorRules.2.value"), once each. */
function rowErrors(errors: Record<string, string[] | undefined>, index: number): string[] {
  const row = `colorRules.${index}`;
  return errorsWhere(errors, (path) => path === row || path.startsWith(`${row}.`));
}

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
  const update = (key: number, patch: Partial<ColorRuleForm>) =>
    onChange(rules.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const nextKey = rules.reduce((max, row) => Math.max(max, row.key + 1), 0);
  return (
    <fieldset className={styles.fieldset}>
      <legend>Colour rules</legend>
      <p className="muted">
        Colour a measure's cells by their value, e.g. below 0 in red with the words "loss". Numbers
        are in the measure's own units (a share of 25% is 0.25); the first rule a value meets
        applies.
      </p>
      {rules.map((row, index) => {
        const prefix = `chart-color-rule-${row.key}`;
        const messages = rowErrors(errors, index);
        const measure = Number(row.measure);
        return (
          <fieldset
            key={row.key}
            className={styles.checkRow}
            aria-describedby={messages.length > 0 ? `${prefix}-errors-error` : undefined}
          >
            <legend>Rule {index + 1}</legend>
            <label>
              Measure
              <select
                id={`${prefix}-measure`}
                value={row.measure}
                onChange={(event) => update(row.key, { measure: event.currentTarget.value })}
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
                  update(row.key, { when: event.currentTarget.value as ColorRuleCondition })
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
                onChange={(event) => update(row.key, { value: event.currentTarget.value })}
              />
            </label>
            <label>
              Colour
              <select
                id={`${prefix}-tone`}
                value={row.tone}
                onChange={(event) =>
                  update(row.key, { tone: event.currentTarget.value as ThresholdTone })
                }
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
                onChange={(event) => update(row.key, { label: event.currentTarget.value })}
              />
            </label>
            <button
              type="button"
              className="button button-secondary"
              aria-label={`Remove rule ${index + 1}`}
              onClick={() => onChange(rules.filter((candidate) => candidate.key !== row.key))}
            >
              Remove
            </button>
            <FieldMessages id={`${prefix}-errors`} errors={messages} />
          </fieldset>
        );
      })}
      <FieldMessages id="chart-color-rules-errors" errors={errors.colorRules} />
      {rules.length < chartLimits.maxColorRules ? (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => onChange([...rules, newColorRuleForm(nextKey)])}
        >
          Add a colour rule
        </button>
      ) : null}
    </fieldset>
  );
}
