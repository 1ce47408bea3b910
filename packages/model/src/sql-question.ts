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

export const sqlQuestionInputSchema = z.object({
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
    let base = slugWords(dataset.name, maxTableNameLength).replaceAll("-", "_");
    if (!/^[a-z]/.test(base)) base = `t_${base}`.replace(/_+$/, "").slice(0, maxTableNameLength);
    let name = base;
    for (let n = 2; used.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, maxTableNameLength - suffix.length)}${suffix}`;
    }
    used.add(name);
    names.set(dataset.id, name);
  }
  return names;
}
