import type { DatePart, TimeUnit } from "@seed/model";
import { type RawBuilder, sql } from "kysely";

// The calculated-field expressions' part of each engine's dialect (db/dialect.ts spreads these
// into its dialect objects): date parts and calendar arithmetic in a zone, rounding, text
// positions and case. Everything else an expression compiles to (engine/expression.ts) is SQL
// every engine reads alike.

type Sql = RawBuilder<unknown>;

/** A date or timestamp value of an expression, with the zone its calendar is read in. */
export interface TimeInput {
  value: Sql;
  type: "date" | "timestamp";
  timeZone: string;
}

/**
 * The calculated-field expressions' engine differences (engine/expression.ts): date parts and
 * calendar arithmetic in a zone, rounding, text positions and case. Everything else an expression
 * compiles to is the same SQL on every engine.
 */
export interface ExpressionDialect {
  /** A date part of a (local) day or time as an integer: ISO week, ISO weekday (Monday 1). */
  datePart(input: TimeInput, part: DatePart): Sql;
  /** The (local) day as days since 1970-01-01. */
  dayNumber(input: TimeInput): Sql;
  /** The (local) month as year * 12 + month - 1. */
  monthNumber(input: TimeInput): Sql;
  /**
   * A date or timestamp moved by `count` (an integer expression) units: days and longer on the
   * local calendar (a month from Jan 31 is the last of February), hours and shorter exactly.
   */
  dateAdd(input: TimeInput, count: Sql, unit: TimeUnit): Sql;
  /** A number rounded to `digits` decimals (negative: tens, hundreds), halves away from zero. */
  round(value: Sql, digits: number): Sql;
  /** The larger of two numbers. */
  greatest(a: Sql, b: Sql): Sql;
  /** Where `part` first starts in `text`, from 1; 0 where it does not occur. */
  textPosition(text: Sql, part: Sql): Sql;
  /** Characters (code points, not bytes) in a text. */
  textLength(text: Sql): Sql;
  /** Whether a text ends with another. */
  endsWith(text: Sql, end: Sql): Sql;
  /** Unicode lower and upper case. */
  lower(text: Sql): Sql;
  upper(text: Sql): Sql;
}

/** Units added as exact durations (ms); the others move along the local calendar. */
const exactUnitMs: Partial<Record<TimeUnit, number>> = {
  hour: 3_600_000,
  minute: 60_000,
  second: 1_000,
};
const calendarMonths: Partial<Record<TimeUnit, number>> = { month: 1, quarter: 3, year: 12 };

/** The extra factor of a unit some engines lack (weeks as 7 days, quarters as 3 months). */
function intervalFactor(unit: TimeUnit): Sql {
  if (unit === "week") return sql` * 7`;
  if (unit === "quarter") return sql` * 3`;
  return sql``;
}

const sqlParts: Record<DatePart, string> = {
  year: "year",
  quarter: "quarter",
  month: "month",
  week: "week",
  day: "day",
  weekday: "isodow",
  hour: "hour",
  minute: "minute",
};
const sqliteParts: Record<DatePart, string> = {
  year: "%Y",
  quarter: "%m",
  month: "%m",
  week: "%V",
  day: "%d",
  weekday: "%u",
  hour: "%H",
  minute: "%M",
};
const pgIntervalUnits: Record<TimeUnit, string> = {
  year: "years",
  quarter: "months",
  month: "months",
  week: "days",
  day: "days",
  hour: "hours",
  minute: "mins",
  second: "secs",
};
const duckIntervals: Record<TimeUnit, string> = {
  year: "to_years",
  quarter: "to_months",
  month: "to_months",
  week: "to_days",
  day: "to_days",
  hour: "to_hours",
  minute: "to_minutes",
  second: "to_seconds",
};

/** SQLite: a timestamp's local wall-clock ms (seed_local_ms, sqlite-functions.ts). */
const sqliteLocalMs = (input: TimeInput) => sql`seed_local_ms(${input.value}, ${input.timeZone})`;
/** SQLite: a date's text, or a timestamp's local time as date-function arguments. */
const sqliteTime = (input: TimeInput) =>
  input.type === "date" ? input.value : sql`${sqliteLocalMs(input)} / 1000.0, 'unixepoch'`;
const pgLocal = (input: TimeInput) => sql`(${input.value} at time zone ${input.timeZone})`;
const duckLocal = (input: TimeInput) =>
  sql`timezone(cast(${input.timeZone} as varchar), ${input.value})`;
/** A date as a timestamp at midnight, a timestamp as the zone's wall time. */
function localTime(input: TimeInput, local: (input: TimeInput) => Sql): Sql {
  return input.type === "date" ? sql`cast(${input.value} as timestamp)` : local(input);
}

export const sqliteExpressions: ExpressionDialect = {
  datePart(input, part) {
    if (part === "quarter") {
      return sql`((cast(strftime('%m', ${sqliteTime(input)}) as integer) + 2) / 3)`;
    }
    return sql`cast(strftime(${sql.lit(sqliteParts[part])}, ${sqliteTime(input)}) as integer)`;
  },
  dayNumber: (input) =>
    input.type === "date"
      ? sql`cast(julianday(${input.value}) - 2440587.5 as integer)`
      : sql`cast(floor(${sqliteLocalMs(input)} / 86400000.0) as integer)`,
  monthNumber(input) {
    const time = sqliteTime(input);
    return sql`(cast(strftime('%Y', ${time}) as integer) * 12 + cast(strftime('%m', ${time}) as integer) - 1)`;
  },
  dateAdd(input, count, unit) {
    const { value, timeZone } = input;
    const exact = exactUnitMs[unit];
    if (exact !== undefined) return sql`(${value} + ${count} * ${sql.lit(exact)})`;
    const days = unit === "day" || unit === "week";
    const modifier = days
      ? sql`(${count} * ${sql.lit(unit === "week" ? 7 : 1)}) || ' days'`
      : sql`(${count} * ${sql.lit(calendarMonths[unit] ?? 1)}) || ' months'`;
    // 'floor': a month from Jan 31 is the end of February, not March 2 or 3.
    if (input.type === "date") return sql`date(${value}, ${modifier}, 'floor')`;
    const local = sqliteLocalMs(input);
    const moved = sql`cast(round(unixepoch(${local} / 1000.0, 'unixepoch', ${modifier}, 'floor', 'subsec') * 1000) as integer)`;
    return sql`seed_utc_ms(${moved}, ${timeZone})`;
  },
  round: (value, digits) =>
    digits >= 0
      ? sql`(round(${value}, ${sql.lit(digits)}) + 0.0)`
      : sql`(round(${value} / ${sql.lit(10 ** -digits)}) * ${sql.lit(10 ** -digits)} + 0.0)`,
  greatest: (a, b) => sql`max(${a}, ${b})`,
  textPosition: (text, part) => sql`instr(${text}, ${part})`,
  textLength: (text) => sql`length(${text})`,
  endsWith: (text, end) => sql`(substr(${text}, length(${text}) - length(${end}) + 1) = ${end})`,
  // SQLite's own lower() and upper() change ASCII letters only: the store's functions (sqlite-functions.ts).
  lower: (text) => sql`seed_lower(${text})`,
  upper: (text) => sql`seed_upper(${text})`,
};

export const postgresExpressions: ExpressionDialect = {
  datePart: (input, part) =>
    sql`extract(${sql.raw(sqlParts[part])} from ${localTime(input, pgLocal)})`,
  dayNumber: (input) => sql`(cast(${localTime(input, pgLocal)} as date) - date '1970-01-01')`,
  monthNumber(input) {
    const local = localTime(input, pgLocal);
    return sql`(extract(year from ${local}) * 12 + extract(month from ${local}) - 1)`;
  },
  dateAdd(input, count, unit) {
    const interval = sql`make_interval(${sql.raw(pgIntervalUnits[unit])} => ${count}${intervalFactor(unit)})`;
    if (exactUnitMs[unit] !== undefined) return sql`(${input.value} + ${interval})`;
    if (input.type === "date") return sql`cast(${input.value} + ${interval} as date)`;
    return sql`((${pgLocal(input)} + ${interval}) at time zone ${input.timeZone})`;
  },
  // round(double precision) rounds halves to even: numeric rounds them away from zero.
  round: (value, digits) =>
    sql`cast(round(cast(${value} as numeric), ${sql.lit(digits)}) as double precision)`,
  greatest: (a, b) => sql`greatest(${a}, ${b})`,
  textPosition: (text, part) => sql`strpos(${text}, ${part})`,
  textLength: (text) => sql`char_length(${text})`,
  endsWith: (text, end) => sql`(right(${text}, char_length(${end})) = ${end})`,
  // The database's own collation may be "C" (ASCII case only): ICU's root locale cases all of Unicode.
  lower: (text) => sql`lower(${text} collate "und-x-icu")`,
  upper: (text) => sql`upper(${text} collate "und-x-icu")`,
};

export const duckdbExpressions: ExpressionDialect = {
  datePart: (input, part) =>
    sql`date_part(${sql.lit(sqlParts[part])}, ${localTime(input, duckLocal)})`,
  dayNumber: (input) => sql`(cast(${localTime(input, duckLocal)} as date) - date '1970-01-01')`,
  monthNumber(input) {
    const local = localTime(input, duckLocal);
    return sql`(year(${local}) * 12 + month(${local}) - 1)`;
  },
  dateAdd(input, count, unit) {
    const interval = sql`${sql.raw(duckIntervals[unit])}(${count}${intervalFactor(unit)})`;
    if (exactUnitMs[unit] !== undefined) return sql`(${input.value} + ${interval})`;
    if (input.type === "date") return sql`cast(${input.value} + ${interval} as date)`;
    return sql`timezone(cast(${input.timeZone} as varchar), ${duckLocal(input)} + ${interval})`;
  },
  // + 0.0 turns the -0 of a small negative number rounded into 0, as numeric rounding gives.
  round: (value, digits) => sql`(round(${value}, ${sql.lit(digits)}) + 0.0)`,
  greatest: (a, b) => sql`greatest(${a}, ${b})`,
  textPosition: (text, part) => sql`strpos(${text}, ${part})`,
  textLength: (text) => sql`length(${text})`,
  endsWith: (text, end) => sql`ends_with(${text}, ${end})`,
  lower: (text) => sql`lower(${text})`,
  upper: (text) => sql`upper(${text})`,
};
