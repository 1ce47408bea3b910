import {
  addDays,
  type ChartQuery,
  type ChartQueryInput,
  describeRange,
  formatDay,
  type QueryFilter,
  type QueryMeasure,
  queryLimits,
  type SqlParameterValues,
} from "@seed/model";
import type { DatasetTable } from "../db/dataset-table.js";
import { dialectOf } from "../db/dialect.js";
import {
  type AnyExecutor,
  aggregateStatement,
  breakdownByRankStatement,
  breakdownGroupsStatement,
  breakdownRankingStatement,
  type CompileOptions,
  Compiler,
  caseMatchesStatement,
  compilerFor,
  foldable,
  groupedStatement,
  isRaw,
  lastValuesStatement,
  maxGroupedRows,
  optionsCompiler,
  otherStatement,
  type Sql,
  topValuesStatement,
} from "./compile.js";
import { QueryError } from "./parse.js";
import { runRaw } from "./raw.js";
import {
  breakdownSeries,
  changesFromPrevious,
  changesFromYearBefore,
  compareX,
  firstGroups,
  measureSeries,
  otherLabel,
  type QueryResult,
  rankKey,
  runningTotals,
  sharesOf,
  toNumber,
  toX,
  type Value,
  xType,
} from "./result.js";

// Runs a chart query in the database and folds the rows into a QueryResult: aggregates by x,
// breakdowns into top-N series and "Other" (ranked here from the groups where the aggregate
// folds), raw series in raw.ts. The SQL comes from compile.ts.

export interface RunQueryOptions extends CompileOptions {
  /** Most points a raw series returns (min/max per bucket above it). */
  maxPoints?: number;
  /** Told how long each query took (for metrics); see OpenStoreOptions.observeQuery. */
  observe?: QueryObserver;
  /**
   * A saved SQL question's {{from}} and {{to}} (a dashboard's date range as days); datasets kept
   * here or live ignore them.
   */
  parameters?: SqlParameterValues;
}

export interface QueryTiming {
  kind: "chart" | "stat";
  seconds: number;
  ok: boolean;
  /** Answered from the result cache (no query ran); absent when the query ran. */
  cached?: true;
}

export type QueryObserver = (timing: QueryTiming) => void;

/** Runs `work`, telling the observer (if any) how long it took and whether it succeeded. */
export async function timedQuery<T>(
  kind: QueryTiming["kind"],
  observe: QueryObserver | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!observe) return work();
  const started = performance.now();
  let ok = false;
  try {
    const result = await work();
    ok = true;
    return result;
  } finally {
    observe({ kind, seconds: (performance.now() - started) / 1000, ok });
  }
}

/**
 * Runs a parsed query over a dataset table. Throws QueryError when the query no longer fits the
 * table (a column deleted or retyped), naming the column.
 */
export function runQuery(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  input: ChartQueryInput,
  options: RunQueryOptions = {},
): Promise<QueryResult> {
  return timedQuery("chart", options.observe, () =>
    withinResources(executor, () => runQueryUntimed(executor, descriptor, input, options)),
  );
}

/**
 * Runs `work`, turning an engine's refusal for lack of a bounded resource (memory) into a
 * QueryError with the reason, so only the tile that asked shows it.
 */
export async function withinResources<T>(
  executor: AnyExecutor,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const reason = dialectOf(executor).resourceFailure(error);
    if (reason !== null) throw new QueryError({ fieldErrors: { query: [reason] } });
    throw error;
  }
}

async function runQueryUntimed(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  input: ChartQueryInput,
  options: RunQueryOptions,
): Promise<QueryResult> {
  const { compiler, query } = await compilerFor(executor, descriptor, input, options);
  const xColumn = compiler.column(query.x.column);
  const x: QueryResult["x"] = { key: "x", label: xColumn.name, type: xType(query, xColumn) };
  if (isRaw(query)) return runRaw(compiler, query, x, options.maxPoints ?? queryLimits.maxPoints);
  if (query.breakdown) return runBreakdown(compiler, query, x);
  return runGrouped(compiler, query, x);
}

/** One aggregate over the rows the filters keep (a stat tile's value). */
export async function runAggregate(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  measure: QueryMeasure,
  filters: readonly QueryFilter[],
  options: RunQueryOptions = {},
): Promise<number | null> {
  const compiler = await optionsCompiler(executor, descriptor, options, [
    ...filters,
    ...(measure.where ?? []),
  ]);
  const result = await executor.executeQuery(
    aggregateStatement(compiler, measure, filters).compile(executor),
  );
  return toNumber(result.rows[0]?.v);
}

/**
 * Why an aggregate of `columnName` over the rows the filters keep has no value, in a sentence a
 * tile shows instead of a bare dash: no rows at all, none in the relative period (named, with its
 * first and last day), or rows without a value in the column.
 */
export async function whyNoValue(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  columnName: string,
  filters: readonly QueryFilter[],
  options: RunQueryOptions = {},
): Promise<string> {
  const compiler = await optionsCompiler(executor, descriptor, options, filters);
  const counted = await executor.executeQuery(
    aggregateStatement(compiler, { column: null, aggregate: "count" }, filters).compile(executor),
  );
  const rows = toNumber(counted.rows[0]?.v) ?? 0;
  const relative = filters.find((filter) => filter.op === "relative");
  let period: string | null = null;
  if (relative?.op === "relative") {
    const range = compiler.rangeOf(relative);
    if (range === null) return `"${relative.column}" holds no dates to count back from.`;
    const last = addDays(range.to, -1);
    period = `${describeRange(relative)} (${formatDay(range.from)} to ${formatDay(last)})`;
  }
  if (rows > 0) return `No values of "${columnName}" in ${period ?? "these rows"}.`;
  if (period !== null) return `No rows in ${period}.`;
  return filters.length > 0 ? "No rows match the filters." : "The dataset has no rows.";
}

/** A column's last two non-empty values in row order among the filtered rows, newest first. */
export async function runLastValues(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  columnName: string,
  filters: readonly QueryFilter[],
  options: RunQueryOptions = {},
): Promise<Array<number | null>> {
  const compiler = await optionsCompiler(executor, descriptor, options, filters);
  const statement = lastValuesStatement(compiler, compiler.column(columnName), filters);
  const result = await executor.executeQuery(statement.compile(executor));
  return result.rows.map((row) => toNumber(row.v));
}

/**
 * The most common non-empty values of a string or boolean column with their row counts, most
 * common first (ties in byte order), at most `limit`; text longer than `maxLength` is left out.
 */
export async function topColumnValues(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  columnName: string,
  limit: number,
  maxLength: number,
): Promise<Array<{ value: string; count: number }>> {
  const compiler = new Compiler(executor, descriptor, "UTC", 0);
  const column = compiler.column(columnName);
  const text = column.type === "string";
  const result = await executor.executeQuery(
    topValuesStatement(compiler, column, limit, maxLength).compile(executor),
  );
  return result.rows.map((row) => ({
    value: text ? String(row.v) : Number(row.v) === 1 || row.v === true ? "true" : "false",
    count: Number(row.n),
  }));
}

/** The values of a text column that equal `wanted` ignoring case; none for other columns. */
export async function caseMatchingValues(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  columnName: string,
  wanted: string,
  limit: number,
): Promise<string[]> {
  const compiler = new Compiler(executor, descriptor, "UTC", 0);
  const column = compiler.column(columnName);
  if (column.type !== "string") return [];
  const statement = caseMatchesStatement(compiler, column, wanted, limit);
  const result = await executor.executeQuery(statement.compile(executor));
  return result.rows.map((row) => String(row.v)).sort();
}

async function runGrouped(
  compiler: Compiler,
  query: ChartQuery,
  x: QueryResult["x"],
): Promise<QueryResult> {
  const xColumn = compiler.column(query.x.column);
  const series = measureSeries(query);
  const statement = await groupedStatement(compiler, query);
  const result = await compiler.executor.executeQuery(statement.compile(compiler.executor));
  const notes: string[] = [];
  const limit = query.limit ?? queryLimits.maxLimit;
  const rows = firstGroups(result.rows, query, limit, notes);
  const out = rows.map((row) => {
    const values: Record<string, Value> = { x: toX(xColumn.type, query.x.grain, row.x) };
    for (const entry of series) values[entry.key] = toNumber(row[entry.key]);
    return values;
  });
  if (query.other && result.rows.length > limit) {
    // The groups past the limit, measured together from their rows, after the shown ones.
    const rest = await otherStatement(compiler, query);
    const [other] = (await compiler.executor.executeQuery(rest.compile(compiler.executor))).rows;
    const taken = new Set(out.map((row) => row.x));
    const values: Record<string, Value> = { x: otherLabel(taken) };
    for (const entry of series) values[entry.key] = toNumber(other?.[entry.key]);
    out.push(values);
  }
  await showMeasures(compiler, query, out);
  return { x, series, rows: out, notes };
}

/**
 * A measure by x bucket over the same period a year before: the query's relative ranges moved
 * back a year, as a stat tile compares (other filters stay), every bucket, keyed by label.
 */
async function yearBefore(
  compiler: Compiler,
  query: ChartQuery,
  measure: QueryMeasure,
): Promise<Map<string, number | null>> {
  const { show: _shown, ...plain } = measure;
  const earlier: ChartQuery = {
    x: query.x,
    measures: [plain],
    filters: query.filters.map((filter) =>
      filter.op === "relative" ? { ...filter, yearsBack: (filter.yearsBack ?? 0) + 1 } : filter,
    ),
  };
  const statement = await groupedStatement(compiler, earlier);
  const result = await compiler.executor.executeQuery(statement.compile(compiler.executor));
  const xColumn = compiler.column(query.x.column);
  return new Map(
    result.rows.map((row) => [String(toX(xColumn.type, query.x.grain, row.x)), toNumber(row.m0)]),
  );
}

/**
 * Shares of the total (over every row the filters keep, one aggregate each, so Other and groups
 * past the limit count) and running totals (down the rows in x order), in place.
 */
async function showMeasures(
  compiler: Compiler,
  query: ChartQuery,
  rows: Array<Record<string, Value>>,
): Promise<void> {
  for (const [index, measure] of query.measures.entries()) {
    const key = `m${index}`;
    if (measure.show === "running_total") runningTotals(rows, [key]);
    if (measure.show === "change_from_previous" && query.x.grain !== undefined) {
      changesFromPrevious(rows, [key], query.x.grain);
    }
    if (measure.show === "change_from_year_before" && query.x.grain !== undefined) {
      changesFromYearBefore(rows, key, query.x.grain, await yearBefore(compiler, query, measure));
    }
    if (measure.show === "share_of_total") {
      const statement = aggregateStatement(compiler, measure, query.filters);
      const total = await compiler.executor.executeQuery(statement.compile(compiler.executor));
      sharesOf(rows, key, toNumber(total.rows[0]?.v));
    }
  }
}

async function runBreakdown(
  compiler: Compiler,
  query: ChartQuery,
  x: QueryResult["x"],
): Promise<QueryResult> {
  const breakdown = query.breakdown as NonNullable<ChartQuery["breakdown"]>;
  const measure = query.measures[0] as QueryMeasure;
  const xColumn = compiler.column(query.x.column);
  const column = compiler.column(breakdown.column);
  const key = compiler.breakdownKey(column);
  const top = breakdown.top ?? queryLimits.maxTop;
  const request: BreakdownRequest = { compiler, query, measure, key, top };
  const grouped = foldable.has(measure.aggregate)
    ? await breakdownInOneQuery(request)
    : await breakdownRankedFirst(request);
  const { tops, hasRest, result } = grouped;
  const series = breakdownSeries(tops, hasRest);
  const byX = new Map<string, Record<string, Value>>();
  for (const row of result.rows) {
    const xValue = toX(xColumn.type, query.x.grain, row.x);
    const id = xValue === null ? "\u0000null" : `${typeof xValue}:${xValue}`;
    let out = byX.get(id);
    if (!out) {
      out = { x: xValue };
      for (const entry of series) out[entry.key] = null;
      byX.set(id, out);
    }
    const index = Number(row.s);
    out[rankKey(index)] = toNumber(row.v);
  }
  const rows = [...byX.values()];
  const total = (row: Record<string, Value>) =>
    series.reduce(
      (sum, entry) => sum + (typeof row[entry.key] === "number" ? (row[entry.key] as number) : 0),
      0,
    );
  const descending = query.sort?.direction === "desc";
  rows.sort((a, b) => {
    if (query.sort?.by === "value") {
      const difference = descending ? total(b) - total(a) : total(a) - total(b);
      return difference !== 0 ? difference : compareX(a.x ?? null, b.x ?? null);
    }
    return descending ? compareX(b.x ?? null, a.x ?? null) : compareX(a.x ?? null, b.x ?? null);
  });
  const notes: string[] = [];
  const shown = firstGroups(rows, query, query.limit ?? queryLimits.maxLimit, notes);
  // Each series adds up (or changes) along x on its own (a share of the total takes no breakdown).
  const keys = series.map((entry) => entry.key);
  if (measure.show === "running_total") runningTotals(shown, keys);
  if (measure.show === "change_from_previous" && query.x.grain !== undefined) {
    changesFromPrevious(shown, keys, query.x.grain);
  }
  return { x, series, rows: shown, notes };
}

type Fold = "sum" | "count" | "min" | "max";

function fold(kind: Fold, a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  if (kind === "min") return Math.min(a, b);
  if (kind === "max") return Math.max(a, b);
  return a + b;
}

/** One breakdown to rank: the query, its one measure, the series key and how many series. */
interface BreakdownRequest {
  compiler: Compiler;
  query: ChartQuery;
  measure: QueryMeasure;
  key: Sql;
  top: number;
}

interface BreakdownGroups {
  tops: Array<string | null>;
  hasRest: boolean;
  /** Per x and series rank (-1 for the rest), the measure. */
  result: { rows: Array<{ x: unknown; s: unknown; v: unknown }> };
}

function tooManyGroups(): QueryError {
  return new QueryError({
    fieldErrors: {
      "x.grain": ["This query makes too many groups; choose a coarser grain or add a filter."],
    },
  });
}

/** Byte order of text, as SQLite compares and PostgreSQL's "C" collation. */
function compareKeys(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Sum, count, min and max: one GROUP BY x, breakdown; ranking and "Other" folded here. */
async function breakdownInOneQuery(request: BreakdownRequest): Promise<BreakdownGroups> {
  const { compiler, query, measure, key, top } = request;
  const kind = (measure.aggregate === "count" ? "count" : measure.aggregate) as Fold;
  const statement = await breakdownGroupsStatement(compiler, query, measure, key);
  const grouped = await compiler.executor.executeQuery(statement.compile(compiler.executor));
  if (grouped.rows.length > maxGroupedRows) throw tooManyGroups();
  const totals = new Map<string | null, number | null>();
  for (const row of grouped.rows) {
    const value = toNumber(row.v);
    totals.set(row.b, totals.has(row.b) ? fold(kind, totals.get(row.b) ?? null, value) : value);
  }
  const ranked = [...totals.entries()].sort(([keyA, a], [keyB, b]) => {
    if (a !== b) {
      if (a === null) return 1;
      if (b === null) return -1;
      return b - a;
    }
    return compareKeys(keyA, keyB);
  });
  const tops = ranked.slice(0, top).map(([value]) => value);
  const rankOf = new Map(tops.map((value, index) => [value, index]));
  const rows: Array<{ x: unknown; s: unknown; v: unknown }> = [];
  const rest = new Map<string, { x: unknown; v: number | null }>();
  for (const row of grouped.rows) {
    const rank = rankOf.get(row.b);
    if (rank !== undefined) {
      rows.push({ x: row.x, s: rank, v: row.v });
      continue;
    }
    const id = `${typeof row.x}:${String(row.x)}`;
    const other = rest.get(id);
    const value = toNumber(row.v);
    if (other) other.v = fold(kind, other.v, value);
    else rest.set(id, { x: row.x, v: value });
  }
  for (const other of rest.values()) rows.push({ x: other.x, s: -1, v: other.v });
  return { tops, hasRest: ranked.length > top, result: { rows } };
}

/** Averages and distinct counts: the top values first, then one GROUP BY x, rank. */
async function breakdownRankedFirst(request: BreakdownRequest): Promise<BreakdownGroups> {
  const { compiler, query, measure, key, top } = request;
  const ranking = breakdownRankingStatement(compiler, query, measure, key, top);
  const ranked = await compiler.executor.executeQuery(ranking.compile(compiler.executor));
  const tops = ranked.rows.slice(0, top).map((row) => row.b);
  const statement = await breakdownByRankStatement(compiler, query, measure, key, tops);
  const result = await compiler.executor.executeQuery(statement.compile(compiler.executor));
  if (result.rows.length > maxGroupedRows) throw tooManyGroups();
  return { tops, hasRest: ranked.rows.length > top, result };
}
