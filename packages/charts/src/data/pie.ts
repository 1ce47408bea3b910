import { drawableValue } from "./domain";
import type { DataIssue } from "./rows";

/** One slice to draw; `rows` lists the caller's row positions it stands for (several for "Other"). */
export interface PieSlice {
  name: string;
  value: number;
  rows: number[];
  isOther: boolean;
}

export interface PieFrame {
  slices: PieSlice[];
  total: number;
  issues: DataIssue[];
  emptyReason: string | null;
}

export interface PreparePieOptions {
  index: string;
  value: string;
  /** Slices below this share of the total (0..1) are grouped into one "Other" slice. */
  otherThreshold: number;
  otherLabel: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Checks pie rows: drops rows with a missing name, a repeated name, or a value that is not a
 * finite number of at least zero, or too large to draw (values nearer to 0 than 1e-300 count as
 * 0, see `drawableValue`); then groups small slices into "Other".
 */
export function preparePieFrame(data: unknown, options: PreparePieOptions): PieFrame {
  const rows: readonly unknown[] = Array.isArray(data) ? data : [];
  const issues: DataIssue[] = [];
  const seen = new Set<string>();
  const valid: PieSlice[] = [];
  let tooLarge = 0;
  rows.forEach((row, position) => {
    if (!isRecord(row)) {
      issues.push({ row: position, key: null, reason: "row is not an object" });
      return;
    }
    const name = row[options.index];
    if (typeof name !== "string" && typeof name !== "number") {
      issues.push({ row: position, key: options.index, reason: "name is missing" });
      return;
    }
    const label = String(name);
    if (seen.has(label)) {
      issues.push({ row: position, key: options.index, reason: `repeats name "${label}"` });
      return;
    }
    const value = row[options.value];
    if (typeof value !== "number" || !Number.isFinite(value)) {
      issues.push({ row: position, key: options.value, reason: "value is not a finite number" });
      return;
    }
    if (value < 0) {
      issues.push({ row: position, key: options.value, reason: `negative value ${value}` });
      return;
    }
    // the same drawable range as the cartesian axes (data/domain.ts)
    const drawable = drawableValue(value);
    if (drawable.reason)
      issues.push({ row: position, key: options.value, reason: drawable.reason });
    if (Number.isNaN(drawable.value)) {
      tooLarge++;
      return;
    }
    seen.add(label);
    valid.push({ name: label, value: drawable.value, rows: [position], isOther: false });
  });

  const total = valid.reduce((sum, slice) => sum + slice.value, 0);
  let emptyReason: string | null = null;
  if (rows.length === 0) emptyReason = "No data";
  else if (valid.length === 0 && tooLarge > 0) emptyReason = "Values are too large to draw";
  else if (valid.length === 0) emptyReason = "No valid values to show";
  else if (total === 0) emptyReason = "All values are zero";
  // Values up to 1e300 add up past Number.MAX_VALUE only beyond 1.8e8 slices; no share of an
  // infinite total is drawable.
  else if (!Number.isFinite(total)) emptyReason = "Values are too large to add up";
  if (emptyReason) return { slices: [], total, issues, emptyReason };

  const small = valid.filter((slice) => slice.value / total < options.otherThreshold);
  if (small.length < 2) return { slices: valid, total, issues, emptyReason };
  const other: PieSlice = {
    name: options.otherLabel,
    value: small.reduce((sum, slice) => sum + slice.value, 0),
    rows: small.flatMap((slice) => slice.rows),
    isOther: true,
  };
  const large = valid.filter((slice) => slice.value / total >= options.otherThreshold);
  return { slices: [...large, other], total, issues, emptyReason };
}
