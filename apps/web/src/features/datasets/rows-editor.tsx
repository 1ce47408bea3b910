"use client";

import type { DatasetColumn, DatasetRow } from "@seed/model";
import type { KeyedRow } from "@seed/store";
import { useEffect, useMemo, useRef, useState } from "react";
import { saveDatasetRows } from "@/app/admin/datasets/actions";
import styles from "@/components/admin/admin.module.css";
import { FormMessages } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { TableRegion } from "@/components/table-region";

interface EditableRow {
  /** Key within this editor. */
  key: number;
  /** The stored row key (`_row`), or null for a row added here. */
  original: number | null;
  cells: Record<string, string>;
}

function cellText(value: DatasetRow[string] | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

function toEditable(columns: readonly DatasetColumn[], rows: readonly KeyedRow[]): EditableRow[] {
  return rows.map(({ key, row }) => ({
    key,
    original: key,
    cells: Object.fromEntries(columns.map((column) => [column.name, cellText(row[column.name])])),
  }));
}

interface RowProblem {
  message: string;
  /** The row ("12" or "new-2") and column of the bad cell, when the store named one. */
  ref: string | null;
  column: string | null;
}

/**
 * The store refuses bad cells at "rows.<ref>.<column>" (ref: a stored row's key, or "new-<n>" for
 * the n-th added row) with their messages; "rows" alone holds refusals of the whole table.
 */
function rowProblems(fieldErrors: Record<string, string[] | undefined> | undefined) {
  const problems: RowProblem[] = [];
  const cells = new Set<string>();
  const seen = new Set<string>();
  for (const [field, fieldMessages] of Object.entries(fieldErrors ?? {})) {
    if (field !== "rows" && !field.startsWith("rows.")) continue;
    const cell = /^rows\.([^.]+)\.(.+)$/.exec(field);
    const ref = cell?.[1] ?? null;
    const column = cell?.[2] ?? null;
    if (ref && column) cells.add(`${ref}:${column}`);
    for (const message of fieldMessages ?? []) {
      if (seen.has(message)) continue;
      seen.add(message);
      problems.push({ message, ref, column });
    }
  }
  return { problems, cells };
}

function cellId(ref: string, columnIndex: number): string {
  return `rows-cell-${ref}-${columnIndex}`;
}

/** The edits that turn `initial` into `rows`: changed stored rows, removed ones, added ones. */
function editsOf(
  columns: readonly DatasetColumn[],
  initial: readonly EditableRow[],
  rows: readonly EditableRow[],
) {
  const kept = new Set(rows.flatMap((row) => (row.original === null ? [] : [row.original])));
  const initialByKey = new Map(initial.map((row) => [row.key, row]));
  return {
    set: rows.flatMap((row) => {
      if (row.original === null) return [];
      const before = initialByKey.get(row.original)?.cells ?? {};
      const changed = columns.some((column) => before[column.name] !== row.cells[column.name]);
      return changed ? [{ key: row.original, row: row.cells }] : [];
    }),
    remove: initial.flatMap((row) => (kept.has(row.key) ? [] : [row.key])),
    append: rows.flatMap((row) => (row.original === null ? [row.cells] : [])),
  };
}

const leaveQuestion = "You have unsaved changes to these rows. Leave without saving them?";

/**
 * While there are unsaved edits: the browser asks before closing or reloading the tab, and a
 * click on a link of the page (paging, navigation) asks first.
 */
function usePromptBeforeLeaving(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement) || link.target === "_blank") return;
      if (link.getAttribute("href")?.startsWith("#")) return;
      if (!window.confirm(leaveQuestion)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);
}

/** One page of rows as inputs: change cells, add and remove rows, save against the version read. */
export function RowsEditor({
  datasetId,
  version,
  columns,
  rows: storedRows,
}: {
  datasetId: string;
  version: number;
  columns: DatasetColumn[];
  rows: KeyedRow[];
}) {
  const { state, pending, submit } = useContentForm(saveDatasetRows);
  const initial = useMemo(() => toEditable(columns, storedRows), [columns, storedRows]);
  const [rows, setRows] = useState(initial);
  // Keys of added rows are negative, so they never meet a stored key.
  const nextKey = useRef(-1);
  const tableRef = useRef<HTMLTableElement>(null);
  const { problems: rowErrors, cells: badCells } = rowProblems(state.fieldErrors);
  const summary = useRef<HTMLElement>(null);
  const dirty = useMemo(() => {
    const edits = editsOf(columns, initial, rows);
    return edits.set.length + edits.remove.length + edits.append.length > 0;
  }, [columns, initial, rows]);
  usePromptBeforeLeaving(dirty && !pending);

  // After a refused save, focus and view go to the summary of what is wrong.
  useEffect(() => {
    if (
      state.fieldErrors &&
      Object.keys(state.fieldErrors).some((field) => field.startsWith("rows"))
    ) {
      summary.current?.focus();
      summary.current?.scrollIntoView({ block: "center" });
    }
  }, [state]);

  function setCell(key: number, column: string, value: string) {
    setRows((current) =>
      current.map((row) =>
        row.key === key ? { ...row, cells: { ...row.cells, [column]: value } } : row,
      ),
    );
  }

  function addRow() {
    const key = nextKey.current--;
    const cells = Object.fromEntries(columns.map((column) => [column.name, ""]));
    setRows((current) => [...current, { key, original: null, cells }]);
    // Focus the new row's first cell once it is drawn.
    requestAnimationFrame(() => {
      tableRef.current?.querySelector<HTMLInputElement>(`[data-row-key="${key}"] input`)?.focus();
    });
  }

  function removeRow(key: number) {
    setRows((current) => current.filter((row) => row.key !== key));
  }

  function save(form: HTMLFormElement) {
    const edits = editsOf(columns, initial, rows);
    const formData = new FormData(form);
    formData.set("edits", JSON.stringify(edits));
    submit(formData);
  }

  let added = 0;

  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        save(event.currentTarget);
      }}
      aria-label="Edit rows"
    >
      <input type="hidden" name="datasetId" value={datasetId} />
      <input type="hidden" name="version" value={version} />
      <FormMessages state={state} />
      {rowErrors.length > 0 ? (
        <section
          id="rows-errors"
          ref={summary}
          tabIndex={-1}
          className="field-error"
          aria-labelledby="rows-errors-title"
        >
          <p id="rows-errors-title">
            {rowErrors.length === 1 ? "1 problem" : `${rowErrors.length} problems`} in the rows;
            nothing was saved.
          </p>
          <ul>
            {rowErrors.map((problem) => {
              const columnIndex = columns.findIndex((column) => column.name === problem.column);
              if (problem.ref === null || columnIndex < 0) {
                return <li key={problem.message}>{problem.message}</li>;
              }
              const target = cellId(problem.ref, columnIndex);
              return (
                <li key={problem.message}>
                  <a
                    href={`#${target}`}
                    onClick={(event) => {
                      event.preventDefault();
                      document.getElementById(target)?.focus();
                    }}
                  >
                    {problem.message}
                  </a>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      <TableRegion label="Row editor">
        <table ref={tableRef}>
          <caption className="muted">Rows of this page, by row number</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              {columns.map((column) => (
                <th key={column.name} scope="col">
                  {column.name} <span className="muted">({column.type})</span>
                </th>
              ))}
              <th scope="col">
                <span className={styles.visuallyHidden}>Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              // Stored rows keep their row number; added rows are "new 1", "new 2"...
              const label = row.original === null ? `new ${++added}` : String(row.original);
              const ref = row.original === null ? `new-${added}` : String(row.original);
              return (
                <tr key={row.key} data-row-key={row.key}>
                  <th scope="row">{label}</th>
                  {columns.map((column, columnIndex) => {
                    const invalid = badCells.has(`${ref}:${column.name}`);
                    return (
                      <td key={column.name}>
                        <input
                          id={cellId(ref, columnIndex)}
                          className={styles.cellInput}
                          aria-label={`${column.name}, row ${label}`}
                          value={row.cells[column.name] ?? ""}
                          inputMode={column.type === "number" ? "decimal" : undefined}
                          aria-invalid={invalid ? true : undefined}
                          aria-describedby={invalid ? "rows-errors" : undefined}
                          onChange={(event) =>
                            setCell(row.key, column.name, event.currentTarget.value)
                          }
                        />
                      </td>
                    );
                  })}
                  <td>
                    <button
                      type="button"
                      className="button button-secondary"
                      onClick={() => removeRow(row.key)}
                    >
                      Remove row {label}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableRegion>
      <div className="inline-list">
        <button type="button" className="button button-secondary" onClick={addRow}>
          Add row
        </button>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : "Save rows"}
        </button>
      </div>
    </form>
  );
}
