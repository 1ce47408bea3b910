"use client";

import {
  type ColumnType,
  columnChoiceOf,
  columnNameChoiceSchema,
  columnTypes,
  datasetLimits,
  formatChoicesFor,
  formatKey,
  formatLabel,
  formatOfKey,
  type ImportColumnChoice,
  type ImportColumnChoices,
  withColumnChoice,
} from "@seed/model";
import type { ColumnReading, ImportPreview } from "@seed/store";
import { countedLength, LengthCount } from "@/components/form-field";
import { TableRegion } from "@/components/table-region";

// The preview of a file before it is imported: how each column is read (type and format, each
// changeable), the first rows as they will be stored, and every problem in the rows read.

/** Encodings offered besides detection: the common ones a well-kept detector reports. */
export const offeredEncodings = [
  "UTF-8",
  "UTF-16LE",
  "UTF-16BE",
  "windows-1252",
  "ISO-8859-1",
  "ISO-8859-15",
  "windows-1250",
  "ISO-8859-2",
  "windows-1251",
  "KOI8-R",
  "windows-1253",
  "windows-1254",
  "Shift_JIS",
  "EUC-JP",
  "GB18030",
  "Big5",
  "EUC-KR",
  "macintosh",
] as const;

const typeWords: Record<string, string> = {
  number: "number",
  string: "text",
  date: "date",
  timestamp: "date and time",
  boolean: "true/false",
};

/** The encoding the preview read the bytes with, in words. */
export function describeEncoding(encoding: ImportPreview["encoding"]): string {
  if (!encoding) return "not known yet";
  if (encoding.source === "bom") return `${encoding.name} (from the file's byte order mark)`;
  if (encoding.source === "chosen") return `${encoding.name} (as chosen)`;
  return encoding.confidence === null
    ? `${encoding.name} (detected)`
    : `${encoding.name} (detected, ${encoding.confidence}% sure)`;
}

/**
 * The choice with `name` as typed for a column: a blank keeps the header; a name that does not
 * fit (too long) is left out, and shown as the field's problem (see columnNameProblem).
 */
export function withTypedName(
  choice: ImportColumnChoice | undefined,
  header: string,
  text: string,
): ImportColumnChoice | null {
  const { name: _old, ...rest } = choice ?? {};
  const checked = columnNameChoiceSchema.safeParse(text);
  const next = checked.success && checked.data !== header ? { ...rest, name: checked.data } : rest;
  return Object.keys(next).length === 0 ? null : next;
}

/** Why a typed column name cannot be saved (blank keeps the header: no problem). */
export function columnNameProblem(text: string): string | null {
  if (text.trim() === "") return null;
  const checked = columnNameChoiceSchema.safeParse(text);
  if (checked.success) return null;
  const reason = checked.error.issues[0]?.message ?? "the name does not fit.";
  return `${reason.charAt(0).toUpperCase()}${reason.slice(1)}`;
}

/** One row per column: its name (a new dataset's), its type and its format, each changeable. */
export function ColumnChoicesTable({
  idPrefix,
  columns,
  choices,
  onChange,
  names,
}: {
  idPrefix: string;
  columns: readonly ColumnReading[];
  choices: ImportColumnChoices;
  onChange: (choices: ImportColumnChoices) => void;
  /** For a new dataset: the names typed for its columns, by header (blank keeps the header). */
  names?: {
    texts: Readonly<Record<string, string>>;
    onName: (header: string, text: string) => void;
  };
}) {
  const set = (header: string, choice: ImportColumnChoice | null) =>
    onChange(
      withColumnChoice(
        choices,
        header,
        choice === null || Object.keys(choice).length === 0 ? null : choice,
      ),
    );
  return (
    <TableRegion label="Columns of the file">
      <table>
        <caption>
          Columns: each is {names ? "saved under the name and " : ""}read as the type and format
          shown; change any of them.
        </caption>
        <thead>
          <tr>
            <th scope="col">Column</th>
            {names ? <th scope="col">Save as</th> : null}
            <th scope="col">Type</th>
            <th scope="col">Format</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((column, index) => {
            const chosen = columnChoiceOf(choices, column.header);
            const named = chosen?.name === undefined ? {} : { name: chosen.name };
            const format = column.format;
            const timeOrNumber =
              column.type === "number" || column.type === "date" || column.type === "timestamp";
            const offered = timeOrNumber
              ? formatChoicesFor(column.type as ColumnType, column.detected.format)
              : [];
            const nameText =
              names && Object.hasOwn(names.texts, column.header)
                ? (names.texts[column.header] ?? "")
                : "";
            const nameProblem = names ? columnNameProblem(nameText) : null;
            const nameId = `${idPrefix}-column-${index}-name`;
            return (
              <tr key={column.header}>
                <th scope="row">{column.header}</th>
                {names ? (
                  <td>
                    <input
                      id={nameId}
                      aria-label={`Name for column ${column.header}`}
                      placeholder={column.header}
                      value={nameText}
                      aria-invalid={nameProblem ? true : undefined}
                      aria-describedby={`${nameId}-count${nameProblem ? ` ${nameId}-error` : ""}`}
                      onChange={(event) => names.onName(column.header, event.currentTarget.value)}
                    />
                    <LengthCount
                      id={`${nameId}-count`}
                      length={countedLength(nameText)}
                      max={datasetLimits.maxColumnNameLength}
                    />
                    {nameProblem ? (
                      <p id={`${nameId}-error`} className="field-error">
                        {nameProblem}
                      </p>
                    ) : null}
                  </td>
                ) : null}
                <td>
                  {column.fixed ? (
                    <span>{typeWords[column.type]} (the dataset's)</span>
                  ) : (
                    <select
                      id={`${idPrefix}-column-${index}-type`}
                      aria-label={`Type of column ${column.header}`}
                      value={chosen?.type ?? "detected"}
                      onChange={(event) => {
                        const value = event.currentTarget.value;
                        // A new type starts from the format its cells suggest.
                        set(
                          column.header,
                          value === "detected" ? named : { ...named, type: value as ColumnType },
                        );
                      }}
                    >
                      <option value="detected">
                        As detected: {typeWords[column.detected.type] ?? column.detected.type}
                      </option>
                      {columnTypes.map((type) => (
                        <option key={type} value={type}>
                          {typeWords[type]}
                        </option>
                      ))}
                    </select>
                  )}
                </td>
                <td>
                  {timeOrNumber && format !== null ? (
                    <>
                      <select
                        id={`${idPrefix}-column-${index}-format`}
                        aria-label={`Format of column ${column.header}`}
                        value={chosen?.format === undefined ? "read" : formatKey(chosen.format)}
                        onChange={(event) => {
                          const value = event.currentTarget.value;
                          const picked = value === "read" ? undefined : formatOfKey(value);
                          set(column.header, {
                            ...named,
                            ...(chosen?.type ? { type: chosen.type } : {}),
                            ...(picked ? { format: picked } : {}),
                          });
                        }}
                      >
                        <option value="read">
                          As read:{" "}
                          {formatLabel(column.type as "number" | "date" | "timestamp", format)}
                        </option>
                        {offered.map((option) => (
                          <option key={formatKey(option)} value={formatKey(option)}>
                            {formatLabel(column.type as "number" | "date" | "timestamp", option)}
                          </option>
                        ))}
                      </select>
                      {column.detected.ambiguous && chosen?.format === undefined ? (
                        <p className="muted">
                          Every day and month here is 12 or less, so the file cannot tell which
                          comes first: read as {String(column.detected.format)}; choose{" "}
                          {column.detected.ambiguous.other} if days come first.
                        </p>
                      ) : null}
                    </>
                  ) : (
                    <span className="muted">none</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}

function shownValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return String(value);
}

/** The first rows as they will be stored; a cell that does not fit shows the file's text. */
export function PreviewRows({ preview }: { preview: ImportPreview }) {
  const { columns, rows } = preview;
  return (
    <TableRegion label="Preview of the rows">
      <table>
        <caption>
          Preview: {columns.length} columns, the first {rows.length} of{" "}
          {preview.complete
            ? `${preview.sampleRows.toLocaleString("en-US")} rows`
            : `the ${preview.sampleRows.toLocaleString("en-US")} rows read so far`}{" "}
          as they will be saved
        </caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            {columns.map((column) => (
              <th key={column.header} scope="col">
                {column.name} <span className="muted">({typeWords[column.type]})</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.line}>
              <td>{row.line}</td>
              {columns.map((column) => {
                const misfit = Object.hasOwn(row.misfits, column.header)
                  ? row.misfits[column.header]
                  : undefined;
                return misfit === undefined ? (
                  <td key={column.header}>
                    {shownValue(
                      Object.hasOwn(row.values, column.header) ? row.values[column.header] : null,
                    )}
                  </td>
                ) : (
                  <td key={column.header} className="field-error">
                    “{misfit}” does not fit
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
