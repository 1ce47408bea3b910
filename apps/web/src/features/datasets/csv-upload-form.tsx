"use client";

import {
  columnChoiceOf,
  datasetTextSchema,
  formatBytes,
  formatZodError,
  type ImportColumnChoices,
  type ImportFormat,
  importFileAccept,
  importFormatOf,
  previewHeadBytes,
  previewsFromHead,
  previewWholeBytes,
  setOwn,
  textLimits,
  withColumnChoice,
  xlsxSheetNameLength,
} from "@seed/model";
import type { ImportPreview } from "@seed/store";
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from "react";
import styles from "@/components/admin/admin.module.css";
import { CsvProblemList } from "@/components/admin/csv-columns";
import {
  CsvDialectFields,
  type DecimalChoice,
  type DelimiterChoice,
} from "@/components/admin/csv-dialect-fields";
import { SelectField } from "@/components/admin/form-controls";
import { FormField } from "@/components/form-field";
import { type ImportEvent, importEventsHeader } from "./import-events";
import {
  ColumnChoicesTable,
  columnNameProblem,
  describeEncoding,
  offeredEncodings,
  PreviewRows,
  withTypedName,
} from "./import-preview-fields";
import { importReadingParams, maxHeaderRow, readingQueryProblem } from "./import-reading";

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
  file: Blob,
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
    request.setRequestHeader("Content-Type", "application/octet-stream");
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

/** What pasted text is, from its first character: a JSON array, NDJSON objects, else CSV. */
function pastedFile(text: string): File {
  const first = text.trimStart()[0];
  const name = first === "[" ? "pasted.json" : first === "{" ? "pasted.ndjson" : "pasted.csv";
  return new File([text], name, { type: "text/plain" });
}

type PreviewState =
  | { state: "none" }
  | { state: "loading" }
  | { state: "ready"; preview: ImportPreview }
  | { state: "failed"; message: string }
  /** Too large a file of a format read whole: imported without a preview. */
  | { state: "unavailable"; message: string };

/** The preview's answer for the chosen file and reading; `signal` stops an outdated one. */
async function fetchPreview(
  file: Blob,
  format: ImportFormat,
  params: URLSearchParams,
  signal: AbortSignal,
): Promise<PreviewState> {
  const fromHead = previewsFromHead(format);
  const complete = !fromHead || file.size <= previewHeadBytes;
  params.set("complete", complete ? "1" : "0");
  const body = complete ? file : file.slice(0, previewHeadBytes);
  const response = await fetch(`/api/datasets/import/preview?${params}`, {
    method: "POST",
    body,
    headers: { [importEventsHeader]: "1", "Content-Type": "application/octet-stream" },
    signal,
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as { message?: string } | null;
    return {
      state: "failed",
      message: answer?.message ?? `The preview was refused (HTTP ${response.status}).`,
    };
  }
  return { state: "ready", preview: (await response.json()) as ImportPreview };
}

/**
 * The one import flow for every file and size: choose a file (or drop one, or paste rows), see
 * how it is read (encoding, separator, decimal mark, each column's type and format, every
 * problem in its first rows) and change any of it, then import the whole file streamed with
 * progress. The server reads the file with the same rules for the preview and the import.
 */
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
  const [file, setFile] = useState<File | null>(null);
  const [pasted, setPasted] = useState("");
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [textProblems, setTextProblems] = useState<Record<string, string[] | undefined>>({});
  const [encoding, setEncoding] = useState("auto");
  const [delimiter, setDelimiter] = useState<DelimiterChoice>("auto");
  const [decimal, setDecimal] = useState<DecimalChoice>("auto");
  const [sheet, setSheet] = useState("");
  const [headerRowText, setHeaderRowText] = useState("1");
  const [choices, setChoices] = useState<ImportColumnChoices>({});
  /** The names typed for a new dataset's columns, by header, as typed. */
  const [nameTexts, setNameTexts] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<PreviewState>({ state: "none" });
  /** A workbook's sheets, as its first preview listed them (kept while later ones load). */
  const [sheets, setSheets] = useState<string[] | null>(null);
  const [dragging, setDragging] = useState(false);
  const format: ImportFormat = file ? importFormatOf(file.name) : "csv";
  const headerRowValue = /^[0-9]{1,4}$/.test(headerRowText.trim())
    ? Number(headerRowText.trim())
    : Number.NaN;
  const headerRow = headerRowValue >= 1 && headerRowValue <= maxHeaderRow ? headerRowValue : null;
  const headerRowProblem =
    headerRow === null ? `Enter the line that names the columns, from 1 to ${maxHeaderRow}.` : null;
  const tabular = format === "csv" || format === "xlsx";
  const datasetId = props.dataset?.id;

  // The preview follows the file and every choice; an older answer never replaces a newer one.
  useEffect(() => {
    if (!file || fileProblem || headerRow === null) {
      setPreview({ state: "none" });
      return;
    }
    if (!previewsFromHead(format) && file.size > previewWholeBytes) {
      setPreview({
        state: "unavailable",
        message: `Files of this kind are previewed up to ${formatBytes(previewWholeBytes)}; this one is imported with the types it gives, and every row is still checked before anything is saved.`,
      });
      return;
    }
    const controller = new AbortController();
    setPreview({ state: "loading" });
    const params = importReadingParams({
      format,
      delimiter,
      decimal,
      encoding,
      ...(sheet.trim() ? { sheet: sheet.trim() } : {}),
      ...(tabular ? { headerRow } : {}),
      columns: choices,
    });
    if (datasetId) params.set("datasetId", datasetId);
    const tooLong = readingQueryProblem(params);
    if (tooLong) {
      setPreview({ state: "failed", message: tooLong });
      return;
    }
    const timer = setTimeout(() => {
      fetchPreview(file, format, params, controller.signal)
        .then(setPreview)
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setPreview({
            state: "failed",
            message: error instanceof Error ? error.message : "The preview failed.",
          });
        });
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [
    file,
    fileProblem,
    format,
    delimiter,
    decimal,
    encoding,
    sheet,
    headerRow,
    tabular,
    choices,
    datasetId,
  ]);

  /** A new file (chosen, dropped or pasted): checked at once, and read afresh. */
  function choose(next: File | null, from: "input" | "drop" | "paste") {
    setStatus({ state: "idle" });
    setEncoding("auto");
    setDelimiter("auto");
    setDecimal("auto");
    setSheet("");
    setSheets(null);
    setHeaderRowText("1");
    setChoices({});
    setNameTexts({});
    if (from !== "paste") setPasted("");
    if (from !== "input" && fileInput.current) fileInput.current.value = "";
    setFile(next);
    if (!next) {
      setFileProblem(null);
      return;
    }
    const chosen = importFormatOf(next.name);
    if (next.size === 0) {
      setFileProblem(
        chosen === "csv"
          ? "This file is empty (0 bytes): a CSV file needs a header row and rows."
          : "This file is empty (0 bytes): there are no rows to import.",
      );
      return;
    }
    if (next.size > maxBytes) {
      setFileProblem(
        `This file is ${formatBytes(next.size)}; files up to ${formatBytes(maxBytes)} can be imported.`,
      );
      return;
    }
    setFileProblem(null);
  }

  /** A change of how the text is cut up renames the columns: their choices start again. */
  function rereadAs(change: () => void) {
    change();
    setChoices({});
    setNameTexts({});
    setStatus({ state: "idle" });
  }

  /** A field's change handler that rereads the file with its new value. */
  const rereadWith =
    (set: (value: string) => void) =>
    (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      const next = event.currentTarget.value;
      rereadAs(() => set(next));
    };

  function chooseColumns(next: ImportColumnChoices) {
    setChoices(next);
    setStatus({ state: "idle" });
  }

  function nameColumn(header: string, text: string) {
    setNameTexts((texts) => {
      const next = { ...texts };
      setOwn(next, header, text);
      return next;
    });
    chooseColumns(
      withColumnChoice(
        choices,
        header,
        withTypedName(columnChoiceOf(choices, header), header, text),
      ),
    );
  }
  const namesProblem = Object.values(nameTexts).some((text) => columnNameProblem(text) !== null)
    ? "A column's new name is too long; shorten it (the table of columns says which)."
    : null;

  const ready = preview.state === "ready" ? preview.preview : null;
  const listedSheets = ready?.sheets ?? null;
  useEffect(() => {
    if (listedSheets && listedSheets.length > 0) setSheets(listedSheets);
  }, [listedSheets]);
  // An import that failed lists its problems itself; the preview's would repeat them.
  const failed = status.state === "failed";
  const blocked =
    ready !== null && !failed && (ready.stopped !== null || ready.problemCount > 0)
      ? "Fix what the preview lists (choose the encoding, retype the column or pick another format): an import of this file would save nothing."
      : null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (!props.dataset) {
      // The store's own rule, said before the file is sent.
      const text = datasetTextSchema.safeParse({
        name: String(form.get("name") ?? ""),
        description: String(form.get("description") ?? ""),
      });
      const problems = text.success ? {} : formatZodError(text.error).fieldErrors;
      setTextProblems(problems);
      if (!text.success) return;
    }
    if (!file) {
      setStatus({ state: "failed", message: "Choose a file.", line: null, column: null });
      return;
    }
    if (fileProblem || headerRowProblem || preview.state === "loading") return;
    if (namesProblem) {
      setStatus({ state: "failed", message: namesProblem, line: null, column: null });
      return;
    }
    if (preview.state === "failed") {
      setStatus({ state: "failed", message: preview.message, line: null, column: null });
      return;
    }
    const params = new URLSearchParams(
      props.dataset
        ? { datasetId: props.dataset.id, version: String(props.dataset.version), mode }
        : {
            name: String(form.get("name") ?? "").trim(),
            description: String(form.get("description") ?? "").trim(),
          },
    );
    importReadingParams(
      {
        format,
        // What the preview read the file with; CSV without a preview is not imported.
        delimiter: ready?.dialect?.delimiter ?? ",",
        decimal: ready?.dialect?.decimal ?? ".",
        encoding,
        ...(sheet.trim() ? { sheet: sheet.trim() } : {}),
        ...(tabular && headerRow !== null ? { headerRow } : {}),
        columns: choices,
      },
      params,
    );
    const tooLong = readingQueryProblem(params);
    if (tooLong) {
      setStatus({ state: "failed", message: tooLong, line: null, column: null });
      return;
    }
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
  const sheetTooLong = Array.from(sheet).length > xlsxSheetNameLength;
  const suggested = ready?.suggestedHeaderRow && headerRow === 1 ? ready.suggestedHeaderRow : null;
  const headerRowField = (
    <div className="field">
      <label htmlFor={`${id}-header-row`}>Header row (the line that names the columns)</label>
      <input
        id={`${id}-header-row`}
        inputMode="numeric"
        value={headerRowText}
        onChange={rereadWith(setHeaderRowText)}
        aria-invalid={headerRowProblem ? true : undefined}
        aria-describedby={`${id}-header-row-hint${headerRowProblem ? ` ${id}-header-row-error` : ""}`}
      />
      <span id={`${id}-header-row-hint`} className="muted">
        Lines above it (a title, notes) are left out.
      </span>
      {headerRowProblem ? (
        <p id={`${id}-header-row-error`} className="field-error">
          {headerRowProblem}
        </p>
      ) : null}
      {suggested ? (
        <p className="stack">
          <span>
            The table seems to start on line {suggested}; the lines above it look like notes.
          </span>
          <button
            type="button"
            className="button"
            onClick={() => rereadAs(() => setHeaderRowText(String(suggested)))}
          >
            Read line {suggested} as the header row
          </button>
        </p>
      ) : null}
    </div>
  );
  const encodingField = (
    <SelectField
      id={`${id}-encoding`}
      label="Encoding"
      value={encoding}
      onChange={rereadWith(setEncoding)}
      hint={`Read as ${describeEncoding(ready?.encoding ?? null)}.`}
    >
      <option value="auto">Detect</option>
      {offeredEncodings.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </SelectField>
  );
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
            errors={textProblems.name}
          />
          <FormField
            id={`${id}-description`}
            name="description"
            label="Description of the new dataset (optional)"
            maxLength={textLimits.description}
            errors={textProblems.description}
          />
        </>
      )}
      {/* Dropping a file anywhere here chooses it; the file input is the way for keyboards. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target only; the input inside is the accessible control */}
      <div
        className={`field ${styles.dropZone ?? ""}`}
        data-dragging={dragging ? "true" : undefined}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          const dropped = event.dataTransfer.files[0];
          if (dropped) choose(dropped, "drop");
        }}
      >
        <label htmlFor={`${id}-file`}>
          File to import (CSV, JSON, NDJSON, Parquet, Arrow or Excel, up to {formatBytes(maxBytes)})
        </label>
        <input
          id={`${id}-file`}
          ref={fileInput}
          type="file"
          accept={importFileAccept}
          onChange={(event) => choose(event.currentTarget.files?.[0] ?? null, "input")}
          aria-invalid={fileProblem ? true : undefined}
          aria-describedby={`${id}-file-hint${fileProblem ? ` ${id}-file-error` : ""}`}
        />
        <span id={`${id}-file-hint`} className="muted">
          {format === "csv"
            ? `A header row naming the columns, then one line per row, up to ${formatBytes(maxBytes)}.`
            : formatWords[format]}{" "}
          Nothing changes unless every line fits. A file dropped here is chosen too.
        </span>
        {fileProblem ? (
          <p id={`${id}-file-error`} className="field-error" role="alert">
            {fileProblem}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${id}-paste`}>Or paste the rows (CSV, JSON or NDJSON text)</label>
        <textarea
          id={`${id}-paste`}
          className={styles.textarea}
          value={pasted}
          spellCheck={false}
          aria-describedby={`${id}-paste-hint`}
          onChange={(event) => {
            const text = event.currentTarget.value;
            setPasted(text);
            choose(text.trim() === "" ? null : pastedFile(text), "paste");
          }}
        />
        <span id={`${id}-paste-hint`} className="muted">
          Pasted text is previewed and imported as a file would be; a header row names the columns.
        </span>
      </div>
      {file && !fileProblem && format === "xlsx" && sheets ? (
        <SelectField
          id={`${id}-sheet`}
          label="Sheet to import"
          value={sheet}
          onChange={rereadWith(setSheet)}
          hint={`The workbook has ${sheets.length === 1 ? "one sheet" : `${sheets.length} sheets`}; the first is read unless another is chosen.`}
        >
          {sheets.map((name, index) => (
            <option key={name} value={index === 0 ? "" : name}>
              {name}
            </option>
          ))}
        </SelectField>
      ) : null}
      {file &&
      !fileProblem &&
      format === "xlsx" &&
      !sheets &&
      (preview.state === "unavailable" || preview.state === "failed") ? (
        <div className="field">
          <label htmlFor={`${id}-sheet`}>Sheet to import (optional)</label>
          <input
            id={`${id}-sheet`}
            name="sheet"
            value={sheet}
            onChange={rereadWith(setSheet)}
            aria-describedby={`${id}-sheet-hint${sheetTooLong ? ` ${id}-sheet-error` : ""}`}
          />
          <span id={`${id}-sheet-hint`} className="muted">
            Its name as the workbook's tab shows it; the first sheet when left empty.
          </span>
          {sheetTooLong ? (
            <p id={`${id}-sheet-error`} className="field-error">
              Excel names sheets in at most {xlsxSheetNameLength} characters; this is{" "}
              {Array.from(sheet).length}.
            </p>
          ) : null}
        </div>
      ) : null}
      {file && !fileProblem && format === "xlsx" ? headerRowField : null}
      {file && !fileProblem && format === "csv" ? (
        <CsvDialectFields
          idPrefix={id}
          readAs={ready?.dialect ?? null}
          delimiter={delimiter}
          decimal={decimal}
          onDelimiter={(next) => rereadAs(() => setDelimiter(next))}
          onDecimal={(next) => rereadAs(() => setDecimal(next))}
        >
          {encodingField}
          {headerRowField}
        </CsvDialectFields>
      ) : null}
      {file && !fileProblem && (format === "json" || format === "ndjson") ? (
        <fieldset className={styles.fieldset}>
          <legend>How the file is read</legend>
          {encodingField}
        </fieldset>
      ) : null}
      <div aria-live="polite" className="stack">
        {preview.state === "loading" ? <p className="muted">Reading the file…</p> : null}
        {preview.state === "failed" || preview.state === "unavailable" ? (
          <p className={preview.state === "failed" ? "field-error" : "muted"}>{preview.message}</p>
        ) : null}
      </div>
      {ready ? (
        <>
          {ready.stopped && !failed ? <p className="field-error">{ready.stopped.message}</p> : null}
          {ready.columns.length > 0 ? (
            <ColumnChoicesTable
              idPrefix={id}
              columns={ready.columns}
              choices={choices}
              onChange={chooseColumns}
              {...(props.dataset ? {} : { names: { texts: nameTexts, onName: nameColumn } })}
            />
          ) : null}
          {ready.columns.length > 0 ? <PreviewRows preview={ready} /> : null}
          {ready.problemCount > 0 && !failed ? (
            <CsvProblemList id={`${id}-problems`} problem={ready} />
          ) : null}
          {!ready.complete && ready.problemCount === 0 && !ready.stopped ? (
            <p className="muted">
              The first {ready.sampleRows.toLocaleString("en-US")} rows fit. The rest are checked as
              the file imports; if any does not fit, nothing is saved and the line is named.
            </p>
          ) : null}
        </>
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
                {status.problemCount === 1
                  ? "1 line has a problem"
                  : `${status.problemCount.toLocaleString()} lines have problems`}
                ; nothing was changed.
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
              <p>Retype the column or pick another format in the preview, then import again.</p>
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
              {status.column !== null ? (
                <p>Retype the column or pick another format in the preview, then import again.</p>
              ) : null}
            </>
          )}
        </div>
      ) : null}
      {blocked ? (
        <p className="field-error" id={`${id}-blocked`}>
          {blocked}
        </p>
      ) : null}
      <div>
        <button
          type="submit"
          className="button"
          disabled={running || fileProblem !== null || preview.state === "loading"}
          aria-describedby={blocked ? `${id}-blocked` : undefined}
        >
          {running ? "Importing…" : props.dataset ? "Import rows" : "Import dataset"}
        </button>
      </div>
    </form>
  );
}
