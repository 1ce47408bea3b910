import {
  createFullTimeFormatter,
  createNumberFormatter,
  detectIndexKind,
  toTimestamp,
} from "../data/format";
import { type DataIssue, describeValue } from "../data/rows";
import type { RowKey, ValueFormatter } from "../data/series";

/** How a column's values read: numbers (right-aligned, by Intl), dates, or text. */
export type TableColumnKind = "number" | "date" | "text";

export type TableTone = "good" | "warning" | "bad";

/** A value meets the rule when it is below, at most, above, at least or equal to `value`. */
export interface TableRule {
  when: "below" | "at_or_below" | "above" | "at_or_above" | "equal";
  value: number;
  tone: TableTone;
  /** Words for the tone, read with the value (default the tone's name). */
  label?: string;
}

export interface TableColumn<Row> {
  key: RowKey<Row>;
  /** Header text (default the key). */
  label?: string;
  /** Default: detected from the column's values. */
  kind?: TableColumnKind;
  /** Intl options for a number column, e.g. `{ style: "currency", currency: "EUR" }`. */
  numberFormat?: Intl.NumberFormatOptions;
  /** The column's own formatter: of a number column's values, or a date column's timestamps (ms). */
  formatter?: ValueFormatter;
  /** Conditional colours of a number column: the first rule a value meets tones its cell. */
  rules?: readonly TableRule[];
}

export type TableSort = { key: string; direction: "asc" | "desc" };

/** A column as the table draws it. */
export interface PreparedColumn {
  key: string;
  label: string;
  kind: TableColumnKind;
  format: (value: number) => string;
  rules: readonly TableRule[];
}

/** One cell: the value to sort and export (null: missing), its text, and its tone. */
export interface TableCell {
  value: number | string | null;
  text: string;
  tone: TableTone | null;
  toneLabel: string | null;
}

export interface TableFrame {
  columns: PreparedColumn[];
  /** Kept rows in the data's order, each with its position in the caller's array. */
  rows: { index: number; cells: TableCell[] }[];
  issues: DataIssue[];
  /** Why nothing can be shown, when that is the case. */
  emptyReason: string | null;
}

const MISSING = "–";

function meets(rule: TableRule, value: number): boolean {
  switch (rule.when) {
    case "below":
      return value < rule.value;
    case "at_or_below":
      return value <= rule.value;
    case "above":
      return value > rule.value;
    case "at_or_above":
      return value >= rule.value;
    default:
      return value === rule.value;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The columns as given (names or settings), each key once; rules without a finite value are left out. */
function columnsOf<Row>(
  columns: readonly (RowKey<Row> | TableColumn<Row>)[],
  rows: readonly unknown[],
  locale: string | undefined,
  timeZone: string,
): PreparedColumn[] {
  const seen = new Set<string>();
  const prepared: PreparedColumn[] = [];
  for (const given of Array.isArray(columns) ? columns : []) {
    const column: TableColumn<Row> =
      typeof given === "string"
        ? ({ key: given } as TableColumn<Row>)
        : (given as TableColumn<Row>);
    if (!isRecord(column) || typeof column.key !== "string" || seen.has(column.key)) continue;
    seen.add(column.key);
    const key = column.key;
    const kind =
      column.kind ??
      (() => {
        const detected = detectIndexKind(
          rows.slice(0, 256).map((row) => (isRecord(row) ? row[key] : undefined)),
        );
        return detected === "time" ? "date" : detected === "number" ? "number" : "text";
      })();
    let format: (value: number) => string;
    const own = typeof column.formatter === "function" ? column.formatter : null;
    if (own) {
      const fallback =
        kind === "date"
          ? createFullTimeFormatter(locale, timeZone, false)
          : createNumberFormatter(locale);
      format = (value) => {
        try {
          return String(own(value));
        } catch {
          return fallback(value);
        }
      };
    } else if (kind === "date") {
      const withTime = rows.slice(0, 256).some((row) => {
        const time = toTimestamp(isRecord(row) ? row[key] : undefined);
        return Number.isFinite(time) && time % 86_400_000 !== 0;
      });
      format = createFullTimeFormatter(locale, timeZone, withTime);
    } else {
      try {
        format = createNumberFormatter(locale, column.numberFormat);
      } catch (error) {
        // A wrong prop, not data: said in the console, and the numbers written plainly.
        console.warn(
          `[@seed/charts] TableChart: column "${key}" has a number format Intl refuses`,
          error,
        );
        format = createNumberFormatter(locale);
      }
    }
    const rules = (Array.isArray(column.rules) ? column.rules : []).filter(
      (rule): rule is TableRule =>
        isRecord(rule) && typeof rule.value === "number" && Number.isFinite(rule.value),
    );
    prepared.push({
      key,
      label: typeof column.label === "string" && column.label !== "" ? column.label : key,
      kind,
      format,
      rules,
    });
  }
  return prepared;
}

/** The locale if Intl knows it, else the runtime's (undefined). */
export function knownLocale(locale: string | undefined): string | undefined {
  try {
    new Intl.NumberFormat(locale);
    return locale;
  } catch {
    return undefined;
  }
}

/**
 * Reads the caller's rows into cells. A row that is not an object is skipped; a value its
 * column cannot read (text in a number column, a date no calendar has) is shown as missing.
 * Both are listed in `issues`; nothing else is changed.
 */
export function prepareTableFrame<Row>(
  data: readonly Row[] | null | undefined,
  columns: readonly (RowKey<Row> | TableColumn<Row>)[],
  options: { locale?: string | undefined; timeZone?: string | undefined } = {},
): TableFrame {
  const rows: readonly unknown[] = Array.isArray(data) ? data : [];
  const issues: DataIssue[] = [];
  const locale = knownLocale(options.locale);
  let timeZone = options.timeZone ?? "UTC";
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
  } catch {
    timeZone = "UTC";
  }
  const prepared = columnsOf(columns, rows, locale, timeZone);
  const kept: TableFrame["rows"] = [];
  rows.forEach((row, index) => {
    if (!isRecord(row)) {
      issues.push({ row: index, key: null, reason: `${describeValue(row)} is not a row object` });
      return;
    }
    const cells = prepared.map((column): TableCell => {
      const raw = row[column.key];
      if (raw === null || raw === undefined || raw === "") {
        return { value: null, text: MISSING, tone: null, toneLabel: null };
      }
      if (column.kind === "number") {
        if (typeof raw !== "number" || !Number.isFinite(raw)) {
          issues.push({
            row: index,
            key: column.key,
            reason: `${describeValue(raw)} is not a finite number; shown as missing`,
          });
          return { value: null, text: MISSING, tone: null, toneLabel: null };
        }
        const rule = column.rules.find((candidate) => meets(candidate, raw));
        return {
          value: raw,
          text: column.format(raw),
          tone: rule ? rule.tone : null,
          toneLabel: rule
            ? typeof rule.label === "string" && rule.label !== ""
              ? rule.label
              : rule.tone
            : null,
        };
      }
      if (column.kind === "date") {
        const time = toTimestamp(raw);
        const text = Number.isFinite(time) ? column.format(time) : MISSING;
        if (text === MISSING) {
          issues.push({
            row: index,
            key: column.key,
            reason: `${describeValue(raw)} is not a date; shown as missing`,
          });
          return { value: null, text, tone: null, toneLabel: null };
        }
        return { value: time, text, tone: null, toneLabel: null };
      }
      if (typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean") {
        const text = String(raw);
        return { value: text, text, tone: null, toneLabel: null };
      }
      if (raw instanceof Date) {
        const text = Number.isNaN(raw.getTime()) ? MISSING : raw.toISOString();
        return { value: text === MISSING ? null : text, text, tone: null, toneLabel: null };
      }
      issues.push({
        row: index,
        key: column.key,
        reason: `${describeValue(raw)} is not text; shown as missing`,
      });
      return { value: null, text: MISSING, tone: null, toneLabel: null };
    });
    kept.push({ index, cells });
  });
  const emptyReason =
    prepared.length === 0
      ? "No columns to show"
      : kept.length === 0
        ? rows.length === 0
          ? null
          : "No row could be read"
        : null;
  return { columns: prepared, rows: kept, issues, emptyReason };
}

/**
 * The rows in the order a sort asks for: by the column's values, missing values last in either
 * direction, ties in the data's order (the sort is stable). Text compares by the locale's
 * collation, numbers and dates by value.
 */
export function sortTableRows(
  frame: TableFrame,
  sort: TableSort | null,
  locale: string | undefined,
): TableFrame["rows"] {
  const at = sort ? frame.columns.findIndex((column) => column.key === sort.key) : -1;
  if (!sort || at < 0) return frame.rows;
  const collator = new Intl.Collator(knownLocale(locale), { numeric: true });
  const sign = sort.direction === "desc" ? -1 : 1;
  return frame.rows
    .map((row, order) => ({ row, order }))
    .sort((a, b) => {
      const x = a.row.cells[at]?.value ?? null;
      const y = b.row.cells[at]?.value ?? null;
      if (x === null || y === null) {
        return x === y ? a.order - b.order : x === null ? 1 : -1;
      }
      const by =
        typeof x === "number" && typeof y === "number"
          ? x - y
          : collator.compare(String(x), String(y));
      return by === 0 ? a.order - b.order : sign * by;
    })
    .map(({ row }) => row);
}
