import { type AppliedDashboardFilters, crossFiltered, filteredHref } from "@seed/model";
import type { QueryResult, TileCrossFilter } from "@seed/store";

// Cross-filter: a click on a chart's value (a point, bar, slice or legend entry) leads to the
// dashboard's own filtered link, so the view is shareable, cached and works in embeds. The one
// home of which value a click stands for; the model's crossFiltered says what the filters become.

/** What a chart on a filterable page needs to turn clicks into links (all of it serialisable). */
export interface CrossFilterLink {
  /** The dashboard's own path (the filter bar's action). */
  action: string;
  /** The filters the page shows now. */
  applied: AppliedDashboardFilters;
  /** Which of the dashboard's filters the chart's values and series stand for. */
  on: TileCrossFilter;
}

/** The kit's click report, as much of it as a link needs. */
export interface ValueClick {
  rowIndex: number;
  rowIndexes?: readonly number[] | undefined;
  seriesKey?: string | undefined;
}

/** A value as a category filter reads it: text as written (results write true/false as words). */
function filterValue(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function linkTo(link: CrossFilterLink, choices: ReadonlyArray<readonly [string, string | null]>) {
  let applied: AppliedDashboardFilters | null = link.applied;
  let chosen = false;
  for (const [column, value] of choices) {
    if (value === null || applied === null) continue;
    applied = crossFiltered(applied, column, value);
    chosen = true;
  }
  return chosen && applied !== null ? filteredHref(link.action, applied) : null;
}

/**
 * Where a click on a point, bar or slice leads: its x value (and, for a bar of a series, that
 * series' value) chosen; null when it stands for no one value (Other, an empty value, one a link
 * cannot carry) or the chart filters nothing.
 */
export function valueClickHref(
  link: CrossFilterLink,
  result: Pick<QueryResult, "rows">,
  click: ValueClick,
): string | null {
  const { x, series } = link.on;
  const choices: Array<readonly [string, string | null]> = [];
  if (x && click.rowIndexes === undefined && click.rowIndex !== x.otherRow) {
    choices.push([x.column, filterValue(result.rows[click.rowIndex]?.x)]);
  }
  if (series && click.seriesKey !== undefined) {
    choices.push([series.column, series.values[click.seriesKey] ?? null]);
  }
  return linkTo(link, choices);
}

/**
 * Where pressing a legend entry leads: a series' value, or for a pie (whose entries are its
 * slices, named by their x values) that slice's value; null when the entry filters nothing.
 */
export function legendHref(
  link: CrossFilterLink,
  result: Pick<QueryResult, "rows">,
  pie: boolean,
  key: string,
): string | null {
  if (pie) {
    const x = link.on.x;
    const row = result.rows.findIndex(
      (candidate, index) => index !== x?.otherRow && filterValue(candidate.x) === key,
    );
    return x && row >= 0 ? linkTo(link, [[x.column, key]]) : null;
  }
  const series = link.on.series;
  return series ? linkTo(link, [[series.column, series.values[key] ?? null]]) : null;
}

/** Whether a click on the chart's values can filter the page (for its hint). */
export function filtersOnClick(on: TileCrossFilter | null | undefined): boolean {
  return Boolean(on && (on.x !== null || Object.keys(on.series?.values ?? {}).length > 0));
}
