import type { QueryFilter } from "@seed/model";
import { sql } from "kysely";
import type { DatasetTable } from "../db/dataset-table.js";
import { type AnyExecutor, Compiler } from "./compile.js";

/**
 * The table as a reader limited to these rows reads it (src/repo/row-limits.ts rowsSeenIn): a row
 * meeting every condition of any one set; null leaves the table whole. The condition is compiled
 * like a chart's filters (bound values, checked columns) and added by visibleRowsCondition to
 * every statement over the table. A condition naming a column the dataset no longer has fails
 * the read (a QueryError) rather than showing every row.
 */
export function limitedTable(
  executor: AnyExecutor,
  table: DatasetTable,
  sets: readonly (readonly QueryFilter[])[] | null,
): DatasetTable {
  if (sets === null) return table;
  const compiler = new Compiler(executor, table, "UTC", 0);
  const each = sets.map((conditions) =>
    conditions.length === 0
      ? sql`1 = 1`
      : sql`(${sql.join(
          conditions.map((condition) => compiler.filter(condition)),
          sql` and `,
        )})`,
  );
  const limit = each.length === 0 ? sql`1 = 0` : sql`(${sql.join(each, sql` or `)})`;
  return { ...table, rowLimit: table.rowLimit ? sql`(${table.rowLimit} and ${limit})` : limit };
}
