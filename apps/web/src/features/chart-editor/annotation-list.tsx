"use client";

import { type AnnotationForm, chartLimits, newAnnotationForm } from "@seed/model";
import { EditableRows } from "./editable-rows";

// The chart editor's annotations: events typed by hand, each a day (or a first and last day)
// and a text, drawn on the chart's time axis as a marker (or a band).

export function AnnotationList({
  annotations,
  errors,
  onChange,
}: {
  annotations: AnnotationForm[];
  errors: Record<string, string[] | undefined>;
  onChange: (annotations: AnnotationForm[]) => void;
}) {
  return (
    <EditableRows
      legend="Annotations"
      rowName="Annotation"
      intro={
        annotations.length === 0 ? (
          <p className="muted">
            Mark events on the time axis: a launch on one day, or a sale over a period.
          </p>
        ) : null
      }
      path="annotations"
      idPrefix="chart-annotation"
      errorsId="chart-annotations-errors"
      addLabel="Add an annotation"
      limit={chartLimits.maxAnnotations}
      rows={annotations}
      errors={errors}
      onChange={onChange}
      newRow={newAnnotationForm}
      fields={(row, update, prefix) => (
        <>
          <label>
            Day
            <input
              id={`${prefix}-at`}
              type="date"
              value={row.at}
              onChange={(event) => update({ at: event.currentTarget.value })}
            />
          </label>
          <label>
            Last day, for a period
            <input
              id={`${prefix}-to`}
              type="date"
              value={row.to}
              min={row.at || undefined}
              onChange={(event) => update({ to: event.currentTarget.value })}
            />
          </label>
          <label>
            Text
            <input
              id={`${prefix}-label`}
              value={row.label}
              maxLength={chartLimits.maxAnnotationLabel}
              onChange={(event) => update({ label: event.currentTarget.value })}
            />
          </label>
        </>
      )}
    />
  );
}
