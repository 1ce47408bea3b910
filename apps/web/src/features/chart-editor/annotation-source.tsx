"use client";

import { type AnnotationSourceForm, chartLimits, isTimeType } from "@seed/model";
import { SelectField } from "@/components/admin/form-controls";
import type { DatasetChoice } from "./draft";

// The chart editor's events from a dataset: each row of a dataset (a day or a first and last
// day, and a text) drawn on the chart's time axis like a typed annotation.

const blank: AnnotationSourceForm = { datasetId: "", at: "", to: "", label: "" };

/** A dataset chosen for its events: its first date column and first text column, no last day. */
function sourceOf(dataset: DatasetChoice | undefined): AnnotationSourceForm {
  if (!dataset) return blank;
  return {
    datasetId: dataset.id,
    at: dataset.columns.find((column) => isTimeType(column.type))?.name ?? "",
    to: "",
    label: dataset.columns.find((column) => column.type === "string")?.name ?? "",
  };
}

export function AnnotationSourceFields({
  source,
  datasets,
  errors,
  onChange,
}: {
  source: AnnotationSourceForm;
  datasets: readonly DatasetChoice[];
  errors: Record<string, string[] | undefined>;
  onChange: (source: AnnotationSourceForm) => void;
}) {
  const dataset = datasets.find((choice) => choice.id === source.datasetId);
  const days = dataset?.columns.filter((column) => isTimeType(column.type)) ?? [];
  const texts = dataset?.columns.filter((column) => column.type === "string") ?? [];
  const columnOptions = (columns: typeof days) =>
    columns.map((column) => (
      <option key={column.name} value={column.name}>
        {column.name}
      </option>
    ));
  return (
    <fieldset className="stack">
      <legend>Events from a dataset</legend>
      <p className="muted">
        Draw the rows of a dataset of events on the time axis, each with its words: those within the
        range the chart shows, at most {chartLimits.maxSourcedAnnotations}, as each reader may see
        that dataset.
      </p>
      <SelectField
        id="chart-events-dataset"
        label="Read events from"
        value={source.datasetId}
        errors={errors["annotationSource.datasetId"]}
        onChange={(event) =>
          onChange(sourceOf(datasets.find((choice) => choice.id === event.currentTarget.value)))
        }
      >
        <option value="">None</option>
        {/* a dataset no longer offered (deleted, or out of this editor's sight) stays named */}
        {source.datasetId && !dataset ? (
          <option value={source.datasetId}>A dataset you cannot see</option>
        ) : null}
        {datasets.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.name}
          </option>
        ))}
      </SelectField>
      {dataset ? (
        days.length === 0 || texts.length === 0 ? (
          <p className="form-error" role="status">
            This dataset has no {days.length === 0 ? "date or timestamp column" : "text column"}:
            each event needs a day and a text.
          </p>
        ) : (
          <>
            <SelectField
              id="chart-events-at"
              label="Events' days"
              value={source.at}
              errors={errors["annotationSource.at"]}
              onChange={(event) => {
                const at = event.currentTarget.value;
                onChange({ ...source, at, to: source.to === at ? "" : source.to });
              }}
            >
              {columnOptions(days)}
            </SelectField>
            <SelectField
              id="chart-events-to"
              label="Events' last days (optional)"
              value={source.to}
              errors={errors["annotationSource.to"]}
              onChange={(event) => onChange({ ...source, to: event.currentTarget.value })}
            >
              <option value="">None: one-day events</option>
              {columnOptions(days.filter((column) => column.name !== source.at))}
            </SelectField>
            <SelectField
              id="chart-events-label"
              label="What each event says"
              value={source.label}
              errors={errors["annotationSource.label"]}
              onChange={(event) => onChange({ ...source, label: event.currentTarget.value })}
            >
              {columnOptions(texts)}
            </SelectField>
          </>
        )
      ) : null}
    </fieldset>
  );
}
