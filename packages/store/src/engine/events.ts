import {
  addDays,
  type ChartAnnotationSource,
  type ChartQuery,
  chartLimits,
  type Day,
  dayOf,
  formatDay,
  isIsoDay,
  isTimeType,
  localDay,
  localMidnight,
  shiftBucket,
  subDayGrains,
} from "@seed/model";
import { sql } from "kysely";
import type { TableColumn } from "../db/dataset-table.js";
import type { Compiler, Sql } from "./compile.js";
import { QueryError } from "./parse.js";
import type { QueryResult } from "./result.js";
import { toX } from "./result.js";

// A chart's events read from a dataset (options.annotationSource): the rows whose day, or span
// of days, meets the range the chart shows, oldest first, at most chartLimits.maxSourcedAnnotations.

/** An event as the kit's annotations take it: days (instants on a sub-day axis) and a text. */
export interface ChartEvent {
  at: string;
  to?: string;
  label: string;
}

/** Longest event text passed on: past it, the text is cut and a note says how many were. */
export const maxEventLabel = 200;

/**
 * The days a chart's result covers, [from, to): from the first bucket's day to the day after the
 * last bucket ends. Null when it shows no dated row.
 */
export function shownDays(
  query: Pick<ChartQuery, "x">,
  result: Pick<QueryResult, "rows">,
  timeZone: string,
): { from: Day; to: Day } | null {
  let low: string | null = null;
  let high: string | null = null;
  for (const row of result.rows) {
    const x = row.x;
    if (typeof x !== "string" || Number.isNaN(Date.parse(x))) continue;
    if (low === null || x < low) low = x;
    if (high === null || x > high) high = x;
  }
  if (low === null || high === null) return null;
  const dayOfLabel = (label: string) =>
    isIsoDay(label)
      ? dayOf(Date.parse(`${label}T00:00:00Z`))
      : localDay(timeZone, Date.parse(label));
  const grain = query.x.grain;
  // A bucket of a day or longer ends where the next begins; an instant's day ends the day after.
  const end =
    grain !== undefined && !subDayGrains.includes(grain)
      ? dayOfLabel(shiftBucket(high, grain, 1))
      : addDays(dayOfLabel(high), 1);
  return { from: dayOfLabel(low), to: end };
}

/** A time column's bound at the start of a day: the day itself, or its local midnight's instant. */
function dayBound(compiler: Compiler, column: TableColumn, day: Day, timeZone: string): Sql {
  const value =
    column.type === "date" ? formatDay(day) : new Date(localMidnight(timeZone, day)).toISOString();
  return compiler.param(column, value);
}

function timeColumn(compiler: Compiler, name: string): TableColumn {
  const column = compiler.column(name);
  if (!isTimeType(column.type)) {
    throw new QueryError({
      fieldErrors: { query: [`"${name}" no longer holds dates, so its events cannot be placed.`] },
    });
  }
  return column;
}

/**
 * The events of `source` within `days`, as `subDay` axes place them (instants) or else as days in
 * the zone; `total` is how many there are in the range, of which at most `limit` are read.
 */
export async function readEvents(
  compiler: Compiler,
  source: Pick<ChartAnnotationSource, "at" | "to" | "label">,
  days: { from: Day; to: Day },
  options: { timeZone: string; subDay: boolean; limit?: number },
): Promise<{ events: ChartEvent[]; total: number; cut: number }> {
  const limit = options.limit ?? chartLimits.maxSourcedAnnotations;
  const at = timeColumn(compiler, source.at);
  const to = source.to === undefined ? null : timeColumn(compiler, source.to);
  const label = compiler.column(source.label);
  const atRef = compiler.ref(at);
  const labelRef = compiler.ref(label);
  const toRef = to ? compiler.ref(to) : null;
  const zone = options.timeZone;
  // begins before the range ends, and ends (its last day, else its day) on or after it begins
  const starts = sql`${atRef} < ${dayBound(compiler, at, days.to, zone)}`;
  const fromAt = sql`${atRef} >= ${dayBound(compiler, at, days.from, zone)}`;
  const ends =
    to && toRef
      ? sql`(${fromAt} or ${toRef} >= ${dayBound(compiler, to, days.from, zone)})`
      : fromAt;
  const where = compiler.where(
    [],
    [sql`${atRef} is not null`, sql`${labelRef} is not null`, starts, ends],
  );
  const counted = await sql<{
    n: unknown;
  }>`select count(*) as n from ${compiler.table} ${where}`.execute(compiler.executor);
  const total = Number(counted.rows[0]?.n ?? 0);
  if (total === 0) return { events: [], total, cut: 0 };
  const rows = await sql<{
    a: unknown;
    b: unknown;
    l: unknown;
  }>`select ${compiler.read(at)} as a, ${
    to ? compiler.read(to) : sql`null`
  } as b, ${compiler.read(label)} as l from ${compiler.table} ${where} order by ${atRef} asc, ${compiler.textOrder(
    labelRef,
  )} asc${toRef ? sql`, ${toRef} asc nulls last` : sql``} limit ${sql.lit(limit)}`.execute(
    compiler.executor,
  );
  const when = (column: TableColumn, value: unknown): string | null => {
    const read = toX(column.type, undefined, value);
    if (typeof read !== "string") return null;
    if (column.type === "date" || options.subDay) return read;
    return formatDay(localDay(zone, Date.parse(read)));
  };
  let cut = 0;
  const events: ChartEvent[] = [];
  for (const row of rows.rows) {
    const first = when(at, row.a);
    const text = typeof row.l === "string" ? row.l.trim() : String(row.l ?? "").trim();
    if (first === null || text === "") continue;
    const last = to ? when(to, row.b) : null;
    const long = [...text].length > maxEventLabel;
    if (long) cut++;
    events.push({
      at: first,
      ...(last !== null ? { to: last } : {}),
      label: long ? `${[...text].slice(0, maxEventLabel - 1).join("")}…` : text,
    });
  }
  return { events, total, cut };
}
