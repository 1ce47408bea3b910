import {
  type ChartQuery,
  type ChartQueryInput,
  compiledSize,
  type Day,
  dayOf,
  expressionLimits,
  formatDay,
  localDay,
  localMidnight,
  offsetSpans,
  parseExpression,
  percentileOf,
  type QueryAggregate,
  type QueryFilter,
  type QueryMeasure,
  queryFilters,
  queryLimits,
  relativeDays,
  relativeDaysFrom,
} from "@seed/model";
import { type CompiledQuery, type Kysely, type RawBuilder, sql } from "kysely";
import {
  type DatasetTable,
  isRemoteIdentifier,
  isSafeIdentifier,
  type TableColumn,
  visibleRowsCondition,
} from "../db/dataset-table.js";
import { type Dialect, dialectOf, type TimeBucket } from "../db/dialect.js";
import { compileExpression } from "./expression.js";
import { checkedTimeZone, parseQuery, QueryError } from "./parse.js";
import { toX, xType } from "./result.js";

// Compiles a chart query to SQL with Kysely, on SQLite and PostgreSQL alike: the same query gives
// the same result on both (test/query-cases.test.ts). Identifiers come only from the dataset's
// table descriptor; every user value is a bound parameter. compileChartQuery gives the SQL text and
// parameters of a query without running it (test/compile-query.test.ts shows what a chart
// becomes); execute.ts runs the same statements and folds their rows into a QueryResult.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
export type AnyExecutor = Kysely<any>;
export type Sql = RawBuilder<unknown>;
type Row = Record<string, unknown>;

/** What a query's relative ranges and time buckets depend on besides the query itself. */
export interface CompileOptions {
  /** IANA zone for day and coarser buckets and relative ranges; default UTC. */
  timeZone?: string;
  /** The instant relative ranges count from; default now. */
  now?: Date;
}

// Groups a query may produce before it is refused (breakdowns are pivoted in memory).
export const maxGroupedRows = 200_000;

// Aggregates whose totals and "Other" can be folded from the per-x groups (avg and distinct
// counts cannot: they need the rows again).
export const foldable = new Set<QueryMeasure["aggregate"]>(["sum", "count", "min", "max"]);

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
  if (descriptor.subquery) return sql`(${descriptor.subquery}) as ${sql.id("question")}`;
  return descriptor.remote
    ? sql.id(
        identifierOf(descriptor, descriptor.remote.schema),
        identifierOf(descriptor, descriptor.table),
      )
    : sql.table(checked(descriptor.table));
}

/** The aggregates of a measure's formula (@seed/model aggregateFunctionSpecs) as query aggregates. */
const formulaAggregates: Readonly<
  Record<string, Exclude<QueryAggregate, "none" | "formula"> | undefined>
> = {
  sum: "sum",
  avg: "avg",
  min: "min",
  max: "max",
  median: "median",
  count: "count",
  countDistinct: "count_distinct",
};

/** The pieces of SQL a query is made of, for one table, dialect, time zone and instant. */
export class Compiler {
  readonly dialect: Dialect;
  readonly columns: Map<string, TableColumn>;
  readonly table: Sql;
  /** The day of each anchored column's newest value (null: no value), see anchorRanges. */
  private readonly newest = new Map<string, Day | null>();

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

  column(name: string): TableColumn {
    const column = this.columns.get(name);
    if (!column) throw new QueryError({ fieldErrors: { query: [`No column "${name}".`] } });
    return column;
  }

  /** A column's SQL: the stored column, or a calculated field's expression over stored ones. */
  ref(column: TableColumn): Sql {
    if (column.expression) {
      const expression = compileExpression(column.expression, {
        dialect: this.dialect,
        column: (name) => this.ref(this.column(name)),
        timeZone: this.timeZone,
      });
      return sql`(${expression})`;
    }
    return sql.id(identifierOf(this.descriptor, column.id));
  }

  /** A text expression sorts the same on both engines (byte order, like SQLite's BINARY). */
  textOrder(expression: Sql): Sql {
    return this.dialect.textOrder(expression);
  }

  /** A user value as the column stores it, as a bound parameter. */
  param(column: TableColumn, value: string | number | boolean): Sql {
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
        const range = this.rangeOf(filter);
        // A range anchored to a column with no values holds no rows.
        if (range === null) return sql`1 = 0`;
        const { from, to } = range;
        if (column.type === "date") {
          return sql`(${ref} >= ${this.param(column, formatDay(from))} and ${ref} < ${this.param(column, formatDay(to))})`;
        }
        const start = new Date(localMidnight(this.timeZone, from)).toISOString();
        const end = new Date(localMidnight(this.timeZone, to)).toISOString();
        return sql`(${ref} >= ${this.param(column, start)} and ${ref} < ${this.param(column, end)})`;
      }
    }
  }

  /**
   * The days a relative filter covers, [from, to): counted from today in the zone, or from the
   * day of the column's newest value (anchor "latest", read by anchorRanges); null when that
   * column holds no value.
   */
  rangeOf(filter: Extract<QueryFilter, { op: "relative" }>): { from: Day; to: Day } | null {
    if (filter.anchor !== "latest") return relativeDays(filter, this.timeZone, this.now);
    const newest = this.newest.get(filter.column);
    if (newest === undefined) throw new Error(`The newest "${filter.column}" was not read.`);
    return newest === null ? null : relativeDaysFrom(filter, newest);
  }

  /**
   * Reads the newest value of each column a relative filter counts back from (anchor "latest"):
   * its day (a timestamp's in the zone), among the rows the table shows, whatever the other
   * filters keep. A statement per such column, before any statement that filters by it.
   */
  async anchorRanges(filters: readonly QueryFilter[]): Promise<void> {
    for (const filter of filters) {
      if (filter.op !== "relative" || filter.anchor !== "latest") continue;
      if (this.newest.has(filter.column)) continue;
      const column = this.column(filter.column);
      const newest = sql<{
        v: unknown;
      }>`select ${this.dialect.read(sql`max(${this.ref(column)})`, column.type)} as v from ${this.table} ${this.where([])}`;
      const result = await this.executor.executeQuery(newest.compile(this.executor));
      // yyyy-mm-dd for a date, an ISO instant for a timestamp (null: no value).
      const value = toX(column.type, undefined, result.rows[0]?.v);
      if (typeof value !== "string") {
        this.newest.set(filter.column, null);
      } else if (column.type === "date") {
        this.newest.set(filter.column, dayOf(Date.parse(`${value}T00:00:00Z`)));
      } else {
        this.newest.set(filter.column, localDay(this.timeZone, Date.parse(value)));
      }
    }
  }

  where(filters: readonly QueryFilter[], extra: Sql[] = []): Sql {
    const parts = [...filters.map((filter) => this.filter(filter)), ...extra];
    // A data-file generation table holds rows of uncommitted versions too (data-file.ts).
    const visible = visibleRowsCondition(this.descriptor);
    if (visible) parts.push(visible);
    return parts.length === 0 ? sql`` : sql`where ${sql.join(parts, sql` and `)}`;
  }

  /**
   * A timestamp's local wall-clock time in the zone as a number (`epoch`: its epoch time in
   * units of `perMs` per millisecond), from the zone's offset spans over the data's range: the
   * one step of compiling that reads the database. Null when the range crosses more than
   * `maxSpans` offset changes (a CASE per row would then cost more than the engine's own zone
   * rules).
   */
  async localEpoch(
    filters: readonly QueryFilter[],
    epoch: Sql,
    perMs: number,
    maxSpans = Number.POSITIVE_INFINITY,
  ): Promise<Sql | null> {
    if (this.timeZone === "UTC") return epoch;
    const range = await sql<{
      lo: unknown;
      hi: unknown;
    }>`select min(${epoch}) as lo, max(${epoch}) as hi from ${this.table} ${this.where(filters)}`.execute(
      this.executor,
    );
    const lo = Number(range.rows[0]?.lo ?? 0) / perMs;
    const hi = Number(range.rows[0]?.hi ?? 0) / perMs;
    const spans = offsetSpans(this.timeZone, Math.floor(lo), Math.ceil(hi));
    if (spans.length > maxSpans) return null;
    const at = (ms: number) => sql.lit(ms * perMs);
    if (spans.length === 1) return sql`(${epoch} + ${at(spans[0]?.offset ?? 0)})`;
    const cases = spans
      .slice(1)
      .map(
        (span, index) =>
          sql`when ${epoch} < ${at(span.from)} then ${at(spans[index]?.offset ?? 0)}`,
      );
    return sql`(${epoch} + case ${sql.join(cases, sql` `)} else ${at(spans.at(-1)?.offset ?? 0)} end)`;
  }

  /**
   * What x groups by: a grain's bucket (its key, and the label a grouped key reads back as),
   * else the column as it reads back.
   */
  async x(query: ChartQuery): Promise<TimeBucket> {
    const column = this.column(query.x.column);
    const grain = query.x.grain;
    if (grain === undefined) return { key: this.read(column), label: null };
    return this.dialect.timeBucket({
      ref: this.ref(column),
      type: column.type,
      grain,
      timeZone: this.timeZone,
      localMs: async () => (await this.localEpoch(query.filters, this.ref(column), 1)) as Sql,
      localMicros: (epochMicros, maxSpans) =>
        this.localEpoch(query.filters, epochMicros, 1000, maxSpans),
    });
  }

  /** A column as results carry it: numbers, text, yyyy-mm-dd, epoch ms (converted later). */
  read(column: TableColumn): Sql {
    return this.dialect.read(this.ref(column), column.type);
  }

  /** x as a number for binning raw series: the value, epoch ms, or the day's epoch ms. */
  numericX(column: TableColumn): Sql | null {
    return this.dialect.numericX(this.ref(column), column.type);
  }

  aggregate(measure: QueryMeasure): Sql {
    // A measure's own conditions ("count where"): its rows that fail them count as empty cells,
    // which every aggregate leaves out.
    const only =
      measure.where && measure.where.length > 0
        ? sql.join(
            measure.where.map((filter) => this.filter(filter)),
            sql` and `,
          )
        : null;
    // A measure's own conditions: the rows that fail them give an empty value (a count, none).
    const kept = (value: Sql | null): Sql | null =>
      only === null ? value : sql`case when ${only} then ${value ?? sql`1`} end`;
    if (measure.aggregate === "formula") return this.formula(measure.formula ?? "", kept);
    if (measure.column === null) return this.combine("count", kept(null));
    const ref = kept(this.ref(this.column(measure.column))) as Sql;
    return measure.aggregate === "none" ? ref : this.combine(measure.aggregate, ref);
  }

  /** One aggregate of a value over a group's rows; a count of null counts every row. */
  private combine(aggregate: Exclude<QueryAggregate, "none" | "formula">, ref: Sql | null): Sql {
    if (ref === null) return sql`count(*)`;
    switch (aggregate) {
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
      case "median":
      case "p25":
      case "p75":
      case "p90":
      case "p95":
      case "p99":
        return this.dialect.percentile(ref, percentileOf[aggregate] as number);
    }
  }

  /**
   * A measure's formula: its aggregates over the group's rows (only those that pass the measure's
   * conditions, when it has some: `kept`), combined as the formula says.
   */
  private formula(text: string, kept: (value: Sql | null) => Sql | null): Sql {
    const parsed = parseExpression(text, this.descriptor.columns, "formula");
    if (!parsed.ok) {
      throw new QueryError({
        fieldErrors: { query: parsed.errors.map((error) => error.message) },
      });
    }
    // Calculated fields are compiled in place: a formula repeating a large one is bounded too.
    const size = compiledSize(parsed.tree, (name) => {
      const field = this.column(name).expression;
      return field ? compiledSize(field) : 1;
    });
    if (size > expressionLimits.maxCompiledSize) {
      throw new QueryError({
        fieldErrors: {
          query: [
            "The formula is too complex to run: the calculated fields it names repeat too many of their parts.",
          ],
        },
      });
    }
    return compileExpression(parsed.tree, {
      dialect: this.dialect,
      column: (name) => this.ref(this.column(name)),
      timeZone: this.timeZone,
      aggregate: (name, value) => {
        const aggregate = formulaAggregates[name];
        if (!aggregate) throw new Error(`No SQL for the aggregate "${name}"`);
        return this.combine(aggregate, kept(value));
      },
    });
  }

  /** The breakdown as text or null (booleans as "true"/"false"), the key of its series. */
  breakdownKey(column: TableColumn): Sql {
    const ref = this.ref(column);
    if (column.type === "boolean") return this.dialect.booleanText(ref);
    return ref;
  }
}

/**
 * Parses and checks a query and its time zone, and makes its compiler, with the newest values
 * its anchored ranges count from already read.
 */
export async function compilerFor(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  input: ChartQueryInput,
  options: CompileOptions,
): Promise<{ compiler: Compiler; query: ChartQuery }> {
  const query = parseQuery(input, descriptor.columns);
  return {
    compiler: await optionsCompiler(executor, descriptor, options, queryFilters(query)),
    query,
  };
}

/**
 * The compiler for a dataset under the options' checked time zone and clock, ready for `filters`
 * (the newest values their anchored ranges count from are read first).
 */
export async function optionsCompiler(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  options: CompileOptions,
  filters: readonly QueryFilter[],
): Promise<Compiler> {
  const timeZone = checkedTimeZone(options.timeZone);
  const compiler = new Compiler(
    executor,
    descriptor,
    timeZone,
    (options.now ?? new Date()).getTime(),
  );
  await compiler.anchorRanges(filters);
  return compiler;
}

/** A raw series: every measure's aggregate is "none" (read in steps, raw.ts). */
export function isRaw(query: ChartQuery): boolean {
  return query.measures.every((measure) => measure.aggregate === "none");
}

/** The columns of grouped rows as results carry them: x labelled from its key where it has one. */
function labelled(x: TimeBucket): Sql {
  // `* replace` is DuckDB's, the one engine whose buckets have labels apart from their keys.
  return x.label ? sql`* replace (${x.label(sql.ref("x"))} as x)` : sql`*`;
}

/** Grouped rows with x labelled (a statement of its own only where the key is not the label). */
function withLabels<T>(x: TimeBucket, grouped: RawBuilder<T>): RawBuilder<T> {
  return x.label ? sql<T>`select ${labelled(x)} from (${grouped}) as grouped` : grouped;
}

/**
 * Aggregates by x, one column per measure (m0, m1, ...), sorted, one row past the limit (so the
 * caller knows there were more).
 */
export async function groupedStatement(compiler: Compiler, query: ChartQuery) {
  const limit = query.limit ?? queryLimits.maxLimit;
  const x = await compiler.x(query);
  // Ordered by the label (a key sorts as its label does).
  return sql<Row>`select ${labelled(x)} from (${groups(compiler, query, x)}) as grouped order by ${groupOrder(compiler, query)} limit ${sql.lit(limit + 1)}`;
}

/** Every measure by x (x, m0, m1, ...) over the rows the filters keep, unordered. */
function groups(compiler: Compiler, query: ChartQuery, x: TimeBucket): Sql {
  return sql`select ${x.key} as x, ${sql.join(measureSelects(compiler, query))} from ${compiler.table} ${compiler.where(query.filters)} group by 1`;
}

function measureSelects(compiler: Compiler, query: ChartQuery): Sql[] {
  return query.measures.map(
    (measure, index) => sql`${compiler.aggregate(measure)} as ${sql.id(`m${index}`)}`,
  );
}

/** The order of a query's groups (x and m0, ...): by x, or by a measure (the first unless told), x breaking ties. */
function groupOrder(compiler: Compiler, query: ChartQuery): Sql {
  const type = xType(query, compiler.column(query.x.column));
  const textX = type === "string" || type === "date" || query.x.grain !== undefined;
  const xOrder = textX ? compiler.textOrder(sql.ref("x")) : sql.ref("x");
  const direction = sql.raw(query.sort?.direction === "desc" ? "desc" : "asc");
  const by = sql.ref(`m${query.sort?.measure ?? 0}`);
  return query.sort?.by === "value"
    ? sql`${by} ${direction} nulls last, ${xOrder} asc nulls last`
    : sql`${xOrder} ${direction} nulls last`;
}

/**
 * "Other" (query.other, x a category): every measure over the rows whose x is not among the
 * first `limit` groups in the query's order, measured from the rows themselves (so an average or
 * a distinct count of the rest is exact, not folded from the groups).
 */
export async function otherStatement(compiler: Compiler, query: ChartQuery) {
  const x = await compiler.x(query);
  const limit = query.limit ?? queryLimits.maxLimit;
  const kept = sql`select x from (${groups(compiler, query, x)}) as grouped order by ${groupOrder(compiler, query)} limit ${sql.lit(limit)}`;
  // A null x is a group of its own: `in` never matches it, so it is looked for apart.
  const rest = [
    sql`not coalesce(${x.key} in (select x from kept where x is not null), false)`,
    sql`not (${x.key} is null and exists (select 1 from kept where x is null))`,
  ];
  return sql<Row>`with kept as (${kept}) select ${sql.join(measureSelects(compiler, query))} from ${compiler.table} ${compiler.where(query.filters, rest)}`;
}

/** Sum, count, min and max by breakdown: one GROUP BY x, breakdown (b), measure v. */
export async function breakdownGroupsStatement(
  compiler: Compiler,
  query: ChartQuery,
  measure: QueryMeasure,
  key: Sql,
) {
  const x = await compiler.x(query);
  return withLabels(
    x,
    sql<{
      x: unknown;
      b: string | null;
      v: unknown;
    }>`select ${x.key} as x, ${key} as b, ${compiler.aggregate(measure)} as v from ${compiler.table} ${compiler.where(query.filters)} group by 1, 2 limit ${sql.lit(maxGroupedRows + 1)}`,
  );
}

/**
 * Averages and distinct counts, first step: the top values by the measure over everything the
 * filters keep; ties by value, byte order; one past `top`.
 */
export function breakdownRankingStatement(
  compiler: Compiler,
  query: ChartQuery,
  measure: QueryMeasure,
  key: Sql,
  top: number,
) {
  return sql<{
    b: string | null;
    v: unknown;
  }>`select * from (select ${key} as b, ${compiler.aggregate(measure)} as v from ${compiler.table} ${compiler.where(query.filters)} group by 1) as totals order by ${sql.ref("v")} desc nulls last, ${compiler.textOrder(sql.ref("b"))} asc nulls last limit ${sql.lit(top + 1)}`;
}

/** Which series a row falls in: its breakdown value's rank among the tops, or -1 for the rest ("Other"). */
export function seriesRank(key: Sql, tops: ReadonlyArray<string | null>): Sql {
  const named = tops.filter((value): value is string => value !== null);
  const whens = [
    ...named.map((value) => sql`when ${key} = ${value} then ${sql.lit(tops.indexOf(value))}`),
    ...(tops.includes(null) ? [sql`when ${key} is null then ${sql.lit(tops.indexOf(null))}`] : []),
  ];
  return whens.length === 0 ? sql`-1` : sql`case ${sql.join(whens, sql` `)} else -1 end`;
}

/** Averages and distinct counts, second step: one GROUP BY x, rank among `tops` (s, -1 the rest). */
export async function breakdownByRankStatement(
  compiler: Compiler,
  query: ChartQuery,
  measure: QueryMeasure,
  key: Sql,
  tops: ReadonlyArray<string | null>,
) {
  const rank = seriesRank(key, tops);
  const x = await compiler.x(query);
  return withLabels(
    x,
    sql<{
      x: unknown;
      s: unknown;
      v: unknown;
    }>`select ${x.key} as x, ${rank} as s, ${compiler.aggregate(measure)} as v from ${compiler.table} ${compiler.where(query.filters)} group by 1, 2 limit ${sql.lit(maxGroupedRows + 1)}`,
  );
}

/** One aggregate (v) over the rows the filters keep. */
export function aggregateStatement(
  compiler: Compiler,
  measure: QueryMeasure,
  filters: readonly QueryFilter[],
) {
  return sql<{
    v: unknown;
  }>`select ${compiler.aggregate(measure)} as v from ${compiler.table} ${compiler.where(filters)}`;
}

/**
 * A column's last two non-empty values (v) in row order, newest first, among the rows the
 * filters keep: a stat tile's "last" and the value it compares with.
 */
export function lastValuesStatement(
  compiler: Compiler,
  column: TableColumn,
  filters: readonly QueryFilter[],
) {
  const ref = compiler.ref(column);
  return sql<{
    v: unknown;
  }>`select ${compiler.read(column)} as v from ${compiler.table} ${compiler.where(filters, [sql`${ref} is not null`])} order by ${compiler.dialect.rowKeyRef} desc limit 2`;
}

/** A column's most common non-empty values (v) with their counts (n), text over `maxLength` left out. */
export function topValuesStatement(
  compiler: Compiler,
  column: TableColumn,
  limit: number,
  maxLength: number,
) {
  const ref = compiler.ref(column);
  const text = column.type === "string";
  const short = text ? [sql`length(${ref}) <= ${sql.lit(Math.trunc(maxLength))}`] : [];
  // Grouped in a subquery and ordered outside it: a calculated field's expression in the ORDER
  // BY of a grouped query is refused by PostgreSQL when it is not the grouped expression.
  const grouped = sql`select ${compiler.read(column)} as v, count(*) as n from ${compiler.table} ${compiler.where([], [sql`${ref} is not null`, ...short])} group by 1`;
  return sql<{
    v: unknown;
    n: number | string;
  }>`select v, n from (${grouped}) as top_values order by n desc, ${text ? compiler.textOrder(sql.ref("v")) : sql.ref("v")} limit ${sql.lit(Math.trunc(limit))}`;
}

/**
 * The distinct values of a text column equal to `wanted` without regard to case (the engine's
 * Unicode lower case on both sides), at most `limit`.
 */
export function caseMatchesStatement(
  compiler: Compiler,
  column: TableColumn,
  wanted: string,
  limit: number,
) {
  const ref = compiler.ref(column);
  const { lower, columnTypes } = compiler.dialect;
  const asked = lower(sql`cast(${sql.val(wanted)} as ${sql.raw(columnTypes.string)})`);
  return sql<{
    v: unknown;
  }>`select distinct ${compiler.read(column)} as v from ${compiler.table} ${compiler.where([], [sql`${ref} is not null`, sql`${lower(ref)} = ${asked}`])} limit ${sql.lit(Math.trunc(limit))}`;
}

/**
 * The one statement an aggregate chart query runs, as Kysely's CompiledQuery (SQL text and
 * bound parameters), without running it. Async because SQLite's time buckets in a zone other
 * than UTC read the data's range first (Compiler.localMs). Refused (a plain Error) for queries
 * that run in steps whose later SQL depends on earlier results: raw series (counted, then read or
 * binned, raw.ts), breakdowns of averages and distinct counts (ranked first) and Other.
 */
export async function compileChartQuery(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  input: ChartQueryInput,
  options: CompileOptions = {},
): Promise<CompiledQuery<Row>> {
  const { compiler, query } = await compilerFor(executor, descriptor, input, options);
  if (isRaw(query)) {
    throw new Error("A raw series runs in steps (counted first, then read or binned).");
  }
  if (query.other) {
    throw new Error("A query with Other runs in steps (its groups first, then the rest).");
  }
  if (!query.breakdown) return (await groupedStatement(compiler, query)).compile(executor);
  const measure = query.measures[0] as QueryMeasure;
  if (!foldable.has(measure.aggregate)) {
    throw new Error(
      "A breakdown of averages or distinct counts runs in steps (its top values are ranked first).",
    );
  }
  const key = compiler.breakdownKey(compiler.column(query.breakdown.column));
  const statement = await breakdownGroupsStatement(compiler, query, measure, key);
  return statement.compile(executor) as CompiledQuery<Row>;
}
