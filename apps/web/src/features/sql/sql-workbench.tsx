"use client";

import { autocompletion, closeBrackets, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { PostgreSQL, type SQLNamespace, sql } from "@codemirror/lang-sql";
import { defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView, keymap, placeholder } from "@codemirror/view";
import { type DatasetColumnType, textLimits } from "@seed/model";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { saveSqlQuestion, updateSqlQuestion } from "@/app/admin/sql/actions";
import { describedBy, FieldMessages, FormMessages } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { FormField } from "@/components/form-field";
import { TableRegion } from "@/components/table-region";

// The SQL editor: CodeMirror with PostgreSQL's highlighting (DuckDB's SQL is close to it) and
// completion of the datasets' tables and columns; Ctrl+Enter runs; Tab leaves the editor, so the
// page stays keyboard-navigable. Answers come from /admin/api/sql, bounded and audited there.

export interface SqlTable {
  name: string;
  columns: readonly { name: string; type: DatasetColumnType }[];
}

interface SqlAnswer {
  columns: { name: string; type: DatasetColumnType }[];
  rows: unknown[][];
  truncated: boolean;
  ms: number;
}

/** Rows drawn at once: enough to read, few enough for a phone. */
const shownRows = 500;
const editorId = "sql-text";
const hint = "Ctrl+Enter (⌘+Enter) runs the question. Tab leaves the editor.";

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return value.toLocaleString("en-US", { maximumFractionDigits: 6 });
  return String(value);
}

export function SqlWorkbench({
  tables,
  engine,
  initialSql,
  canSave,
  editing,
}: {
  tables: readonly SqlTable[];
  engine: "duckdb" | "postgres";
  initialSql: string;
  /** Whether the person may save the question as a dataset (content.write). */
  canSave: boolean;
  /** A saved question opened to change it: saving then changes that dataset. */
  editing: { id: string; version: number; name: string } | null;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const attributes = useRef(new Compartment());
  const [pending, setPending] = useState(false);
  const [answer, setAnswer] = useState<SqlAnswer | null>(null);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const status = useRef<HTMLDivElement>(null);
  const runRef = useRef<() => void>(() => {});
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const save = useContentForm(editing ? updateSqlQuestion : saveSqlQuestion);
  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    form.set("sql", view.current?.state.doc.toString() ?? "");
    save.submit(form);
  };
  // The editor shows the last word on its text: a run's problem, or the save's.
  const shownErrors = errors ?? save.state.fieldErrors?.sql;

  runRef.current = async () => {
    const text = view.current?.state.doc.toString() ?? "";
    setPending(true);
    setErrors(undefined);
    setFormError(null);
    try {
      const response = await fetch("/admin/api/sql", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          sql: text,
          parameters: { from: from || null, to: to || null },
        }),
      });
      const body = (await response.json().catch(() => ({}))) as {
        answer?: SqlAnswer;
        fieldErrors?: Record<string, string[]>;
        formError?: string;
        message?: string;
      };
      if (response.ok && body.answer) {
        setAnswer(body.answer);
      } else if (body.fieldErrors?.sql?.length) {
        setErrors(body.fieldErrors.sql);
        setAnswer(null);
      } else {
        setFormError(
          body.formError ?? body.message ?? `The question could not run (${response.status}).`,
        );
        setAnswer(null);
      }
    } catch {
      setFormError("The server could not be reached. Try again.");
    } finally {
      setPending(false);
      status.current?.focus();
    }
  };

  useEffect(() => {
    if (!host.current) return;
    const schema: SQLNamespace = Object.fromEntries(
      tables.map((table) => [table.name, table.columns.map((column) => column.name)]),
    );
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initialSql,
        extensions: [
          history(),
          closeBrackets(),
          autocompletion(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          sql({ dialect: PostgreSQL, schema, upperCaseKeywords: false }),
          placeholder("select … from …"),
          EditorView.lineWrapping,
          keymap.of([
            {
              key: "Mod-Enter",
              run: () => {
                runRef.current();
                return true;
              },
            },
            ...completionKeymap,
            ...historyKeymap,
            ...defaultKeymap,
          ]),
          attributes.current.of(EditorView.contentAttributes.of({})),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
  }, [tables, initialSql]);

  // The editor's text box is labelled and points at its hint and error, like any other field.
  useEffect(() => {
    const described = describedBy(editorId, shownErrors, hint);
    view.current?.dispatch({
      effects: attributes.current.reconfigure(
        EditorView.contentAttributes.of({
          id: editorId,
          "aria-labelledby": `${editorId}-label`,
          ...(described["aria-describedby"]
            ? { "aria-describedby": described["aria-describedby"] }
            : {}),
          ...(described["aria-invalid"] ? { "aria-invalid": "true" } : {}),
        }),
      ),
    });
  }, [shownErrors]);

  const shown = answer ? answer.rows.slice(0, shownRows) : [];
  return (
    <div className="stack">
      <div className="field">
        <span id={`${editorId}-label`} className="field-label">
          SQL question ({engine === "postgres" ? "PostgreSQL" : "DuckDB"} SQL)
        </span>
        <div ref={host} className="sql-editor" />
        <FieldMessages id={editorId} errors={shownErrors} hint={hint} />
      </div>
      <fieldset className="field sql-parameters">
        <legend>
          Date range for {"{{from}}"} and {"{{to}}"}
        </legend>
        <span className="muted" id="sql-parameters-hint">
          A question may use {"{{from}}"} and {"{{to}}"} (no quotes) for the first and last day; on
          a dashboard they are its date range. Empty: the widest days.
        </span>
        <div className="sql-parameter-fields">
          {(
            [
              ["from", "First day", from, setFrom],
              ["to", "Last day", to, setTo],
            ] as const
          ).map(([name, label, value, set]) => (
            <label key={name}>
              {label} ({`{{${name}}}`}){" "}
              <input
                type="date"
                value={value}
                onChange={(event) => set(event.currentTarget.value)}
                aria-describedby="sql-parameters-hint"
              />
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <button
          type="button"
          className="button"
          disabled={pending}
          onClick={() => runRef.current()}
        >
          {pending ? "Running…" : "Run question"}
        </button>
      </div>
      <div ref={status} tabIndex={-1} role="status" className="stack">
        {formError ? <p className="form-error">{formError}</p> : null}
        {answer ? (
          <p className="muted">
            {answer.rows.length.toLocaleString("en-US")} row{answer.rows.length === 1 ? "" : "s"}
            {answer.truncated ? " (the first ones only: more rows matched)" : ""} in{" "}
            {answer.ms.toLocaleString("en-US")} ms
            {answer.rows.length > shownRows
              ? `; the first ${shownRows.toLocaleString("en-US")} are shown`
              : ""}
            .
          </p>
        ) : null}
      </div>
      {answer && answer.columns.length > 0 ? (
        <TableRegion label="Answer">
          <table>
            <thead>
              <tr>
                {answer.columns.map((column, index) => (
                  <th key={index} scope="col">
                    {column.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((value, index) => (
                    <td
                      key={index}
                      className={answer.columns[index]?.type === "number" ? "number" : undefined}
                    >
                      {cellText(value)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      ) : null}
      {canSave ? (
        <form
          onSubmit={onSave}
          className="form"
          aria-label={
            editing ? `Save changes to ${editing.name}` : "Save the question as a dataset"
          }
        >
          <FormMessages state={save.state} />
          {editing ? (
            <>
              <input type="hidden" name="datasetId" value={editing.id} />
              <input type="hidden" name="version" value={editing.version} />
              <p className="muted">
                Changing the saved question <strong>{editing.name}</strong>: its charts must still
                find their columns in the new answer.
              </p>
            </>
          ) : (
            <FormField
              name="name"
              id="question-name"
              label="Name of the question's dataset"
              required
              maxLength={textLimits.name}
              errors={save.state.fieldErrors?.name}
              hint="Charts and stat tiles can then read the question like any dataset."
            />
          )}
          <div>
            <button type="submit" className="button button-secondary" disabled={save.pending}>
              {save.pending
                ? "Saving…"
                : editing
                  ? "Save changes to the question"
                  : "Save as a dataset"}
            </button>
          </div>
        </form>
      ) : null}
      <details>
        <summary>Tables</summary>
        <ul className="sql-tables">
          {tables.map((table) => (
            <li key={table.name}>
              <code>{table.name}</code>:{" "}
              {table.columns.map((column) => `${column.name} (${column.type})`).join(", ")}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
