"use client";

import {
  formatBytes,
  type ImportFormat,
  importFileAccept,
  importFormatOf,
  textLimits,
  xlsxSheetNameLength,
} from "@seed/model";
import { type CsvDialect, resolveCsvDialect } from "@seed/store/csv";
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from "react";
import styles from "@/components/admin/admin.module.css";
import {
  CsvDialectFields,
  type DecimalChoice,
  type DelimiterChoice,
} from "@/components/admin/csv-dialect-fields";
import { FormField } from "@/components/form-field";
import { type ImportEvent, importEventsHeader } from "./import-events";

type Status =
  | { state: "idle" }
  | { state: "running"; sent: number; total: number; rows: number }
  | { state: "done"; imported: number; rowCount: number }
  | {
      state: "failed";
      message: string;
      line: number | null;
      column: string | null;
      /** Every bad line, when the file had several. */
      problems?: { message: string }[];
      problemCount?: number;
    };

/** Sends the file as the request body and reads NDJSON progress events back. */
function upload(
  url: string,
  file: File,
  onUploaded: (sent: number, total: number) => void,
  onEvent: (event: ImportEvent) => void,
): Promise<void> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    let read = 0;
    const readEvents = () => {
      const text = request.responseText;
      let newline = text.indexOf("\n", read);
      while (newline !== -1) {
        const line = text.slice(read, newline);
        read = newline + 1;
        if (line.trim() !== "") onEvent(JSON.parse(line) as ImportEvent);
        newline = text.indexOf("\n", read);
      }
    };
    request.open("POST", url);
    request.setRequestHeader("Content-Type", "text/csv");
    request.setRequestHeader(importEventsHeader, "1");
    request.upload.onprogress = (event) => onUploaded(event.loaded, event.total || file.size);
    request.onprogress = readEvents;
    request.onload = () => {
      if (request.status !== 200) {
        let message = `The upload was refused (HTTP ${request.status}).`;
        try {
          message = (JSON.parse(request.responseText) as { message?: string }).message ?? message;
        } catch {}
        onEvent({ type: "error", code: "refused", line: null, column: null, message });
      } else readEvents();
      resolve();
    };
    request.onerror = () => {
      onEvent({
        type: "error",
        code: "network",
        line: null,
        column: null,
        message: "The connection broke; nothing was changed.",
      });
      resolve();
    };
    request.send(file);
  });
}

const formatWords = {
  json: "Read as JSON: an array of objects, one per row; nested fields get dotted names.",
  ndjson: "Read as NDJSON: one object per line; nested fields get dotted names.",
  parquet: "Read as Parquet: its columns keep the types the file gives them.",
  arrow:
    "Read as an Arrow IPC file: its columns keep the types the file gives them; read whole, up to 256 MB.",
  xlsx: "Read as an Excel workbook: its first row names the columns; dates, numbers and text are typed as a CSV file's are.",
} as const;

export function CsvUploadForm(props: {
  /** Import into this dataset (with a replace/append choice); without it, create a dataset. */
  dataset?: { id: string; version: number };
  /** The store's limits (store.rowsLimits): said before anything is sent; the server checks again. */
  limits: { maxImportBytes: number };
}) {
  const maxBytes = props.limits.maxImportBytes;
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const [mode, setMode] = useState<"replace" | "append">("append");
  // The start of the chosen file, enough to tell its separator and decimal mark.
  const [sample, setSample] = useState<string | null>(null);
  const [delimiter, setDelimiter] = useState<DelimiterChoice>("auto");
  const [decimal, setDecimal] = useState<DecimalChoice>("auto");
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [format, setFormat] = useState<ImportFormat>("csv");
  const readAs: CsvDialect | null =
    sample === null ? null : resolveCsvDialect(sample, { delimiter, decimal });

  /** Checks the chosen file at once: too large is said before anything is sent, and the head
   * of the file tells its separator and decimal mark. */
  async function onFileChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setStatus({ state: "idle" });
    setSample(null);
    if (!file) {
      setFileProblem(null);
      return;
    }
    const chosen = importFormatOf(file.name);
    setFormat(chosen);
    if (file.size === 0) {
      setFileProblem(
        chosen === "csv"
          ? "This file is empty (0 bytes): a CSV file needs a header row and rows."
          : "This file is empty (0 bytes): there are no rows to import.",
      );
      return;
    }
    if (file.size > maxBytes) {
      setFileProblem(
        `This file is ${formatBytes(file.size)}; files up to ${formatBytes(maxBytes)} can be imported.`,
      );
      return;
    }
    setFileProblem(null);
    setSample(await file.slice(0, 64 * 1024).text());
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = fileInput.current?.files?.[0];
    if (!file) {
      setStatus({ state: "failed", message: "Choose a file.", line: null, column: null });
      return;
    }
    if (fileProblem) return;
    const params = new URLSearchParams(
      props.dataset
        ? { datasetId: props.dataset.id, version: String(props.dataset.version), mode }
        : {
            name: String(form.get("name") ?? ""),
            description: String(form.get("description") ?? ""),
          },
    );
    const dialect =
      readAs ?? resolveCsvDialect(await file.slice(0, 64 * 1024).text(), { delimiter, decimal });
    params.set("delimiter", dialect.delimiter);
    params.set("decimal", dialect.decimal);
    params.set("format", importFormatOf(file.name));
    const sheet = String(form.get("sheet") ?? "").trim();
    if (importFormatOf(file.name) === "xlsx" && sheet !== "") params.set("sheet", sheet);
    setStatus({ state: "running", sent: 0, total: file.size, rows: 0 });
    let finished: ImportEvent | null = null;
    await upload(
      `/api/datasets/import?${params}`,
      file,
      (sent, total) =>
        setStatus((current) =>
          current.state === "running" ? { ...current, sent, total } : current,
        ),
      (importEvent) => {
        if (importEvent.type === "progress") {
          setStatus((current) =>
            current.state === "running" ? { ...current, rows: importEvent.rows } : current,
          );
        } else finished = importEvent;
      },
    );
    const result = finished as ImportEvent | null;
    if (result?.type === "done") {
      setStatus({ state: "done", imported: result.imported, rowCount: result.rowCount });
      // A full navigation shows the new rows, version and name from the server.
      window.location.assign(`/admin/datasets/${result.datasetId}?saved=import`);
    } else if (result?.type === "error") {
      setStatus({
        state: "failed",
        message: result.message,
        line: result.line,
        column: result.column,
        ...(result.problems ? { problems: result.problems } : {}),
        ...(result.problemCount ? { problemCount: result.problemCount } : {}),
      });
    } else {
      setStatus({
        state: "failed",
        message: "The server did not finish the import; nothing was changed.",
        line: null,
        column: null,
      });
    }
  }

  const running = status.state === "running";
  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-busy={running}>
      {props.dataset ? null : (
        <>
          <FormField
            id={`${id}-name`}
            name="name"
            label="Name of the new dataset"
            required
            maxLength={textLimits.name}
          />
          <FormField
            id={`${id}-description`}
            name="description"
            label="Description of the new dataset (optional)"
            maxLength={textLimits.description}
          />
        </>
      )}
      <div className="field">
        <label htmlFor={`${id}-file`}>
          File to import (CSV, JSON, NDJSON, Parquet, Arrow or Excel, up to {formatBytes(maxBytes)})
        </label>
        <input
          id={`${id}-file`}
          ref={fileInput}
          type="file"
          accept={importFileAccept}
          onChange={onFileChosen}
          aria-invalid={fileProblem ? true : undefined}
          aria-describedby={`${id}-file-hint${fileProblem ? ` ${id}-file-error` : ""}`}
        />
        <span id={`${id}-file-hint`} className="muted">
          {format === "csv"
            ? `A header row naming the columns, then one line per row, up to ${formatBytes(maxBytes)}.`
            : formatWords[format]}{" "}
          Nothing changes unless every line fits.
        </span>
        {fileProblem ? (
          <p id={`${id}-file-error`} className="field-error" role="alert">
            {fileProblem}
          </p>
        ) : null}
      </div>
      {format === "xlsx" ? (
        <div className="field">
          <label htmlFor={`${id}-sheet`}>Sheet to import (optional)</label>
          <input
            id={`${id}-sheet`}
            name="sheet"
            maxLength={xlsxSheetNameLength}
            aria-describedby={`${id}-sheet-hint`}
          />
          <span id={`${id}-sheet-hint`} className="muted">
            Its name as the workbook's tab shows it; the first sheet when left empty.
          </span>
        </div>
      ) : null}
      {format === "csv" ? (
        <CsvDialectFields
          idPrefix={id}
          readAs={readAs}
          delimiter={delimiter}
          decimal={decimal}
          onDelimiter={setDelimiter}
          onDecimal={setDecimal}
        />
      ) : null}
      {props.dataset ? (
        <fieldset className="field">
          <legend>Rows already in the dataset</legend>
          <label>
            <input
              type="radio"
              name="mode"
              value="append"
              checked={mode === "append"}
              onChange={() => setMode("append")}
            />{" "}
            Keep them and append the file's rows
          </label>
          <label>
            <input
              type="radio"
              name="mode"
              value="replace"
              checked={mode === "replace"}
              onChange={() => setMode("replace")}
            />{" "}
            Replace all rows with the file's rows
          </label>
        </fieldset>
      ) : null}
      {status.state === "running" ? (
        <div role="status">
          <label htmlFor={`${id}-progress`}>
            Uploaded {Math.round((status.sent / Math.max(1, status.total)) * 100)}% ·{" "}
            {status.rows.toLocaleString()} rows imported
          </label>{" "}
          <progress id={`${id}-progress`} max={status.total} value={status.sent} />
        </div>
      ) : null}
      {status.state === "done" ? (
        <p role="status" className="form-status">
          Imported {status.imported.toLocaleString()} rows; the dataset has{" "}
          {status.rowCount.toLocaleString()}.
        </p>
      ) : null}
      {status.state === "failed" ? (
        <div role="alert" className="form-error" id={`${id}-error`}>
          {status.problems && status.problemCount ? (
            <>
              <p>
                {status.problemCount.toLocaleString()} lines have problems; nothing was changed.
              </p>
              <ol>
                {status.problems.map((found, index) => (
                  <li key={`${index}-${found.message}`}>{found.message}</li>
                ))}
              </ol>
              {status.problemCount > status.problems.length ? (
                <p>
                  The first {status.problems.length} are listed;{" "}
                  {(status.problemCount - status.problems.length).toLocaleString()} more are not.
                </p>
              ) : null}
            </>
          ) : (
            <>
              <p>{status.message}</p>
              {status.line !== null ? (
                <p>
                  Line {status.line}
                  {status.column !== null ? `, column "${status.column}"` : ""}. Nothing was
                  changed.
                </p>
              ) : null}
            </>
          )}
        </div>
      ) : null}
      <div>
        <button type="submit" className="button" disabled={running || fileProblem !== null}>
          {running ? "Importing…" : props.dataset ? "Import rows" : "Import dataset"}
        </button>
      </div>
    </form>
  );
}
