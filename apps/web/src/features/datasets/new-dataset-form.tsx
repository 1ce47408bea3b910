"use client";

import { formatBytes, textLimits } from "@seed/model";

import { defaultCsvLimits, parseCsvDataset } from "@seed/store/csv";
import { type ChangeEvent, useDeferredValue, useMemo, useState } from "react";
import { createDatasetFromCsv } from "@/app/admin/datasets/actions";
import styles from "@/components/admin/admin.module.css";
import {
  type CsvColumnChoices,
  CsvColumnsFields,
  CsvProblemList,
  csvColumnOptions,
} from "@/components/admin/csv-columns";
import {
  CsvDialectFields,
  type DecimalChoice,
  type DelimiterChoice,
} from "@/components/admin/csv-dialect-fields";
import { DatasetPreview } from "@/components/admin/dataset-preview";
import { describedBy, FieldMessages, FormMessages } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { FormField } from "@/components/form-field";

// The store's limit; next.config raises the server-action body limit above it.
const maxCsvBytes = defaultCsvLimits.maxBytes;
/** The bytes as UTF-8 text (a byte order mark dropped), or null when they are not UTF-8. */
function utf8TextOf(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The hint under the CSV field; larger files go through the streamed import, up to `largeFileBytes`. */
function csvHintFor(largeFileBytes: number): string {
  return `A header row, then one line per row; up to ${maxCsvBytes / 1024 / 1024} MB, ${defaultCsvLimits.maxRows.toLocaleString("en-US")} rows and ${defaultCsvLimits.maxColumns} columns here (larger files, up to ${formatBytes(largeFileBytes)}, through Upload a CSV file on the datasets page). Types are inferred: number, date, timestamp or string.`;
}

export function NewDatasetForm(props: {
  /** The store's streamed-import file limit (store.rowsLimits.maxImportBytes), for the hint. */
  largeFileBytes: number;
}) {
  const csvHint = csvHintFor(props.largeFileBytes);
  const { state, pending, onSubmit } = useContentForm(createDatasetFromCsv);
  const [csv, setCsv] = useState("");
  const [fileError, setFileError] = useState<string | null>(null);
  const [delimiter, setDelimiter] = useState<DelimiterChoice>("auto");
  const [decimal, setDecimal] = useState<DecimalChoice>("auto");
  const [columnChoices, setColumnChoices] = useState<CsvColumnChoices>({});
  const chosenColumns = useMemo(() => csvColumnOptions(columnChoices), [columnChoices]);
  const deferredCsv = useDeferredValue(csv);
  const preview = useMemo(
    () =>
      deferredCsv.trim() === ""
        ? null
        : parseCsvDataset(deferredCsv, {
            previewRows: 5,
            delimiter,
            decimal,
            ...chosenColumns,
          }),
    [deferredCsv, delimiter, decimal, chosenColumns],
  );
  const sourceColumns = preview?.sourceColumns ?? null;
  const readAs = preview?.dialect;
  const tooLarge = new TextEncoder().encode(csv).length > maxCsvBytes;

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    if (!file) return;
    if (file.size === 0) {
      setFileError(`"${file.name}" is empty (0 bytes): a CSV file needs a header row and rows.`);
      setCsv("");
      return;
    }
    if (file.size > maxCsvBytes) {
      setFileError(
        `This file is ${Math.round(file.size / 1024)} KB; files up to ${maxCsvBytes / 1024 / 1024} MB can be uploaded here.`,
      );
      return;
    }
    // Read as UTF-8, strictly: other encodings would turn into replacement characters silently.
    // The streamed import below detects and decodes any encoding on the server.
    const text = utf8TextOf(new Uint8Array(await file.arrayBuffer()));
    if (text === null) {
      setFileError(
        `"${file.name}" is not UTF-8 text; nothing was read. Upload it under "Import a large file" below, which detects its encoding (Windows-1252, Latin-1, UTF-16, Shift_JIS and others).`,
      );
      setCsv("");
      return;
    }
    setFileError(null);
    setCsv(text);
  }

  const csvErrors = [
    ...(fileError ? [fileError] : []),
    ...(tooLarge
      ? [`The CSV text is over ${maxCsvBytes / 1024 / 1024} MB; split it into smaller datasets.`]
      : []),
    ...(preview && !preview.ok
      ? [
          preview.problemCount > 1
            ? `${preview.problemCount.toLocaleString()} problems, listed below the preview; the first: ${preview.message}`
            : preview.message,
        ]
      : []),
    ...(state.fieldErrors?.csv ?? []),
  ];
  const uniqueCsvErrors = [...new Set(csvErrors)];

  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate>
      <FormMessages state={state} />
      <FormField
        name="name"
        label="Name"
        id="dataset-name"
        required
        maxLength={textLimits.name}
        errors={state.fieldErrors?.name}
      />
      <FormField
        name="description"
        label="Description (optional)"
        id="dataset-description"
        maxLength={textLimits.description}
        errors={state.fieldErrors?.description}
      />
      <div className="field">
        <label htmlFor="dataset-file">CSV file</label>
        <input
          id="dataset-file"
          type="file"
          accept=".csv,text/csv,text/plain"
          onChange={readFile}
          aria-describedby="dataset-file-hint"
        />
        <span id="dataset-file-hint" className="muted">
          Choosing a file fills the CSV text below, where you can still change it.
        </span>
      </div>
      <div className="field">
        <label htmlFor="dataset-csv">CSV text</label>
        <textarea
          id="dataset-csv"
          name="csv"
          className={styles.textarea}
          value={csv}
          onChange={(event) => {
            // Text typed or pasted here replaces what a chosen file said about itself.
            setFileError(null);
            setCsv(event.currentTarget.value);
          }}
          spellCheck={false}
          {...describedBy(
            "dataset-csv",
            uniqueCsvErrors.length ? uniqueCsvErrors : undefined,
            csvHint,
          )}
        />
        <FieldMessages
          id="dataset-csv"
          errors={uniqueCsvErrors.length ? uniqueCsvErrors : undefined}
          hint={csvHint}
        />
      </div>
      <CsvDialectFields
        idPrefix="dataset"
        readAs={readAs ?? null}
        delimiter={delimiter}
        decimal={decimal}
        onDelimiter={setDelimiter}
        onDecimal={setDecimal}
      />
      <input type="hidden" name="columns" value={JSON.stringify(chosenColumns)} />
      {sourceColumns ? (
        <CsvColumnsFields
          idPrefix="dataset"
          columns={sourceColumns}
          choices={columnChoices}
          onChange={setColumnChoices}
        />
      ) : null}
      {preview?.ok ? (
        <DatasetPreview
          columns={preview.columns}
          rows={preview.preview}
          rowCount={preview.rowCount}
        />
      ) : null}
      {preview && !preview.ok ? <CsvProblemList id="dataset-problems" problem={preview} /> : null}
      <div>
        <button
          type="submit"
          className="button"
          disabled={pending || tooLarge || fileError !== null || (preview !== null && !preview.ok)}
        >
          {pending ? "Saving…" : "Save dataset"}
        </button>
      </div>
    </form>
  );
}
