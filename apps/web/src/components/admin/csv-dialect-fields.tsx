import {
  type CsvDelimiter,
  type CsvDialect,
  csvDelimiters,
  type DecimalSeparator,
  delimiterNames,
} from "@seed/store/csv";
import type { ReactNode } from "react";
import styles from "./admin.module.css";
import { SelectField } from "./form-controls";

export type DelimiterChoice = CsvDelimiter | "auto";
export type DecimalChoice = DecimalSeparator | "auto";

/** What the file was read as, in words: "Values separated by semicolons; decimal comma (4.222,5)." */
export function describeDialect(dialect: CsvDialect): string {
  const decimal = dialect.decimal === "," ? "comma (4.222,5)" : "point (4,222.5)";
  return `Values separated by ${delimiterNames[dialect.delimiter]}s; decimal ${decimal}.`;
}

/**
 * The separator and decimal mark a CSV is read with: detected, said in words, and changeable
 * before anything is written. One control set for the paste form and the file import.
 */
export function CsvDialectFields({
  idPrefix,
  readAs,
  delimiter,
  decimal,
  onDelimiter,
  onDecimal,
  children,
}: {
  idPrefix: string;
  /** Fields that come first in the set (the file import's encoding). */
  children?: ReactNode;
  /** The dialect the current text was read with, or null before there is any. */
  readAs: CsvDialect | null;
  delimiter: DelimiterChoice;
  decimal: DecimalChoice;
  onDelimiter: (choice: DelimiterChoice) => void;
  onDecimal: (choice: DecimalChoice) => void;
}) {
  return (
    <fieldset className={styles.fieldset}>
      <legend>How the file is read</legend>
      {children}
      <p className="muted" aria-live="polite">
        {readAs
          ? describeDialect(readAs)
          : "The separator and decimal mark are detected once there is a file or text."}
      </p>
      <SelectField
        id={`${idPrefix}-delimiter`}
        name="delimiter"
        label="Separator"
        value={delimiter}
        onChange={(event) => onDelimiter(event.currentTarget.value as DelimiterChoice)}
      >
        <option value="auto">Detect</option>
        {csvDelimiters.map((mark) => (
          <option key={mark} value={mark}>
            {delimiterNames[mark]}
          </option>
        ))}
      </SelectField>
      <SelectField
        id={`${idPrefix}-decimal`}
        name="decimal"
        label="Decimal mark"
        value={decimal}
        onChange={(event) => onDecimal(event.currentTarget.value as DecimalChoice)}
      >
        <option value="auto">Detect</option>
        <option value=".">point (4,222.5)</option>
        <option value=",">comma (4.222,5)</option>
      </SelectField>
    </fieldset>
  );
}
