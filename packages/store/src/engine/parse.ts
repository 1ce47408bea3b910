import {
  type ChartQuery,
  type ChartQueryInput,
  chartQuerySchema,
  checkQuery,
  isTimeZone,
  ValidationError,
} from "@seed/model";
import type { TableColumn } from "../db/dataset-table.js";

// The first step of a chart query: its JSON parsed and checked against the dataset's columns,
// and the viewer's time zone checked, before anything is compiled.

/** A query that does not fit its dataset: field errors keyed by query path, naming the column. */
export class QueryError extends ValidationError {
  override name = "QueryError";
}

/** Parses and checks a query against a dataset's columns; throws QueryError with field errors. */
export function parseQuery(input: ChartQueryInput, columns: readonly TableColumn[]): ChartQuery {
  const parsed = chartQuerySchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const path = issue.path.join(".") || "query";
      fieldErrors[path] = [...(fieldErrors[path] ?? []), issue.message];
    }
    throw new QueryError({ fieldErrors });
  }
  const fieldErrors = checkQuery(parsed.data, columns);
  if (Object.keys(fieldErrors).length > 0) throw new QueryError({ fieldErrors });
  return parsed.data;
}

/** The query's IANA time zone (UTC when none is given); QueryError when the runtime has no such zone. */
export function checkedTimeZone(timeZone: string | undefined): string {
  const zone = timeZone ?? "UTC";
  if (!isTimeZone(zone)) {
    throw new QueryError({ fieldErrors: { timeZone: [`Unknown time zone "${zone}".`] } });
  }
  return zone;
}
