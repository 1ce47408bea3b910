"use client";

import type { ReactNode } from "react";
import styles from "@/components/admin/admin.module.css";
import { errorsWhere, FieldMessages } from "@/components/admin/form-controls";

// One home for the chart editor's lists of typed rows (annotations, colour rules): a fieldset
// per row with a numbered legend, its fields, Remove and the row's messages, then the list's own
// messages and "Add a ..." while under the limit.

export interface EditableRowsProps<Row extends { key: number }> {
  /** The list's legend, e.g. "Annotations". */
  legend: string;
  /** A row's legend before its number, e.g. "Annotation" (and "Remove annotation 2"). */
  rowName: string;
  /** What the list says above its rows, if anything. */
  intro?: ReactNode;
  /** The form field's path in the store's errors ("annotations": "annotations.2.label"). */
  path: string;
  /** Prefix of each row's ids ("chart-annotation": "chart-annotation-3-label"). */
  idPrefix: string;
  /** Id of the list's own messages. */
  errorsId: string;
  addLabel: string;
  limit: number;
  rows: Row[];
  errors: Record<string, string[] | undefined>;
  onChange: (rows: Row[]) => void;
  newRow: (key: number) => Row;
  /** A row's fields, given how to change it and the prefix of its ids. */
  fields: (row: Row, update: (patch: Partial<Row>) => void, prefix: string) => ReactNode;
}

export function EditableRows<Row extends { key: number }>(props: EditableRowsProps<Row>) {
  const { rows, errors, onChange, path } = props;
  const nextKey = rows.reduce((max, row) => Math.max(max, row.key + 1), 0);
  return (
    <fieldset className={styles.fieldset}>
      <legend>{props.legend}</legend>
      {props.intro}
      {rows.map((row, index) => {
        const prefix = `${props.idPrefix}-${row.key}`;
        // the store's problems with this row ("annotations.2.label"), once each
        const prefixPath = `${path}.${index}`;
        const messages = errorsWhere(
          errors,
          (field) => field === prefixPath || field.startsWith(`${prefixPath}.`),
        );
        return (
          <fieldset
            key={row.key}
            className={styles.checkRow}
            aria-describedby={messages.length > 0 ? `${prefix}-errors-error` : undefined}
          >
            <legend>
              {props.rowName} {index + 1}
            </legend>
            {props.fields(
              row,
              (patch) =>
                onChange(
                  rows.map((candidate) =>
                    candidate.key === row.key ? { ...candidate, ...patch } : candidate,
                  ),
                ),
              prefix,
            )}
            <button
              type="button"
              className="button button-secondary"
              aria-label={`Remove ${props.rowName.toLowerCase()} ${index + 1}`}
              onClick={() => onChange(rows.filter((candidate) => candidate.key !== row.key))}
            >
              Remove
            </button>
            <FieldMessages id={`${prefix}-errors`} errors={messages} />
          </fieldset>
        );
      })}
      <FieldMessages id={props.errorsId} errors={errors[path]} />
      {rows.length < props.limit ? (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => onChange([...rows, props.newRow(nextKey)])}
        >
          {props.addLabel}
        </button>
      ) : null}
    </fieldset>
  );
}
