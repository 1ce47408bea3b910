import { type CellValue, type DatasetColumnType, subDayGrains, type TimeGrain } from "@seed/model";
import { type Kysely, PostgresAdapter, type RawBuilder, sql } from "kysely";
import { rowKeyColumn } from "./dataset-table.js";
import { DuckDbAdapter } from "./duckdb-adapter.js";
import {
  duckdbExpressions,
  type ExpressionDialect,
  postgresExpressions,
  sqliteExpressions,
} from "./expression-dialects.js";

export type { ExpressionDialect, TimeInput } from "./expression-dialects.js";

// Every difference between the engines in how a dataset's table stores, reads, compares and
// buckets its values lives here, one object per engine. The rest of the store asks the dialect and
// never tests which engine it is on: a new engine is a new object.

type Sql = RawBuilder<unknown>;
// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

export type Engine = "sqlite" | "postgres" | "duckdb";

/** What a time bucket needs: the column, its grain and zone, and its local wall-clock ms. */
export interface TimeBucketInput {
  ref: Sql;
  type: DatasetColumnType;
  grain: TimeGrain;
  timeZone: string;
  /**
   * A timestamp's local wall-clock ms in the zone (the query compiler reads the data's range to
   * build it from the zone's offset spans); asked by engines without time-zone rules of their own.
   */
  localMs: () => Promise<Sql>;
  /**
   * The same in micros from `epochMicros` (the engine's epoch micros of the value), or null when
   * the data's range crosses more than `maxSpans` offset changes.
   */
  localMicros: (epochMicros: Sql, maxSpans: number) => Promise<Sql | null>;
}

/** A time grain's grouping: the per-row key, and the label a grouped key reads back as. */
export interface TimeBucket {
  key: Sql;
  /**
   * The label of a group from its key's column, computed once per group; null when the key is
   * the label itself. Engines whose date functions cost more per row than integer arithmetic
   * (DuckDB) group by a number and label the few groups after.
   */
  label: ((key: Sql) => Sql) | null;
}

export interface Dialect extends ExpressionDialect {
  readonly engine: Engine;
  /** The SQL type of each column type. */
  readonly columnTypes: Readonly<Record<DatasetColumnType, string>>;
  /** The row key column's definition: an integer key the engine assigns. */
  rowKey(id: string, table: string): Sql;
  /**
   * A row's key (`_row`) as every read and edit by key sees it. On DuckDB a row bulk-loaded
   * into a fresh data-file generation keeps no key of its own: its key is its row id plus one
   * (data-file.ts says when that holds); elsewhere the column itself.
   */
  readonly rowKeyRef: Sql;
  /**
   * What assigns a table's row keys, where it is an object of its own (DuckDB's sequence): made
   * before the table, dropped after it. Null where the column itself counts.
   */
  keySequence(table: string): { create: Sql; drop: Sql } | null;
  /** Date and timestamp columns get B-tree indexes (a column store scans with zone maps instead). */
  readonly timeIndexes: boolean;
  /** Empties a table and restarts its keys at 1. */
  clearTable(executor: AnyExecutor, table: string): Promise<void>;
  /** A checked cell as this engine stores it (as a plain bound value). */
  stored(type: DatasetColumnType, value: CellValue | boolean): unknown;
  /** A user value compared with a column: a bound parameter of the column's stored type. */
  param(type: DatasetColumnType, value: string | number | boolean): Sql;
  /**
   * A column as results read it: numbers, text, yyyy-mm-dd for dates, epoch ms for timestamps,
   * 1/0 for booleans.
   */
  read(ref: Sql, type: DatasetColumnType): Sql;
  /** x as a number for binning: the value, epoch ms of a timestamp, epoch ms of a date's day. */
  numericX(ref: Sql, type: DatasetColumnType): Sql | null;
  /** A boolean column as the text "true" / "false" (null stays null). */
  booleanText(ref: Sql): Sql;
  /** Text that sorts in byte order (SQLite's BINARY) on every engine. */
  textOrder(expression: Sql): Sql;
  /** The bin index of a position, as an integer no larger than `last`. */
  binIndex(position: Sql, last: number): Sql;
  /** Case-insensitive LIKE. */
  readonly ilike: Sql;
  /**
   * The continuous percentile `p` of a number column's non-empty values (percentileOf's rule,
   * @seed/model): the same double on every engine, computed from the values in order.
   */
  percentile(ref: Sql, p: number): Sql;
  /** The UTF-8 bytes of a text column's value. */
  textBytes(ref: Sql): Sql;
  /** The n-th (1-based) positional parameter of a raw statement. */
  placeholder(n: number): string;
  /**
   * The bucket of a date or timestamp for a grain: what rows are grouped by, and how a group
   * reads back, as yyyy-mm-dd (the bucket's first local day) or, below a day, the UTC minute or
   * hour as an ISO timestamp.
   */
  timeBucket(input: TimeBucketInput): Promise<TimeBucket>;
  /** Bulk INSERTs send one JSON parameter per batch (fast where the engine parses JSON natively). */
  readonly jsonBatchInsert: boolean;
  /** SELECT ... FOR UPDATE locks rows (SQLite has no row locks: its write lock is taken at BEGIN). */
  readonly rowLocks: boolean;
  /** Whether a table of this name exists in the store's schema. */
  tableExists(executor: AnyExecutor, table: string): Promise<boolean>;
  /**
   * Why the engine gave up on a query for lack of a resource it is bounded in (memory), in words
   * for the tile that asked; null for any other error.
   */
  resourceFailure(error: unknown): string | null;
}

const noResourceFailure = () => null;

/**
 * A continuous percentile from the values in order (percentileOf's rule, @seed/model), given how
 * an engine counts (`count`) and indexes (`at`, 1-based) its sorted list of non-empty values: the
 * same arithmetic on every engine, so every engine gives the same double.
 */
function percentileFrom(count: Sql, at: (index: Sql) => Sql, p: number): Sql {
  const h = sql`((${count} - 1) * cast(${sql.lit(p)} as double precision))`;
  const lo = at(sql`cast(floor(${h}) as integer) + 1`);
  const hi = at(sql`cast(ceil(${h}) as integer) + 1`);
  const d = sql`(${h} - floor(${h}))`;
  return sql`(case when ${count} is null or ${count} = 0 then null when ${lo} = ${hi} then ${lo} else ${lo} * (1 - ${d}) + ${hi} * ${d} end)`;
}

/**
 * A boolean cell as it comes to be stored: a file's reading gives true/false, rows (forms, the
 * push API, JSON rows) hold a boolean column's values as the text "true"/"false".
 */
function isTrueCell(value: CellValue | boolean): boolean {
  return value === true || value === "true" || value === 1;
}

/** Engines with boolean and instant types: true/false as booleans, instants as ISO text. */
function typedStored(type: DatasetColumnType, value: CellValue | boolean): unknown {
  if (value === null || value === undefined) return null;
  if (type === "boolean") return isTrueCell(value);
  if (type === "timestamp") return new Date(Date.parse(String(value))).toISOString();
  return value;
}

/** PostgreSQL and DuckDB: the table is in information_schema under the current schema. */
async function informationSchemaTableExists(executor: AnyExecutor, table: string) {
  const result = await sql<{
    n: number | string;
  }>`select count(*) as n from information_schema.tables where table_schema = current_schema() and table_name = ${table}`.execute(
    executor,
  );
  return Number(result.rows[0]?.n ?? 0) > 0;
}

/** One engine's dialect, its engine known to the type checker. */
export type EngineDialect<E extends Engine> = Dialect & { readonly engine: E };

/** SQLite's bucket label of a grain, from strftime over the local wall-clock time. */
async function sqliteBucketLabel({ ref, type, grain, localMs }: TimeBucketInput): Promise<Sql> {
  const subDay = subDayGrains.includes(grain);
  const time =
    type === "date" ? sql`${ref}` : sql`${subDay ? ref : await localMs()} / 1000.0, 'unixepoch'`;
  switch (grain) {
    case "minute":
      return sql`strftime('%Y-%m-%dT%H:%M:00.000Z', ${time})`;
    case "hour":
      return sql`strftime('%Y-%m-%dT%H:00:00.000Z', ${time})`;
    case "day":
      return sql`date(${time})`;
    case "week":
      return sql`date(${time}, '+1 day', 'weekday 1', '-7 days')`;
    case "month":
      return sql`strftime('%Y-%m-01', ${time})`;
    case "quarter":
      return sql`printf('%s-%02d-01', strftime('%Y', ${time}), ((cast(strftime('%m', ${time}) as integer) - 1) / 3) * 3 + 1)`;
    case "year":
      return sql`strftime('%Y-01-01', ${time})`;
  }
}

const sqlite: EngineDialect<"sqlite"> = {
  engine: "sqlite",
  columnTypes: {
    number: "real",
    string: "text",
    boolean: "integer",
    date: "text",
    timestamp: "integer",
  },
  rowKey: (id) => sql`${sql.id(id)} integer primary key`,
  rowKeyRef: sql.id(rowKeyColumn),
  keySequence: () => null,
  timeIndexes: true,
  async clearTable(executor, table) {
    // SQLite reuses keys once the table is empty.
    await sql`delete from ${sql.table(table)}`.execute(executor);
  },
  stored(type, value) {
    if (value === null || value === undefined) return null;
    if (type === "boolean") return isTrueCell(value) ? 1 : 0;
    if (type === "timestamp") return Date.parse(String(value));
    return value;
  },
  param(type, value) {
    if (type === "boolean") return sql.val(value ? 1 : 0);
    if (type === "date") return sql.val(String(value));
    if (type === "timestamp") return sql.val(Date.parse(String(value)));
    return sql.val(value);
  },
  read: (ref) => ref,
  numericX(ref, type) {
    if (type === "number" || type === "timestamp") return ref;
    if (type === "date") return sql`((julianday(${ref}) - 2440587.5) * 86400000.0)`;
    return null;
  },
  booleanText: (ref) => sql`case when ${ref} = 1 then 'true' when ${ref} = 0 then 'false' end`,
  textOrder: (expression) => expression,
  binIndex: (position, last) => sql`min(${sql.lit(last)}, cast(${position} as integer))`,
  ilike: sql`like`,
  // SQLite has no percentile: the store's own aggregate (sqlite-functions.ts), the same rule.
  percentile: (ref, p) => sql`seed_percentile(${ref}, ${sql.lit(p)})`,
  textBytes: (ref) => sql`coalesce(length(cast(${ref} as blob)), 0)`,
  placeholder: () => "?",
  jsonBatchInsert: false,
  rowLocks: false,
  resourceFailure: noResourceFailure,
  ...sqliteExpressions,
  async tableExists(executor, table) {
    const result = await sql<{
      n: number;
    }>`select count(*) as n from sqlite_master where type = 'table' and name = ${table}`.execute(
      executor,
    );
    return Number(result.rows[0]?.n ?? 0) > 0;
  },
  timeBucket: async (input) => ({ key: await sqliteBucketLabel(input), label: null }),
};

const postgres: EngineDialect<"postgres"> = {
  engine: "postgres",
  columnTypes: {
    number: "double precision",
    string: "text",
    boolean: "boolean",
    date: "date",
    timestamp: "timestamptz",
  },
  rowKey: (id) => sql`${sql.id(id)} bigint generated by default as identity primary key`,
  rowKeyRef: sql.id(rowKeyColumn),
  keySequence: () => null,
  timeIndexes: true,
  async clearTable(executor, table) {
    // TRUNCATE is transactional in PostgreSQL.
    await sql`truncate table ${sql.table(table)} restart identity`.execute(executor);
  },
  stored: typedStored,
  param(type, value) {
    if (type === "boolean") return sql.val(Boolean(value));
    if (type === "date") return sql`cast(${String(value)} as date)`;
    if (type === "timestamp") {
      return sql`cast(${new Date(Date.parse(String(value))).toISOString()} as timestamptz)`;
    }
    return sql.val(value);
  },
  read(ref, type) {
    if (type === "date") return sql`to_char(${ref}, 'YYYY-MM-DD')`;
    if (type === "timestamp") return sql`(extract(epoch from ${ref}) * 1000)::float8`;
    if (type === "boolean") return sql`case when ${ref} then 1 when not ${ref} then 0 end`;
    return ref;
  },
  numericX(ref, type) {
    if (type === "number") return ref;
    if (type === "timestamp") return sql`(extract(epoch from ${ref}) * 1000)::float8`;
    if (type === "date") return sql`((${ref} - date '1970-01-01') * 86400000.0)::float8`;
    return null;
  },
  booleanText: (ref) => sql`case when ${ref} then 'true' when not ${ref} then 'false' end`,
  textOrder: (expression) => sql`${expression} collate "C"`,
  binIndex: (position, last) => sql`least(${sql.lit(last)}, floor(${position})::int)`,
  ilike: sql`ilike`,
  percentile(ref, p) {
    const sorted = sql`(array_agg(${ref} order by ${ref}) filter (where ${ref} is not null))`;
    return percentileFrom(sql`cardinality(${sorted})`, (index) => sql`${sorted}[${index}]`, p);
  },
  textBytes: (ref) => sql`coalesce(octet_length(${ref}), 0)`,
  placeholder: (n) => `$${n}`,
  jsonBatchInsert: true,
  rowLocks: true,
  resourceFailure: noResourceFailure,
  ...postgresExpressions,
  tableExists: informationSchemaTableExists,
  async timeBucket({ ref, type, grain, timeZone }) {
    const unit = sql.lit(grain);
    if (subDayGrains.includes(grain)) {
      return {
        key: sql`to_char(date_trunc(${unit}, ${ref} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:00.000"Z"')`,
        label: null,
      };
    }
    const local =
      type === "date" ? sql`cast(${ref} as timestamp)` : sql`(${ref} at time zone ${timeZone})`;
    return { key: sql`to_char(date_trunc(${unit}, ${local}), 'YYYY-MM-DD')`, label: null };
  },
};

/** floor(n / d) of a BIGINT n for a positive d, exact for any n (DuckDB's // truncates toward 0). */
function floorDiv(n: Sql, d: number): Sql {
  const by = sql.lit(d);
  return sql`((${n}) - (((${n}) % ${by}) + ${by}) % ${by}) // ${by}`;
}

const microsPerDay = 86_400_000_000;
const microsPerUnit = { minute: 60_000_000, hour: 3_600_000_000 } as const;
/** Offset changes past which a zone's wall time is left to ICU (a CASE branch per change per row). */
const maxZoneSpans = 64;

/**
 * DuckDB's buckets group by integers and label the groups after: per row, date_trunc (and on a
 * TIMESTAMPTZ, ICU's time-zone conversion) cost several times what integer arithmetic does
 * (month x region over 10M rows: 277 against 147 ms on a DATE, 1,084 against 233 ms on a
 * TIMESTAMPTZ in UTC). Keys count from 1970: minutes, hours or days (floored, so earlier dates
 * too), ISO weeks from Monday 1970-01-05, months, quarters; years are the year. A TIMESTAMPTZ's
 * wall time is its micros plus the zone's offset (from the offset spans over the data's range,
 * as SQLite's buckets do), read as a TIMESTAMP: arithmetic, no ICU; over more than maxZoneSpans
 * offset changes it is timezone(zone, instant), bound once per key. Below a day buckets are UTC,
 * as on every engine.
 */
async function duckDbBucket({
  ref,
  type,
  grain,
  timeZone,
  localMicros,
}: TimeBucketInput): Promise<TimeBucket> {
  if (grain === "minute" || grain === "hour") {
    const unit = microsPerUnit[grain];
    return {
      key: floorDiv(sql`epoch_us(${ref})`, unit),
      label: (key) =>
        sql`strftime(make_timestamp(${key} * ${sql.lit(unit)}), '%Y-%m-%dT%H:%M:00.000Z')`,
    };
  }
  // A date's day is the date itself: no bucket per row.
  if (type === "date" && grain === "day") return { key: ref, label: null };
  // A TIMESTAMPTZ's wall time in micros: UTC's as stored, another zone's from its offset spans
  // over the data's range (plain arithmetic); null past maxZoneSpans offset changes.
  const wallMicros =
    type === "date"
      ? null
      : timeZone === "UTC"
        ? sql`epoch_us(${ref})`
        : await localMicros(sql`epoch_us(${ref})`, maxZoneSpans);
  // Else the zone's rules through ICU (the zone is a parameter: used once per key).
  const zoned =
    type === "timestamp" && wallMicros === null
      ? sql`timezone(cast(${timeZone} as varchar), ${ref})`
      : null;
  // A value year() and month() read with plain arithmetic.
  const local = type === "date" ? ref : sql`make_timestamp(${wallMicros})`;
  const since = (unit: string) =>
    sql`date_diff(${sql.lit(unit)}, timestamp '1970-01-01', ${zoned})`;
  const days =
    type === "date"
      ? sql`(${ref} - date '1970-01-01')`
      : zoned
        ? since("day")
        : floorDiv(wallMicros as Sql, microsPerDay);
  switch (grain) {
    case "day":
      return { key: days, label: (key) => sql`(date '1970-01-01' + cast(${key} as integer))` };
    case "week":
      // 1970-01-05 was a Monday: ISO weeks start on Monday, as on the other engines. Day counts
      // are far below 2^53, so the float division floors exactly.
      return {
        key: sql`cast(floor((${days} - 4) / 7) as bigint)`,
        label: (key) => sql`(date '1970-01-05' + cast(${key} * 7 as integer))`,
      };
    case "month":
      return {
        key: zoned ? since("month") : sql`((year(${local}) - 1970) * 12 + month(${local}) - 1)`,
        label: (key) =>
          sql`make_date(1970 + ${floorDiv(key, 12)}, ${key} - ${floorDiv(key, 12)} * 12 + 1, 1)`,
      };
    case "quarter":
      return {
        key: zoned ? since("quarter") : sql`((year(${local}) - 1970) * 4 + quarter(${local}) - 1)`,
        label: (key) =>
          sql`make_date(1970 + ${floorDiv(key, 4)}, (${key} - ${floorDiv(key, 4)} * 4) * 3 + 1, 1)`,
      };
    case "year":
      return { key: sql`year(${zoned ?? local})`, label: (key) => sql`make_date(${key}, 1, 1)` };
  }
}

/** The sequence that numbers a DuckDB table's rows. */
const keySequenceOf = (table: string) => sql.id(`${table}_row_seq`);

const duckdb: EngineDialect<"duckdb"> = {
  engine: "duckdb",
  // TIMESTAMPTZ (an instant, kept as UTC micros) rather than a TIMESTAMP holding UTC wall time:
  // `timezone(zone, ts)` then gives the zone's wall time from the instant with ICU's rules, as
  // PostgreSQL's `at time zone` does, and an ISO instant with any offset binds to the right value.
  columnTypes: {
    number: "double",
    string: "varchar",
    boolean: "boolean",
    date: "date",
    timestamp: "timestamptz",
  },
  // DuckDB has no identity columns: a sequence per table. No primary key: its ART index slows
  // bulk loads and forbids ALTER on the column; the sequence alone keeps keys unique.
  rowKey: (id, table) =>
    sql`${sql.id(id)} bigint not null default nextval(${sql.lit(`${table}_row_seq`)})`,
  rowKeyRef: sql`coalesce(${sql.id(rowKeyColumn)}, rowid + 1)`,
  keySequence: (table) => ({
    create: sql`create sequence ${keySequenceOf(table)}`,
    drop: sql`drop sequence if exists ${keySequenceOf(table)}`,
  }),
  timeIndexes: false,
  async clearTable(executor, table) {
    // DuckDB cannot restart a sequence (ALTER SEQUENCE ... RESTART is not implemented) nor drop
    // one a column's default uses: detach, remake, reattach, in the caller's transaction.
    const column = sql.id("_row");
    const name = sql.table(table);
    await sql`delete from ${name}`.execute(executor);
    await sql`alter table ${name} alter ${column} drop default`.execute(executor);
    await sql`drop sequence ${keySequenceOf(table)}`.execute(executor);
    await sql`create sequence ${keySequenceOf(table)}`.execute(executor);
    await sql`alter table ${name} alter ${column} set default nextval(${sql.lit(`${table}_row_seq`)})`.execute(
      executor,
    );
  },
  stored: typedStored,
  param(type, value) {
    if (type === "boolean") return sql`cast(${Boolean(value)} as boolean)`;
    if (type === "date") return sql`cast(${String(value)} as date)`;
    if (type === "timestamp") {
      return sql`cast(${new Date(Date.parse(String(value))).toISOString()} as timestamptz)`;
    }
    if (type === "number") return sql`cast(${Number(value)} as double)`;
    return sql`cast(${String(value)} as varchar)`;
  },
  read(ref, type) {
    // A DATE as it is: the driver reads it as yyyy-mm-dd, and it groups and sorts faster than text.
    if (type === "timestamp") return sql`cast(epoch_ms(${ref}) as double)`;
    if (type === "boolean") return sql`case when ${ref} then 1 when not ${ref} then 0 end`;
    return ref;
  },
  numericX(ref, type) {
    if (type === "number") return ref;
    if (type === "timestamp") return sql`cast(epoch_ms(${ref}) as double)`;
    if (type === "date") return sql`cast((${ref} - date '1970-01-01') * 86400000.0 as double)`;
    return null;
  },
  booleanText: (ref) => sql`case when ${ref} then 'true' when not ${ref} then 'false' end`,
  // VARCHAR compares by bytes unless default_collation is set, which the store never sets.
  textOrder: (expression) => expression,
  binIndex: (position, last) => sql`least(${sql.lit(last)}, cast(floor(${position}) as integer))`,
  ilike: sql`ilike`,
  percentile(ref, p) {
    const sorted = sql`list_sort(list(${ref}) filter (where ${ref} is not null))`;
    return percentileFrom(sql`len(${sorted})`, (index) => sql`${sorted}[${index}]`, p);
  },
  // strlen counts bytes (length counts characters).
  textBytes: (ref) => sql`coalesce(strlen(${ref}), 0)`,
  placeholder: (n) => `$${n}`,
  jsonBatchInsert: false,
  // DuckDB's transactions are optimistic: a conflicting write fails at commit, nothing waits.
  rowLocks: false,
  ...duckdbExpressions,
  resourceFailure(error) {
    // DuckDB stops a query at its memory_limit with an "Out of Memory Error"; the instance and
    // every other query go on.
    const message = error instanceof Error ? error.message : String(error);
    return /out of memory/i.test(message)
      ? "This query needs more memory than the analytical engine may use; add a filter, choose a coarser grain or fewer series."
      : null;
  },
  tableExists: informationSchemaTableExists,
  timeBucket: duckDbBucket,
};

export const dialects: { readonly [E in Engine]: EngineDialect<E> } = { sqlite, postgres, duckdb };

/** The dialect of the database behind an executor. */
export function dialectOf(executor: AnyExecutor): Dialect {
  const adapter = executor.getExecutor().adapter;
  if (adapter instanceof DuckDbAdapter) return duckdb;
  return adapter instanceof PostgresAdapter ? postgres : sqlite;
}
