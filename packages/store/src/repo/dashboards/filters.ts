// A dashboard's filter columns: which columns of its tiles' datasets a filter may use.
// Dashboards: listing and the versioned writes (details, tiles, layout, filters, publishing,
// restore, delete). What pages render from them is read in ../render/.
import {
  type DashboardFilterConfig,
  isCategoryType,
  isTimeType,
  ValidationError,
} from "@seed/model";
import type { Executor, StoreContext } from "../../context.js";
import { queryColumnsIn } from "../datasets/fields.js";

/** The columns a dashboard's filters can use: those of its tiles' datasets, by fitting type. */
export interface DashboardFilterColumns {
  /** Date and timestamp columns, for the date range. */
  dateColumns: string[];
  /** Text and true/false columns, for category filters. */
  categoryColumns: string[];
}

export async function filterColumnsIn(
  trx: Executor,
  dashboardId: string,
): Promise<DashboardFilterColumns> {
  const tiles = await trx
    .selectFrom("dashboard_tiles as t")
    .leftJoin("charts as c", "c.id", "t.chart_id")
    .select(["c.dataset_id as chart_dataset_id", "t.dataset_id as stat_dataset_id"])
    .where("t.dashboard_id", "=", dashboardId)
    .execute();
  const ids = [
    ...new Set(
      tiles.flatMap((row) => [row.chart_dataset_id, row.stat_dataset_id].filter((id) => !!id)),
    ),
  ] as string[];
  const dates = new Set<string>();
  const categories = new Set<string>();
  for (const id of ids) {
    for (const column of (await queryColumnsIn(trx, id)) ?? []) {
      if (isTimeType(column.type)) dates.add(column.name);
      if (isCategoryType(column.type)) categories.add(column.name);
    }
  }
  const sorted = (names: Set<string>) => [...names].sort((a, b) => a.localeCompare(b));
  return { dateColumns: sorted(dates), categoryColumns: sorted(categories) };
}

export async function getDashboardFilterColumns(
  ctx: StoreContext,
  id: string,
): Promise<DashboardFilterColumns> {
  return filterColumnsIn(ctx.db, id);
}

/** Each filter column must be one of the dashboard's datasets, of a fitting type. */
export async function checkFilterColumns(
  trx: Executor,
  dashboardId: string,
  filters: DashboardFilterConfig,
): Promise<void> {
  const { dateColumns, categoryColumns } = await filterColumnsIn(trx, dashboardId);
  const fieldErrors: Record<string, string[]> = {};
  if (filters.dateColumn !== null && !dateColumns.includes(filters.dateColumn)) {
    fieldErrors["filters.dateColumn"] = [
      `No dataset on this dashboard has a date column "${filters.dateColumn}".`,
    ];
  }
  for (const [index, column] of filters.categories.entries()) {
    if (!categoryColumns.includes(column)) {
      fieldErrors[`filters.categories.${index}`] = [
        `No dataset on this dashboard has a text or true/false column "${column}".`,
      ];
    }
  }
  if (Object.keys(fieldErrors).length > 0) throw new ValidationError({ fieldErrors });
}
