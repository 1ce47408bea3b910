import {
  type ChartQuery,
  type ChartQueryInput,
  chartQuerySchema,
  checkQuery,
  formatDay,
  isTimeZone,
  localMidnight,
  offsetSpans,
  type QueryFilter,
  type QueryMeasure,
  queryLimits,
  relativeDays,
  subDayGrains,
  type TimeGrain,
  ValidationError,
} from "@seed/model";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { type Dialect, dialectOf } from "../db/dialect.js";
import {
  type DatasetColumn,
  type DatasetColumnType,
  type DatasetTable,
  isRemoteIdentifier,
  isSafeIdentifier,
  rowKeyColumn,
} from "../repo/datasets/table.js";

// Compiles a chart query to SQL with Kysely and runs it in the database, on SQLite and PostgreSQL
// alike: the same query gives the same result on both (test/query-cases.test.ts). Identifiers
// come only from the dataset's table descriptor; every user value is a bound parameter.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;
type Sql = RawBuilder<unknown>;
type Value = string | number | null;

export interface QueryResultColumn {
  key: string;
  label: string;
}

/** What a chart draws: one row per x value, one number per series; nothing else of the dataset. */
export interface QueryResult {
  x: QueryResultColumn & { type: DatasetColumnType };
  series: QueryResultColumn[];
  rows: Array<Record<string, Value>>;
  /** Sentences for the viewer, e.g. that a series was downsampled. */
  notes: string[];
  /** Raw series only: rows that share an x value with an earlier row. */
  duplicateX?: number;
}

export interface RunQueryOptions {
  /** IANA zone for day and coarser buckets and relative ranges; default UTC. */
  timeZone?: string;
  /** The instant relative ranges count from; default now. */
  now?: Date;
  /** Most points a raw series returns (min/max per bucket above it). */
  maxPoints?: number;
  /** Told how long each query took (for metrics); see OpenStoreOptions.observeQuery. */
  observe?: QueryObserver;
}

export interface QueryTiming {
  kind: "chart" | "stat";
  seconds: number;
  ok: boolean;
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

/** A query that does not fit its dataset: field errors keyed by query path, naming the column. */
export class QueryError extends ValidationError {
  override name = "QueryError";
}

// Groups a query may produce before it is refused (breakdowns are pivoted in memory).
const maxGroupedRows = 200_000;

function checked(identifier: string): string {
  if (!isSafeIdentifier(identifier)) throw new Error(`Unsafe identifier ${identifier}`);
  return identifier;
}

/** A column or table name as checked for its kind of table: ours are made safe, remote ones are quoted. */
export function identifierOf(descriptor: DatasetTable, identifier: string): string {
  if (!descriptor.remote) return checked(identifier);
  if (!isRemoteIdentifier(identifier)) throw new Error("Unsafe remote identifier");
  return identifier;
}

/** The table a query reads: a dataset's own, or a live source's schema-qualified table or view. */
export function tableRefOf(descriptor: DatasetTable): Sql {
  return descriptor.remote
    ? sql.id(
        identifierOf(descriptor, descriptor.remote.schema),
        identifierOf(descriptor, descriptor.table),
      )
    : sql.table(checked(descriptor.table));
}

/** Parses and checks a query against a dataset's columns; throws QueryError with field errors. */
export function parseQuery(input: ChartQueryInput, columns: readonly DatasetColumn[]): ChartQuery {
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

class Compiler {
  readonly dialect: Dialect;
  readonly columns: Map<string, DatasetColumn>;
  readonly table: Sql;

  constructor(
    readonly executor: AnyExecutor,
    readonly descriptor: DatasetTable,
    readonly timeZone: string,
    readonly now: number,
  ) {
    this.dialect = dialectOf(executor);
    this.columns = new Map(descriptor.columns.map((column) => [column.name, column]));
    this.table = tableRefOf(descriptor);
  }

  column(name: string): DatasetColumn {
    const column = this.columns.get(name);
    if (!column) throw new QueryError({ fieldErrors: { query: [`No column "${name}".`] } });
    return column;
  }

  ref(column: DatasetColumn): Sql {
    return sql.id(identifierOf(this.descriptor, column.id));
  }

  /** A text expression sorts the same on both engines (byte order, like SQLite's BINARY). */
  textOrder(expression: Sql): Sql {
    return this.dialect.textOrder(expression);
  }

  /** A user value as the column stores it, as a bound parameter. */
  param(column: DatasetColumn, value: string | number | boolean): Sql {
    return this.dialect.param(column.type, value);
  }

  filter(filter: QueryFilter): Sql {
    const column = this.column(filter.column);
    const ref = this.ref(column);
    const text = column.type === "string";
    const compare = (op: string, value: string | number | boolean) =>
      sql`${text ? this.textOrder(ref) : ref} ${sql.raw(op)} ${this.param(column, value)}`;
    switch (filter.op) {
      case "eq":
        return sql`${ref} = ${this.param(column, filter.value)}`;
      case "neq":
        // Empty cells are "not equal" to any value.
        return sql`(${ref} <> ${this.param(column, filter.value)} or ${ref} is null)`;
      case "lt":
        return compare("<", filter.value);
      case "lte":
        return compare("<=", filter.value);
      case "gt":
        return compare(">", filter.value);
      case "gte":
        return compare(">=", filter.value);
      case "between":
        return sql`(${compare(">=", filter.from)} and ${compare("<=", filter.to)})`;
      case "in":
        return sql`${ref} in (${sql.join(filter.values.map((value) => this.param(column, value)))})`;
      case "empty":
        return sql`${ref} is null`;
      case "not_empty":
        return sql`${ref} is not null`;
      case "relative": {
        const { from, to } = relativeDays(filter, this.timeZone, this.now);
        if (column.type === "date") {
          return sql`(${ref} >= ${this.param(column, formatDay(from))} and ${ref} < ${this.param(column, formatDay(to))})`;
        }
        const start = new Date(localMidnight(this.timeZone, from)).toISOString();
        const end = new Date(localMidnight(this.timeZone, to)).toISOString();
        return sql`(${ref} >= ${this.param(column, start)} and ${ref} < ${this.param(column, end)})`;
      }
    }
  }

  where(filters: readonly QueryFilter[], extra: Sql[] = []): Sql {
    const parts = [...filters.map((filter) => this.filter(filter)), ...extra];
    return parts.length === 0 ? sql`` : sql`where ${sql.join(parts, sql` and `)}`;
  }

  /** SQLite: a timestamp's local wall-clock ms in the zone, from the zone's offset spans. */
  async localMs(column: DatasetColumn, filters: readonly QueryFilter[]): Promise<Sql> {
    const ref = this.ref(column);
    if (this.timeZone === "UTC") return ref;
    const range = await sql<{
      lo: number | null;
      hi: number | null;
    }>`select min(${ref}) as lo, max(${ref}) as hi from ${this.table} ${this.where(filters)}`.execute(
      this.executor,
    );
    const lo = Number(range.rows[0]?.lo ?? 0);
    const hi = Number(range.rows[0]?.hi ?? 0);
    const spans = offsetSpans(this.timeZone, lo, hi);
    if (spans.length === 1) return sql`(${ref} + ${sql.lit(spans[0]?.offset ?? 0)})`;
    const cases = spans
      .slice(1)
      .map(
        (span, index) =>
          sql`when ${ref} < ${sql.lit(span.from)} then ${sql.lit(spans[index]?.offset ?? 0)}`,
      );
    return sql`(${ref} + case ${sql.join(cases, sql` `)} else ${sql.lit(spans.at(-1)?.offset ?? 0)} end)`;
  }

  /** The x expression: a bucket label for a grain, else the column as it reads back. */
  async x(query: ChartQuery): Promise<Sql> {
    const column = this.column(query.x.column);
    const grain = query.x.grain;
    if (grain === undefined) return this.read(column);
    return this.dialect.timeBucket({
      ref: this.ref(column),
      type: column.type,
      grain,
      timeZone: this.timeZone,
      localMs: () => this.localMs(column, query.filters),
    });
  }

  /** A column as results carry it: numbers, text, yyyy-mm-dd, epoch ms (converted later). */
  read(column: DatasetColumn): Sql {
    return this.dialect.read(this.ref(column), column.type);
  }

  /** x as a number for binning raw series: the value, epoch ms, or the day's epoch ms. */
  numericX(column: DatasetColumn): Sql | null {
    return this.dialect.numericX(this.ref(column), column.type);
  }

  aggregate(measure: QueryMeasure): Sql {
    if (measure.column === null) return sql`count(*)`;
    const ref = this.ref(this.column(measure.column));
    switch (measure.aggregate) {
      case "sum":
        return sql`sum(${ref})`;
      case "avg":
        return sql`avg(${ref})`;
      case "min":
        return sql`min(${ref})`;
      case "max":
        return sql`max(${ref})`;
      case "count":
        return sql`count(${ref})`;
      case "count_distinct":
        return sql`count(distinct ${ref})`;
      case "none":
        return ref;
    }
  }

  /** The breakdown as text or null (booleans as "true"/"false"), the key of its series. */
  breakdownKey(column: DatasetColumn): Sql {
    const ref = this.ref(column);
    if (column.type === "boolean") return this.dialect.booleanText(ref);
    return ref;
  }
}

function toNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** An x value as results carry it, the same from both engines. */
function toX(type: DatasetColumnType, grain: TimeGrain | undefined, value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (grain !== undefined) return String(value);
  switch (type) {
    case "number":
      return toNumber(value);
    case "timestamp": {
      const ms = Number(value);
      return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
    }
    case "boolean":
      return value === 1 || value === true || value === "1" ? "true" : "false";
    default:
      return String(value);
  }
}

function compareX(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : 1;
}

function measureLabel(measure: QueryMeasure): string {
  if (measure.label) return measure.label;
  if (measure.column === null) return "Count";
  const names: Record<QueryMeasure["aggregate"], string> = {
    sum: "Sum of",
    avg: "Average",
    min: "Min of",
    max: "Max of",
    count: "Count of",
    count_distinct: "Distinct",
    none: "",
  };
  return measure.aggregate === "none"
    ? measure.column
    : `${names[measure.aggregate]} ${measure.column}`;
}

function xType(query: ChartQuery, column: DatasetColumn): DatasetColumnType {
  if (query.x.grain === undefined) return column.type;
  return subDayGrains.includes(query.x.grain) ? "timestamp" : "date";
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
    runQueryUntimed(executor, descriptor, input, options),
  );
}

async function runQueryUntimed(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  input: ChartQueryInput,
  options: RunQueryOptions,
): Promise<QueryResult> {
  const query = parseQuery(input, descriptor.columns);
  const timeZone = options.timeZone ?? "UTC";
  if (!isTimeZone(timeZone)) {
    throw new QueryError({ fieldErrors: { timeZone: [`Unknown time zone "${timeZone}".`] } });
  }
  const compiler = new Compiler(
    executor,
    descriptor,
    timeZone,
    (options.now ?? new Date()).getTime(),
  );
  const xColumn = compiler.column(query.x.column);
  const x: QueryResult["x"] = { key: "x", label: xColumn.name, type: xType(query, xColumn) };
  const raw = query.measures.every((measure) => measure.aggregate === "none");
  if (raw) return runRaw(compiler, query, x, options.maxPoints ?? queryLimits.maxPoints);
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
  const timeZone = options.timeZone ?? "UTC";
  const compiler = new Compiler(
    executor,
    descriptor,
    timeZone,
    (options.now ?? new Date()).getTime(),
  );
  const result = await sql<{
    v: unknown;
  }>`select ${compiler.aggregate(measure)} as v from ${compiler.table} ${compiler.where(filters)}`.execute(
    executor,
  );
  return toNumber(result.rows[0]?.v);
}

async function runGrouped(
  compiler: Compiler,
  query: ChartQuery,
  x: QueryResult["x"],
): Promise<QueryResult> {
  const xColumn = compiler.column(query.x.column);
  const series = query.measures.map((measure, index) => ({
    key: `m${index}`,
    label: measureLabel(measure),
  }));
  const selects = query.measures.map(
    (measure, index) => sql`${compiler.aggregate(measure)} as ${sql.id(`m${index}`)}`,
  );
  const limit = query.limit ?? queryLimits.maxLimit;
  const textX = x.type === "string" || x.type === "date" || query.x.grain !== undefined;
  const xOrder = textX ? compiler.textOrder(sql.ref("x")) : sql.ref("x");
  const direction = sql.raw(query.sort?.direction === "desc" ? "desc" : "asc");
  const order =
    query.sort?.by === "value"
      ? sql`${sql.ref("m0")} ${direction} nulls last, ${xOrder} asc nulls last`
      : sql`${xOrder} ${direction} nulls last`;
  const result = await sql<
    Record<string, unknown>
  >`select * from (select ${await compiler.x(query)} as x, ${sql.join(selects)} from ${compiler.table} ${compiler.where(query.filters)} group by 1) as grouped order by ${order} limit ${sql.lit(limit + 1)}`.execute(
    compiler.executor,
  );
  const notes: string[] = [];
  let rows = result.rows;
  if (rows.length > limit) {
    rows = rows.slice(0, limit);
    if (query.limit === undefined) {
      notes.push(
        `Showing the first ${limit.toLocaleString("en-US")} groups; filter or choose a coarser grain to see all.`,
      );
    }
  }
  return {
    x,
    series,
    rows: rows.map((row) => {
      const out: Record<string, Value> = { x: toX(xColumn.type, query.x.grain, row.x) };
      for (const entry of series) out[entry.key] = toNumber(row[entry.key]);
      return out;
    }),
    notes,
  };
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
  const grouped = foldable.has(measure.aggregate)
    ? await breakdownInOneQuery(compiler, query, measure, key, top)
    : await breakdownRankedFirst(compiler, query, measure, key, top);
  const { tops, hasRest, result } = grouped;
  const series = tops.map((value, index) => ({
    key: `s${index}`,
    label: value === null || value === "" ? "(empty)" : value,
  }));
  if (hasRest) {
    const taken = new Set(series.map((entry) => entry.label));
    series.push({ key: "other", label: taken.has("Other") ? "Other (rest)" : "Other" });
  }
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
    out[index < 0 ? "other" : `s${index}`] = toNumber(row.v);
  }
  let rows = [...byX.values()];
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
  const limit = query.limit ?? queryLimits.maxLimit;
  if (rows.length > limit) {
    rows = rows.slice(0, limit);
    if (query.limit === undefined) {
      notes.push(
        `Showing the first ${limit.toLocaleString("en-US")} groups; filter or choose a coarser grain to see all.`,
      );
    }
  }
  return { x, series, rows, notes };
}

type Fold = "sum" | "count" | "min" | "max";
// Aggregates whose totals and "Other" can be folded from the per-x groups (avg and distinct
// counts cannot: they need the rows again).
const foldable = new Set<QueryMeasure["aggregate"]>(["sum", "count", "min", "max"]);

function fold(kind: Fold, a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  if (kind === "min") return Math.min(a, b);
  if (kind === "max") return Math.max(a, b);
  return a + b;
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
async function breakdownInOneQuery(
  compiler: Compiler,
  query: ChartQuery,
  measure: QueryMeasure,
  key: Sql,
  top: number,
): Promise<BreakdownGroups> {
  const kind = (measure.aggregate === "count" ? "count" : measure.aggregate) as Fold;
  const grouped = await sql<{
    x: unknown;
    b: string | null;
    v: unknown;
  }>`select ${await compiler.x(query)} as x, ${key} as b, ${compiler.aggregate(measure)} as v from ${compiler.table} ${compiler.where(query.filters)} group by 1, 2 limit ${sql.lit(maxGroupedRows + 1)}`.execute(
    compiler.executor,
  );
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
async function breakdownRankedFirst(
  compiler: Compiler,
  query: ChartQuery,
  measure: QueryMeasure,
  key: Sql,
  top: number,
): Promise<BreakdownGroups> {
  const aggregate = compiler.aggregate(measure);
  const where = compiler.where(query.filters);
  // The top values by the measure over everything the filters keep; ties by value, byte order.
  const ranked = await sql<{
    b: string | null;
    v: unknown;
  }>`select * from (select ${key} as b, ${aggregate} as v from ${compiler.table} ${where} group by 1) as totals order by ${sql.ref("v")} desc nulls last, ${compiler.textOrder(sql.ref("b"))} asc nulls last limit ${sql.lit(top + 1)}`.execute(
    compiler.executor,
  );
  const tops = ranked.rows.slice(0, top).map((row) => row.b);
  const named = tops.filter((value): value is string => value !== null);
  const topNull = tops.includes(null);
  // Which series a row falls in: its rank among the tops, or -1 for the rest ("Other").
  const whens = [
    ...named.map((value) => sql`when ${key} = ${value} then ${sql.lit(tops.indexOf(value))}`),
    ...(topNull ? [sql`when ${key} is null then ${sql.lit(tops.indexOf(null))}`] : []),
  ];
  const rank = whens.length === 0 ? sql`-1` : sql`case ${sql.join(whens, sql` `)} else -1 end`;
  const result = await sql<{
    x: unknown;
    s: unknown;
    v: unknown;
  }>`select ${await compiler.x(query)} as x, ${rank} as s, ${aggregate} as v from ${compiler.table} ${where} group by 1, 2 limit ${sql.lit(maxGroupedRows + 1)}`.execute(
    compiler.executor,
  );
  if (result.rows.length > maxGroupedRows) throw tooManyGroups();
  return { tops, hasRest: ranked.rows.length > top, result };
}

async function runRaw(
  compiler: Compiler,
  query: ChartQuery,
  x: QueryResult["x"],
  maxPoints: number,
): Promise<QueryResult> {
  const xColumn = compiler.column(query.x.column);
  const series = query.measures.map((measure, index) => ({
    key: `m${index}`,
    label: measureLabel(measure),
  }));
  const xRef = compiler.ref(xColumn);
  const where = compiler.where(query.filters);
  const counts = await sql<{
    n: unknown;
    d: unknown;
  }>`select count(*) as n, count(${xRef}) - count(distinct ${xRef}) as d from ${compiler.table} ${where}`.execute(
    compiler.executor,
  );
  const total = Number(counts.rows[0]?.n ?? 0);
  const duplicateX = Number(counts.rows[0]?.d ?? 0);
  const rowCap = compiler.descriptor.remote?.rowCap;
  // A live source returns at most its row cap per query: past it, the first rows and a note.
  const capped = rowCap !== undefined && total > rowCap;
  const limit = Math.min(
    query.limit ?? Number.POSITIVE_INFINITY,
    Math.max(2, maxPoints),
    rowCap ?? Number.POSITIVE_INFINITY,
  );
  const notes: string[] = [];
  if (duplicateX > 0) {
    notes.push(
      `${duplicateX.toLocaleString("en-US")} rows share an x value with another row; choose an aggregate to combine them.`,
    );
  }
  const numericX = compiler.numericX(xColumn);
  const toRow = (xValue: Value, values: unknown[]) => {
    const out: Record<string, Value> = { x: xValue };
    series.forEach((entry, index) => {
      out[entry.key] = toNumber(values[index]);
    });
    return out;
  };
  const measureRefs = query.measures.map((measure) => compiler.aggregate(measure));
  // A live table has no row key: ties in x keep the source's order.
  const key = compiler.descriptor.remote ? sql`0` : sql.id(rowKeyColumn);
  if (total <= limit || numericX === null || query.limit !== undefined || capped) {
    const xOrder = xColumn.type === "string" ? compiler.textOrder(sql.ref("x")) : sql.ref("x");
    const direction = sql.raw(query.sort?.direction === "desc" ? "desc" : "asc");
    const order =
      query.sort?.by === "value"
        ? sql`${sql.ref("m0")} ${direction} nulls last, ${xOrder} asc nulls last, ${sql.ref("k")}`
        : sql`${xOrder} ${direction} nulls last, ${sql.ref("k")}`;
    const result = await sql<
      Record<string, unknown>
    >`select * from (select ${key} as k, ${compiler.read(xColumn)} as x, ${sql.join(
      measureRefs.map((ref, index) => sql`${ref} as ${sql.id(`m${index}`)}`),
    )} from ${compiler.table} ${where}) as raw order by ${order} limit ${sql.lit(limit)}`.execute(
      compiler.executor,
    );
    if (capped && rowCap <= limit) {
      notes.push(
        `Showing the first ${limit.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} rows: this live source returns at most ${rowCap.toLocaleString("en-US")} rows per query (its row cap). Filter or choose an aggregate to see all.`,
      );
    } else if (total > limit && query.limit === undefined) {
      notes.push(
        `Showing the first ${limit.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} rows.`,
      );
    }
    return {
      x,
      series,
      rows: result.rows.map((row) =>
        toRow(
          toX(xColumn.type, undefined, row.x),
          series.map((entry) => row[entry.key]),
        ),
      ),
      notes,
      duplicateX,
    };
  }
  // Min/max per bucket of x: every bucket keeps its lowest and highest value of each series, so
  // a one-row spike survives however many rows share its bucket.
  const range = await sql<{
    lo: unknown;
    hi: unknown;
  }>`select min(${numericX}) as lo, max(${numericX}) as hi from ${compiler.table} ${where}`.execute(
    compiler.executor,
  );
  const lo = Number(range.rows[0]?.lo ?? 0);
  const hi = Number(range.rows[0]?.hi ?? 0);
  const buckets = Math.max(1, Math.floor(limit / 2));
  const span = hi - lo;
  const position =
    span > 0 && Number.isFinite(span)
      ? sql`(${numericX} - ${sql.lit(lo)}) * ${sql.lit(buckets)} / ${sql.lit(span)}`
      : sql`0`;
  const bucket = compiler.dialect.binIndex(position, buckets - 1);
  const result = await sql<
    Record<string, unknown>
  >`select ${bucket} as b, min(${numericX}) as x0, max(${numericX}) as x1, ${sql.join(
    measureRefs.flatMap((ref, index) => [
      sql`min(${ref}) as ${sql.id(`lo${index}`)}`,
      sql`max(${ref}) as ${sql.id(`hi${index}`)}`,
    ]),
  )} from ${compiler.table} ${compiler.where(query.filters, [sql`${numericX} is not null`])} group by 1 order by 1`.execute(
    compiler.executor,
  );
  const fromNumber = (value: unknown): Value => {
    const number = toNumber(value);
    if (number === null) return null;
    if (xColumn.type === "timestamp") return toX("timestamp", undefined, number);
    if (xColumn.type === "date") return formatDay(dayOfMs(number));
    return number;
  };
  const rows: Array<Record<string, Value>> = [];
  for (const row of result.rows) {
    const lows = series.map((_, index) => row[`lo${index}`]);
    const highs = series.map((_, index) => row[`hi${index}`]);
    rows.push(toRow(fromNumber(row.x0), lows));
    if (Number(row.x1) !== Number(row.x0) || lows.some((low, index) => low !== highs[index])) {
      rows.push(toRow(fromNumber(row.x1), highs));
    }
  }
  notes.push(
    `Downsampled ${total.toLocaleString("en-US")} rows to ${rows.length.toLocaleString("en-US")} points (the lowest and highest value of each step kept).`,
  );
  return { x, series, rows, notes, duplicateX };
}

function dayOfMs(ms: number) {
  const date = new Date(Math.round(ms / 86_400_000) * 86_400_000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
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
  const ref = compiler.ref(column);
  const text = column.type === "string";
  const short = text ? [sql`length(${ref}) <= ${sql.lit(Math.trunc(maxLength))}`] : [];
  const result = await sql<{
    v: unknown;
    n: number | string;
  }>`select ${compiler.read(column)} as v, count(*) as n from ${compiler.table} ${compiler.where([], [sql`${ref} is not null`, ...short])} group by 1 order by 2 desc, ${text ? compiler.textOrder(ref) : sql`1`} limit ${sql.lit(Math.trunc(limit))}`.execute(
    executor,
  );
  return result.rows.map((row) => ({
    value: text ? String(row.v) : Number(row.v) === 1 || row.v === true ? "true" : "false",
    count: Number(row.n),
  }));
}
