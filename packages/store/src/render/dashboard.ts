// Read-only: a dashboard rendered for a page (published, a preview, a signed embed) with its
// filter bar, in one consistent read-only transaction.

import {
  type AppliedDashboardFilters,
  type CategoryPath,
  type ChartQuery,
  categoryDrilledQuery,
  categoryPathToken,
  type DatasetColumnType,
  type DrillPeriod,
  dashboardFilterLimits,
  dashboardFilterQueries,
  dashboardRangeDays,
  drillableGrain,
  drilledQuery,
  drillTrail,
  emptyValueLabel,
  filterParamName,
  hierarchyBelow,
  hierarchyErrors,
  isCategoryType,
  NotFoundError,
  nextDrillGrain,
  noAppliedFilters,
  parseCategoryPath,
  parseDashboardFilterQuery,
  parseDrillToken,
  shortFilterValue,
  thresholdStatus,
} from "@seed/model";
import type { StoreContext } from "../context.js";
import type { DatasetTable } from "../db/dataset-table.js";
import { caseMatchingValues, topColumnValues } from "../engine/execute.js";
import type { QueryResult } from "../engine/result.js";
import { tileError } from "../engine/tile-error.js";
import { withChartEvents } from "../repo/chart-events.js";
import { type Chart, toChart } from "../repo/charts.js";
import { readable, type SeenBy } from "../repo/collections.js";
import { listTilesIn, toDashboard } from "../repo/dashboards/records.js";
import type {
  CategoryDrill,
  DashboardCategoryFilter,
  RenderedDashboard,
  RenderedTile,
  TileCrossFilter,
  TileDrill,
} from "../repo/dashboards/types.js";
import { getDatasetSummaryIn } from "../repo/datasets/datasets.js";
import { type DatasetTarget, resolveDatasetTarget } from "../repo/sources/target.js";

export interface RenderDashboardOptions extends SeenBy {
  /** Drafts too; with `seenBy`, only a draft that account sees (a published one is everyone's). */
  includeDrafts?: boolean;
  filters?: AppliedDashboardFilters;
  /** A link's filter query (e.g. "range=last-30-days&region=North"), parsed here. */
  filterQuery?: string;
  /**
   * Only these tiles are rendered and only their datasets read (the editor drawing a tile it just
   * added); the filter bar's values then come from those datasets alone.
   */
  tileIds?: readonly string[];
}

export async function getDashboardBySlug(
  ctx: StoreContext,
  slug: string,
  options: RenderDashboardOptions = {},
): Promise<RenderedDashboard | null> {
  return renderDashboardWhere(ctx, "slug", slug, options);
}

/** The dashboard with this id, rendered (a signed embed link names its dashboard by id). */
export async function getRenderedDashboard(
  ctx: StoreContext,
  id: string,
  options: RenderDashboardOptions = {},
): Promise<RenderedDashboard | null> {
  return renderDashboardWhere(ctx, "id", id, options);
}

async function renderDashboardWhere(
  ctx: StoreContext,
  column: "slug" | "id",
  value: string,
  options: RenderDashboardOptions,
): Promise<RenderedDashboard | null> {
  return ctx.db
    .transaction()
    .setAccessMode("read only")
    .execute(async (trx) => {
      let query = trx.selectFrom("dashboards").selectAll().where(column, "=", value);
      if (!options.includeDrafts) query = query.where("status", "=", "published");
      const row = await query.executeTakeFirst();
      if (!row) return null;
      if (row.status !== "published" && !(await readable(trx, options, "dashboard", row.id))) {
        return null;
      }
      // A published dashboard is everyone's, whole; a draft is read as its reader may.
      const reader = row.status === "published" ? {} : options;
      const listed = await listTilesIn(trx, row.id);
      const only = options.tileIds === undefined ? null : new Set(options.tileIds);
      const tiles = only ? listed.filter((tile) => only.has(tile.id)) : listed;
      const chartIds = tiles.flatMap((tile) => (tile.kind === "chart" ? [tile.chartId] : []));
      const charts =
        chartIds.length > 0
          ? (await trx.selectFrom("charts").selectAll().where("id", "in", chartIds).execute()).map(
              toChart,
            )
          : [];
      const chartById = new Map(charts.map((chart) => [chart.id, chart]));
      const dashboard = toDashboard(row);
      const queryOptions = {
        timeZone: dashboard.timeZone ?? "UTC",
        now: ctx.now(),
        observe: ctx.observeQuery,
      };
      // Each dataset resolved once; a failure is the same failure for every tile that reads it.
      const resolving = new Map<string, Promise<DatasetTarget | null>>();
      const tables = new Map<string, DatasetTarget | null>();
      const tableOf = (datasetId: string) => {
        let target = resolving.get(datasetId);
        if (!target) {
          target = resolveDatasetTarget(ctx, trx, datasetId, reader).then((found) => {
            tables.set(datasetId, found);
            return found;
          });
          target.catch(() => {}); // Awaited by the tiles, which show the error.
          resolving.set(datasetId, target);
        }
        return target;
      };
      for (const tile of tiles) {
        if (tile.kind === "text") continue;
        const datasetId =
          tile.kind === "chart" ? chartById.get(tile.chartId)?.datasetId : tile.datasetId;
        if (datasetId !== undefined) await tableOf(datasetId).catch(() => null);
      }
      const targets = [...tables.values()].filter(
        (target): target is DatasetTarget => target !== null,
      );
      const categories: DashboardCategoryFilter[] = [];
      for (const column of dashboard.filters.categories) {
        categories.push({
          column,
          param: filterParamName(column),
          values: await categoryValues(targets, column),
        });
      }
      const asked =
        options.filterQuery === undefined
          ? { applied: options.filters ?? noAppliedFilters, problems: [] }
          : parseDashboardFilterQuery(options.filterQuery, dashboard.filters);
      const matched = await matchCategoryValues(targets, categories, asked.applied);
      // Drills name a chart of this dashboard with a time axis and a period below its grain;
      // any other is reported and left out of the page's links.
      const xTypeOf = (chartId: string) => {
        const chart = chartById.get(chartId);
        const table = chart ? tables.get(chart.datasetId)?.table : undefined;
        return table?.columns.find((column) => column.name === chart?.query.x.column)?.type;
      };
      // A chart of a category drills through its dataset's hierarchy that has its x above the
      // last level (read once per dataset).
      const hierarchies = new Map<string, Promise<string[][]>>();
      const levelsOf = async (chart: Chart): Promise<readonly string[] | null> => {
        if (chart.query.x.grain !== undefined || !isCategoryType(xTypeOf(chart.id))) return null;
        let read = hierarchies.get(chart.datasetId);
        if (!read) {
          read = getDatasetSummaryIn(trx, chart.datasetId).then(
            (found) => found?.hierarchies ?? [],
          );
          hierarchies.set(chart.datasetId, read);
        }
        const levels = hierarchyBelow(await read, chart.query.x.column);
        // a live table may have lost a level's column since: no drill rather than a broken one
        const columns = tables.get(chart.datasetId)?.table.columns ?? [];
        const fits = levels && Object.keys(hierarchyErrors(columns, [levels])).length === 0;
        return fits ? levels : null;
      };
      const drills = new Map<string, Drilled>();
      const drillProblems: string[] = [];
      for (const [tileId, token] of Object.entries(matched.applied.drill ?? {})) {
        const tile = tiles.find((candidate) => candidate.id === tileId);
        const chart = tile?.kind === "chart" ? chartById.get(tile.chartId) : undefined;
        const period = parseDrillToken(token);
        const path = period ? null : parseCategoryPath(token);
        const levels = chart && path ? await levelsOf(chart) : null;
        // each value as the data writes it, in any letter case the link wrote it
        const matched =
          chart && path && levels
            ? await matchPath(await tableOf(chart.datasetId).catch(() => null), levels, path)
            : null;
        if (matched && "problem" in matched) {
          drillProblems.push(
            `${matched.problem} "${shortFilterValue(chart?.title ?? "")}" shows its own level.`,
          );
          continue;
        }
        const query =
          chart && period
            ? drilledQuery(chart.query, xTypeOf(chart.id), period, queryOptions.timeZone)
            : chart && matched && levels
              ? categoryDrilledQuery(chart.query, levels, matched.path)
              : null;
        if (query && (period || matched)) {
          drills.set(
            tileId,
            matched
              ? { token: categoryPathToken(matched.path), query, path: matched.path }
              : { token, query, ...(period ? { period } : {}) },
          );
        } else {
          drillProblems.push(
            chart
              ? `"${shortFilterValue(chart.title)}" cannot be drilled into ${shortFilterValue(token)}; it shows ${path ? "its own level" : "all of its periods"}.`
              : "A chart the link drills into is not on this dashboard; it was ignored.",
          );
        }
      }
      const { drill: _asked, ...undrilled } = matched.applied;
      const applied =
        drills.size > 0
          ? {
              ...undrilled,
              drill: Object.fromEntries([...drills].map(([id, { token }]) => [id, token])),
            }
          : undrilled;
      // A saved question takes the date range as its {{from}} and {{to}} days.
      const tileOptions = {
        ...queryOptions,
        parameters: dashboardRangeDays(
          applied.range,
          queryOptions.timeZone,
          queryOptions.now.getTime(),
        ),
      };
      const filtersFor = (table: DatasetTable | null) =>
        dashboardFilterQueries(
          dashboard.filters,
          applied,
          table?.columns ?? [],
          queryOptions.timeZone,
        );
      const rendered: RenderedTile[] = [];
      for (const tile of tiles) {
        if (tile.kind === "chart") {
          const chart = chartById.get(tile.chartId);
          // Foreign keys keep charts present; the guard only satisfies the type checker.
          if (!chart) continue;
          const base = {
            kind: "chart" as const,
            id: tile.id,
            position: tile.position,
            layout: tile.layout,
            chart,
          };
          // Until the dataset is found, every applied filter counts as not reaching the tile.
          let notFilteredBy = filtersFor(null).notFilteredBy;
          try {
            const target = await tableOf(chart.datasetId);
            if (!target) throw new NotFoundError("dataset", chart.datasetId);
            const scoped = filtersFor(target.table);
            notFilteredBy = scoped.notFilteredBy;
            const xType = xTypeOf(chart.id);
            const drilled = drills.get(tile.id);
            const shown = drilled?.query ?? chart.query;
            const query = { ...shown, filters: [...shown.filters, ...scoped.filters] };
            const result = await withChartEvents(
              ctx,
              trx,
              { query: shown, options: chart.options },
              await target.query(query, tileOptions),
              reader,
              queryOptions,
            );
            const crossFilter = crossFilterOf(
              shown,
              target.table,
              dashboard.filters.categories,
              result,
            );
            const levels = await levelsOf(chart);
            const drill = levels
              ? categoryDrillOf(levels, drilled?.path ?? [], otherRowOf(shown, result))
              : drillOf(chart.query, xType, drilled?.period);
            rendered.push({ ...base, result, error: null, notFilteredBy, crossFilter, drill });
          } catch (error) {
            rendered.push({
              ...base,
              result: null,
              error: tileError(error),
              notFilteredBy,
              crossFilter: null,
              drill: null,
            });
          }
          continue;
        }
        if (tile.kind === "text") {
          rendered.push(tile);
          continue;
        }
        const datasetName = (await getDatasetSummaryIn(trx, tile.datasetId))?.name ?? "";
        let notFilteredBy = filtersFor(null).notFilteredBy;
        try {
          const target = await tableOf(tile.datasetId);
          if (!target) throw new NotFoundError("dataset", tile.datasetId);
          const scoped = filtersFor(target.table);
          notFilteredBy = scoped.notFilteredBy;
          const filters = [...tile.filters, ...scoped.filters];
          // The previous value is for alerts; the page shows only the change.
          const { previous: _previous, ...stat } = await target.stat(
            { ...tile, filters },
            tileOptions,
          );
          const status = thresholdStatus(stat.value, tile.thresholds);
          rendered.push({ ...tile, datasetName, ...stat, status, error: null, notFilteredBy });
        } catch (error) {
          rendered.push({
            ...tile,
            datasetName,
            value: null,
            status: null,
            delta: null,
            deltaLabel: null,
            empty: null,
            error: tileError(error),
            notFilteredBy,
          });
        }
      }
      const filterBar = {
        dateColumn: dashboard.filters.dateColumn,
        categories,
        asked: asked.applied,
        applied,
        problems: [...asked.problems, ...matched.problems, ...drillProblems],
      };
      return {
        dashboard,
        tiles: rendered,
        filterBar,
        liveCacheSeconds: liveCacheSecondsOf(tables.values()),
      };
    });
}

/**
 * The values of a text or true/false column equal to `value` in any letter case (true/false in
 * lower case); none for a column of another type. Throws when the source cannot be read.
 */
async function valuesInAnyCase(
  target: DatasetTarget,
  column: string,
  value: string,
  limit: number,
): Promise<string[]> {
  const type = target.table.columns.find((candidate) => candidate.name === column)?.type;
  if (type === "boolean") return /^(true|false)$/i.test(value) ? [value.toLowerCase()] : [];
  if (type !== "string") return [];
  return target.run((executor, table) => caseMatchingValues(executor, table, column, value, limit));
}

/**
 * A category path as the data writes it: each value the one a level's column holds in any letter
 * case (the first in order when several do; true/false in lower case), or the problem naming a
 * value none holds. A source that cannot be read keeps the values as asked (its tiles say why).
 */
async function matchPath(
  target: DatasetTarget | null,
  levels: readonly string[],
  path: CategoryPath,
): Promise<{ path: CategoryPath } | { problem: string }> {
  if (!target) return { path };
  const matched: Array<string | null> = [];
  for (const [level, value] of path.entries()) {
    const column = levels[level] as string;
    if (value === null) {
      matched.push(null);
      continue;
    }
    let found: string[];
    try {
      found = await valuesInAnyCase(
        target,
        column,
        value,
        dashboardFilterLimits.maxValuesPerFilter,
      );
    } catch {
      found = [value];
    }
    const match = found.includes(value) ? value : found[0];
    if (match === undefined) {
      return { problem: `No ${column} is "${shortFilterValue(value)}" (in any letter case);` };
    }
    matched.push(match);
  }
  return { path: matched };
}

/** A drilled chart: the query it runs and its period or category path, as the URL names it. */
interface Drilled {
  token: string;
  query: ChartQuery;
  period?: DrillPeriod;
  path?: CategoryPath;
}

/** A category chart's drill-down through `levels` (its x column first), down `path`. */
function categoryDrillOf(
  levels: readonly string[],
  path: CategoryPath,
  otherRow: number | null,
): CategoryDrill {
  return {
    kind: "category",
    levels: [...levels],
    trail: [...path],
    shown: levels[path.length] ?? levels[0] ?? "",
    next: levels[path.length + 1] ?? null,
    otherRow,
  };
}

/** The row past a query's limit that measures the rest together ("Other"), or null. */
function otherRowOf(query: ChartQuery, result: QueryResult): number | null {
  return query.other && query.limit !== undefined && result.rows.length > query.limit
    ? query.limit
    : null;
}

/** A chart's drill-down: null unless its x is a date or timestamp at years, quarters, months or weeks. */
function drillOf(
  query: ChartQuery,
  xType: DatasetColumnType | undefined,
  period: DrillPeriod | undefined,
): TileDrill | null {
  const base = query.x.grain;
  if (!drillableGrain(xType, base)) return null;
  const trail = period ? (drillTrail(base, period) ?? []) : [];
  const last = trail.at(-1);
  const shown = last ? (nextDrillGrain(last.grain) ?? "day") : base;
  return { kind: "time", base, trail, shown, drillsInto: shown === "day" ? null : shown };
}

/**
 * What a click on a chart filters its dashboard by: the category filters that are its x column
 * (plain values, not periods) or its breakdown, where the dataset holds text or true/false there
 * (the types a category filter narrows). Series that stand for no one value (Other, empty) and
 * the x row measuring the rest together are left out.
 */
export function crossFilterOf(
  query: ChartQuery,
  table: DatasetTable,
  categories: readonly string[],
  result: QueryResult,
): TileCrossFilter | null {
  const filterable = (column: string) =>
    categories.includes(column) &&
    table.columns.some((candidate) => candidate.name === column && isCategoryType(candidate.type));
  const x =
    query.x.grain === undefined && filterable(query.x.column)
      ? {
          column: query.x.column,
          otherRow: otherRowOf(query, result),
        }
      : null;
  const breakdown = query.breakdown?.column;
  const series =
    breakdown !== undefined && filterable(breakdown)
      ? {
          column: breakdown,
          values: Object.fromEntries(
            result.series
              .filter((entry) => /^s\d+$/.test(entry.key) && entry.label !== emptyValueLabel)
              .map((entry) => [entry.key, entry.label]),
          ),
        }
      : null;
  return x === null && series === null ? null : { x, series };
}

/** The shortest cache time-to-live of the live sources a page reads; null when it reads none. */
export function liveCacheSecondsOf(targets: Iterable<DatasetTarget | null>): number | null {
  const ttls = [...targets].flatMap((target) =>
    target?.cacheTtlSeconds === null || target === null ? [] : [target.cacheTtlSeconds],
  );
  return ttls.length > 0 ? Math.min(...ttls) : null;
}

/**
 * A category filter's offer: the most common values of the column over every dataset of the
 * dashboard where it holds text or true/false, counted together (bounded, long text left out).
 */
export async function categoryValues(
  targets: readonly DatasetTarget[],
  column: string,
): Promise<string[]> {
  const { maxOptions, maxValueLength } = dashboardFilterLimits;
  const counts = new Map<string, number>();
  for (const target of targets) {
    const type = target.table.columns.find((candidate) => candidate.name === column)?.type;
    if (!isCategoryType(type)) continue;
    let values: Array<{ value: string; count: number }>;
    try {
      values = await target.run((executor, table) =>
        topColumnValues(executor, table, column, maxOptions, maxValueLength),
      );
    } catch {
      // A live source that fails here already shows its reason on its tiles; the bar goes on.
      continue;
    }
    for (const { value, count } of values) counts.set(value, (counts.get(value) ?? 0) + count);
  }
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, maxOptions)
    .map(([value]) => value);
}

/**
 * The chosen category values as the data writes them: a value the filter offers stays; another
 * matches every value of the column equal to it without regard to case, in any dataset of the
 * dashboard ("rain" finds "Rain"); one that matches nothing is left out and named, so a link
 * never empties the tiles without saying why.
 */
export async function matchCategoryValues(
  targets: readonly DatasetTarget[],
  categories: readonly DashboardCategoryFilter[],
  asked: AppliedDashboardFilters,
): Promise<{ applied: AppliedDashboardFilters; problems: string[] }> {
  const { maxValuesPerFilter } = dashboardFilterLimits;
  const problems: string[] = [];
  const chosen: Record<string, string[]> = {};
  for (const [column, values] of Object.entries(asked.categories)) {
    const offered = new Set(categories.find((entry) => entry.column === column)?.values ?? []);
    const kept = new Set<string>();
    for (const value of values) {
      if (offered.has(value)) {
        kept.add(value);
        continue;
      }
      const found = new Set<string>();
      let unread = false;
      for (const target of targets) {
        try {
          const matches = await valuesInAnyCase(target, column, value, maxValuesPerFilter);
          for (const match of matches) found.add(match);
        } catch {
          // A live source that fails says so on its tiles; the value is kept for it as asked.
          unread = true;
        }
      }
      if (unread) found.add(value);
      if (found.size === 0) {
        problems.push(
          `No ${column} is "${shortFilterValue(value)}" (in any letter case); it was ignored.`,
        );
      }
      for (const match of found) kept.add(match);
    }
    if (kept.size > 0) chosen[column] = [...kept].slice(0, maxValuesPerFilter);
  }
  return { applied: { ...asked, categories: chosen }, problems };
}

export const dashboardRenderOperations = { getDashboardBySlug, getRenderedDashboard };
