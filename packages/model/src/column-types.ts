import { datasetLimits } from "./limits.js";
import { type CellValue, describeValue, isIsoDate, isIsoDay } from "./values.js";
import type { DatasetColumnType } from "./vocabulary.js";

// What each column type accepts and means, apart from how an engine stores it (that is the
// store's dialect objects): a new column type is a row here and a line in each dialect.

/** Time grains for date and timestamp x columns; weeks are ISO weeks starting on Monday. */
export const timeGrains = ["minute", "hour", "day", "week", "month", "quarter", "year"] as const;
export type TimeGrain = (typeof timeGrains)[number];
/** Grains that only make sense with a time of day (timestamp columns). */
export const subDayGrains: readonly TimeGrain[] = ["minute", "hour"];
const dayGrains = timeGrains.filter((grain) => !subDayGrains.includes(grain));

export interface ColumnTypeSpec {
  /** What a value of the type is, after "expected": "a number", "a date (yyyy-mm-dd)". */
  readonly expected: string;
  /** The problem code when a cell's text does not fit. */
  readonly misfitCode: "not_a_number" | "not_a_date" | "not_a_boolean" | "not_text";
  /** Dates and instants: time grains on x, relative-date filters, a time axis. */
  readonly time: boolean;
  /** The grains an x column of the type may be bucketed by (none: plotted as it is). */
  readonly grains: readonly TimeGrain[];
  /** Whether a JSON cell value (push API, rows editor) fits; null always fits. */
  cellFits(value: unknown): boolean;
  /** Whether a filter's value can be compared with a column of the type. */
  filterValueFits(value: string | number | boolean): boolean;
  /** How a filter value's problem reads after the column's name: `holds days; enter …`. */
  readonly filterHint: string;
  /** A value as the engines read it (numbers, text, yyyy-mm-dd, epoch ms, 1/0) as a cell. */
  fromRead(value: unknown): CellValue;
}

const readText = (value: unknown): CellValue => String(value);

export const columnTypeSpecs: Readonly<Record<DatasetColumnType, ColumnTypeSpec>> = {
  number: {
    expected: "a number",
    misfitCode: "not_a_number",
    time: false,
    grains: [],
    cellFits: (value) => typeof value === "number" && Number.isFinite(value),
    filterValueFits: (value) => typeof value === "number",
    filterHint: "holds numbers; enter a number.",
    fromRead: (value) => {
      const number = Number(value);
      return Number.isFinite(number) ? number : null;
    },
  },
  string: {
    expected: "text",
    misfitCode: "not_text",
    time: false,
    grains: [],
    cellFits: (value) => typeof value === "string",
    filterValueFits: (value) => typeof value === "string",
    filterHint: "holds text; enter text.",
    fromRead: readText,
  },
  boolean: {
    expected: "true or false",
    misfitCode: "not_a_boolean",
    time: false,
    grains: [],
    cellFits: (value) => value === "true" || value === "false",
    filterValueFits: (value) => typeof value === "boolean",
    filterHint: "holds true or false.",
    fromRead: (value) =>
      value === true || value === 1 || value === "1" || value === "true" ? "true" : "false",
  },
  date: {
    expected: "a date (yyyy-mm-dd)",
    misfitCode: "not_a_date",
    time: true,
    grains: dayGrains,
    cellFits: (value) => typeof value === "string" && isIsoDay(value),
    filterValueFits: (value) => typeof value === "string" && isIsoDay(value),
    filterHint: "holds days; enter a date as yyyy-mm-dd.",
    fromRead: readText,
  },
  timestamp: {
    expected: "a date and time (ISO 8601)",
    misfitCode: "not_a_date",
    time: true,
    grains: timeGrains,
    cellFits: (value) => typeof value === "string" && isIsoDate(value),
    filterValueFits: (value) => typeof value === "string" && !Number.isNaN(Date.parse(value)),
    filterHint: "holds dates and times; enter an ISO 8601 date.",
    fromRead: (value) => {
      const ms = Number(value);
      // Outside JavaScript's date range there is no instant to show.
      return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
    },
  },
};

/** Dates and instants (time grains, relative-date filters, a time axis). */
export function isTimeType(type: DatasetColumnType | undefined): boolean {
  return type !== undefined && columnTypeSpecs[type].time;
}

/** Why a JSON cell does not fit its column, or null when it does (null always fits). */
export function cellProblem(type: DatasetColumnType, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (!columnTypeSpecs[type].cellFits(value)) {
    return `expected ${columnTypeSpecs[type].expected}, got ${describeValue(value)}.`;
  }
  if (typeof value === "string" && value.length > datasetLimits.maxCellLength) {
    return `text is longer than ${datasetLimits.maxCellLength.toLocaleString("en-US")} characters.`;
  }
  return null;
}

/**
 * Whether a column of this type holds categories: text and true/false do (a category filter
 * narrows it, a hierarchy drills through it).
 */
export function isCategoryType(type: DatasetColumnType | undefined): boolean {
  return type === "string" || type === "boolean";
}
