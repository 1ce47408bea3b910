import { z } from "zod";
import { slugWords } from "./slug.js";

// SQL questions: the rules the editor and the store share. The engine, not these rules, keeps a
// question to the datasets (the store's sql-sandbox); here are only names and bounds.

export const sqlQuestionLimits = {
  /** Characters of SQL text. */
  maxTextLength: 20_000,
  /** Rows an answer carries at most; one more row is read to say it was cut. */
  maxRows: 10_000,
  /** A run is stopped after this long. */
  timeoutMs: 30_000,
} as const;

const dayText = z.string().max(10).nullable().optional();

export const sqlQuestionInputSchema = z.object({
  parameters: z.object({ from: dayText, to: dayText }).strict().optional(),
  sql: z
    .string({ error: "Write a SQL statement." })
    .max(
      sqlQuestionLimits.maxTextLength,
      `A question is at most ${sqlQuestionLimits.maxTextLength.toLocaleString("en-US")} characters.`,
    )
    .refine((text) => text.trim() !== "", "Write one SELECT statement."),
});
export type SqlQuestionInput = z.input<typeof sqlQuestionInputSchema>;

const maxTableNameLength = 60;

/**
 * Each dataset's table name in SQL: its name as lower-case words joined by underscores
 * ("Store sales 2024" -> store_sales_2024), so it needs no quotes; a name that starts with a digit
 * or has no letters gets "t_" before it, and a repeated name "_2", "_3" in the order given.
 */
export function sqlTableNames(
  datasets: readonly { id: string; name: string }[],
): Map<string, string> {
  const used = new Set<string>();
  const names = new Map<string, string>();
  for (const dataset of datasets) {
    // A cut may end on a separator: none is left at the end, or before a suffix.
    const trim = (text: string) => text.replace(/_+$/, "");
    let base = trim(slugWords(dataset.name, maxTableNameLength).replaceAll("-", "_"));
    if (!/^[a-z]/.test(base)) base = trim(`t_${base}`.slice(0, maxTableNameLength));
    let name = base;
    for (let n = 2; used.has(name); n++) {
      const suffix = `_${n}`;
      name = `${trim(base.slice(0, maxTableNameLength - suffix.length))}${suffix}`;
    }
    used.add(name);
    names.set(dataset.id, name);
  }
  return names;
}

/**
 * The parameters a question may name, as `{{from}}` and `{{to}}` (no quotes): the first and last
 * day of a dashboard's date range, bound as dates. With no range chosen they are the widest days
 * there are, so a question over all time needs no special case.
 */
export const sqlParameterNames = ["from", "to"] as const;
export type SqlParameterName = (typeof sqlParameterNames)[number];
export type SqlParameterValues = Partial<Record<SqlParameterName, string | null>>;

const widest: Record<SqlParameterName, string> = { from: "0001-01-01", to: "9999-12-31" };
const placeholder = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** A question's text cut at its placeholders: SQL text, and the parameter each place names. */
export type SqlTemplatePart = string | { parameter: string };

export function sqlTemplateParts(text: string): SqlTemplatePart[] {
  const parts: SqlTemplatePart[] = [];
  let at = 0;
  for (const match of text.matchAll(placeholder)) {
    parts.push(text.slice(at, match.index));
    parts.push({ parameter: match[1] as string });
    at = (match.index ?? 0) + match[0].length;
  }
  parts.push(text.slice(at));
  return parts;
}

/** The parameters a question names, each once, in order of first use. */
export function sqlParametersOf(text: string): string[] {
  const names = sqlTemplateParts(text).flatMap((part) =>
    typeof part === "string" ? [] : [part.parameter],
  );
  return [...new Set(names)];
}

/** Why a question's parameters cannot be bound (an unknown name, a value that is not a day), or null. */
export function sqlParameterProblem(text: string, values: SqlParameterValues = {}): string | null {
  const unknown = sqlParametersOf(text).filter(
    (name) => !(sqlParameterNames as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    return `Unknown parameter {{${unknown[0]}}}: a question takes {{from}} and {{to}}, the first and last day of the dashboard's date range.`;
  }
  for (const name of sqlParameterNames) {
    const value = values[name];
    if (value === null || value === undefined || value === "") continue;
    const day = new Date(`${value}T00:00:00Z`);
    if (
      !dayPattern.test(value) ||
      Number.isNaN(day.getTime()) ||
      day.toISOString().slice(0, 10) !== value
    ) {
      return `{{${name}}} must be a day as yyyy-mm-dd, not "${value.slice(0, 40)}".`;
    }
  }
  return null;
}

/** Each parameter's day as bound: the value given, else the widest day. */
export function sqlParameterDays(
  values: SqlParameterValues = {},
): Record<SqlParameterName, string> {
  return {
    from: values.from || widest.from,
    to: values.to || widest.to,
  };
}
