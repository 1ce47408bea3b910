"use client";

import { type ColumnType, columnTypes, datasetLimits } from "@seed/model";
import type { CsvProblem, CsvSourceColumn } from "@seed/store/csv";

/** What the user chose for one column of the file: a new name ("" keeps the header), a type. */
export interface CsvColumnChoice {
  name: string;
  type: ColumnType | "auto";
}

export type CsvColumnChoices = Record<string, CsvColumnChoice>;

/** The parse options (and the form's hidden field) for the user's choices. */
export function csvColumnOptions(choices: CsvColumnChoices): {
  columnNames: Record<string, string>;
  columnTypes: Record<string, ColumnType>;
} {
  const columnNames: Record<string, string> = {};
  const chosenTypes: Record<string, ColumnType> = {};
  for (const [header, choice] of Object.entries(choices)) {
    if (choice.name.trim() !== "") columnNames[header] = choice.name;
    if (choice.type !== "auto") chosenTypes[header] = choice.type;
  }
  return { columnNames, columnTypes: chosenTypes };
}

/** Per column of the file: the name it is saved under and its type (detected, or chosen). */
export function CsvColumnsFields({
  idPrefix,
  columns,
  choices,
  onChange,
}: {
  idPrefix: string;
  columns: readonly CsvSourceColumn[];
  choices: CsvColumnChoices;
  onChange: (choices: CsvColumnChoices) => void;
}) {
  const set = (header: string, patch: Partial<CsvColumnChoice>) =>
    onChange({
      ...choices,
      [header]: { name: "", type: "auto", ...choices[header], ...patch },
    });
  return (
    <fieldset className="stack">
      <legend>Columns</legend>
      <p className="muted">
        Each column is saved under its header and the type its cells suggest; rename a column or
        choose its type here (for example keep codes like 001 as text).
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">In the file</th>
            <th scope="col">Save as</th>
            <th scope="col">Type</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((column, index) => {
            const choice = choices[column.header] ?? { name: "", type: "auto" };
            return (
              <tr key={column.header}>
                <th scope="row">{column.header}</th>
                <td>
                  <input
                    id={`${idPrefix}-column-${index}-name`}
                    aria-label={`Name for column ${column.header}`}
                    placeholder={column.header}
                    maxLength={datasetLimits.maxColumnNameLength}
                    value={choice.name}
                    onChange={(event) => set(column.header, { name: event.currentTarget.value })}
                  />
                </td>
                <td>
                  <select
                    id={`${idPrefix}-column-${index}-type`}
                    aria-label={`Type of column ${column.header}`}
                    value={choice.type}
                    onChange={(event) =>
                      set(column.header, {
                        type: event.currentTarget.value as CsvColumnChoice["type"],
                      })
                    }
                  >
                    <option value="auto">Detected: {column.inferred}</option>
                    {columnTypes.map((type) => (
                      <option key={type} value={type}>
                        {type}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </fieldset>
  );
}

/** Every problem found in the file (up to the listed limit), each with its line. */
export function CsvProblemList({
  id,
  problem,
}: {
  id: string;
  /** A parse's problem, or an import preview's problems. */
  problem: Pick<CsvProblem, "problemCount"> & {
    problems: readonly { message: string; line: number | null; column: string | null }[];
  };
}) {
  const more = problem.problemCount - problem.problems.length;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="field-error stack">
      <p id={`${id}-title`}>
        <strong>
          {problem.problemCount === 1
            ? "1 problem in the file; nothing is saved until it is fixed"
            : `${problem.problemCount.toLocaleString()} problems in the file; nothing is saved until they are fixed`}
        </strong>
      </p>
      <ol>
        {problem.problems.map((found, index) => (
          <li key={`${found.line}-${found.column}-${index}`}>{found.message}</li>
        ))}
      </ol>
      {more > 0 ? (
        <p>
          The first {problem.problems.length} are listed; {more.toLocaleString()} more are not.
        </p>
      ) : null}
    </section>
  );
}
