"use client";

import { type AnnotationForm, chartLimits, newAnnotationForm } from "@seed/model";
import styles from "@/components/admin/admin.module.css";
import { errorsWhere, FieldMessages } from "@/components/admin/form-controls";

// The chart editor's annotations: events typed by hand, each a day (or a first and last day)
// and a text, drawn on the chart's time axis as a marker (or a band).

/** The store's problems with row `index` ("annotations.2.label"), once each. */
function rowErrors(errors: Record<string, string[] | undefined>, index: number): string[] {
  const row = `annotations.${index}`;
  return errorsWhere(errors, (path) => path === row || path.startsWith(`${row}.`));
}

export function AnnotationList({
  annotations,
  errors,
  onChange,
}: {
  annotations: AnnotationForm[];
  errors: Record<string, string[] | undefined>;
  onChange: (annotations: AnnotationForm[]) => void;
}) {
  const update = (key: number, patch: Partial<AnnotationForm>) =>
    onChange(annotations.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const nextKey = annotations.reduce((max, row) => Math.max(max, row.key + 1), 0);
  return (
    <fieldset className={styles.fieldset}>
      <legend>Annotations</legend>
      {annotations.length === 0 ? (
        <p className="muted">
          Mark events on the time axis: a launch on one day, or a sale over a period.
        </p>
      ) : null}
      {annotations.map((row, index) => {
        const prefix = `chart-annotation-${row.key}`;
        const messages = rowErrors(errors, index);
        return (
          <fieldset
            key={row.key}
            className={styles.checkRow}
            aria-describedby={messages.length > 0 ? `${prefix}-errors-error` : undefined}
          >
            <legend>Annotation {index + 1}</legend>
            <label>
              Day
              <input
                id={`${prefix}-at`}
                type="date"
                value={row.at}
                onChange={(event) => update(row.key, { at: event.currentTarget.value })}
              />
            </label>
            <label>
              Last day, for a period
              <input
                id={`${prefix}-to`}
                type="date"
                value={row.to}
                min={row.at || undefined}
                onChange={(event) => update(row.key, { to: event.currentTarget.value })}
              />
            </label>
            <label>
              Text
              <input
                id={`${prefix}-label`}
                value={row.label}
                maxLength={chartLimits.maxAnnotationLabel}
                onChange={(event) => update(row.key, { label: event.currentTarget.value })}
              />
            </label>
            <button
              type="button"
              className="button button-secondary"
              aria-label={`Remove annotation ${index + 1}`}
              onClick={() => onChange(annotations.filter((candidate) => candidate.key !== row.key))}
            >
              Remove
            </button>
            <FieldMessages id={`${prefix}-errors`} errors={messages} />
          </fieldset>
        );
      })}
      <FieldMessages id="chart-annotations-errors" errors={errors.annotations} />
      {annotations.length < chartLimits.maxAnnotations ? (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => onChange([...annotations, newAnnotationForm(nextKey)])}
        >
          Add an annotation
        </button>
      ) : null}
    </fieldset>
  );
}
