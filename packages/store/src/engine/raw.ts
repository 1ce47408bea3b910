import { type ChartQuery, duplicateXNote, formatDay, queryLimits } from "@seed/model";
import { sql } from "kysely";
import { breakdownRankingStatement, type Compiler, type Sql, seriesRank } from "./compile.js";
import {
  breakdownSeries,
  measureSeries,
  type QueryResult,
  type QueryResultColumn,
  rankKey,
  toNumber,
  toX,
  type Value,
} from "./result.js";

// Raw series (every measure "none"): counted first, then either read row by row (up to the
// chart's points, a query's limit or a live source's row cap) or reduced in the database to the
// lowest and highest value per step of x, so a one-row spike survives however many rows there are.
// Split by a breakdown (a scatter's colours), each row is a point of its group's series and each
// group keeps its own lowest and highest per step.

export async function runRaw(
  compiler: Compiler,
  query: ChartQuery,
  x: QueryResult["x"],
  maxPoints: number,
): Promise<QueryResult> {
  const xColumn = compiler.column(query.x.column);
  const { series, rank } = await rawSeries(compiler, query);
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
    notes.push(duplicateXNote(duplicateX));
  }
  const numericX = compiler.numericX(xColumn);
  const measureRefs = query.measures.map((measure) => compiler.aggregate(measure));
  // A row's values, one per measure; split, its one value goes to its group's series.
  const toRow = (xValue: Value, values: unknown[], group: unknown) => {
    const out: Record<string, Value> = { x: xValue };
    if (rank === null) {
      series.forEach((entry, index) => {
        out[entry.key] = toNumber(values[index]);
      });
      return out;
    }
    for (const entry of series) out[entry.key] = null;
    out[rankKey(Number(group))] = toNumber(values[0]);
    return out;
  };
  const groupColumn = rank === null ? [] : [sql`${rank} as s`];
  // A live table has no row key: ties in x keep the source's order.
  const key = compiler.descriptor.remote ? sql`0` : compiler.dialect.rowKeyRef;
  if (total <= limit || numericX === null || query.limit !== undefined || capped) {
    const xOrder = xColumn.type === "string" ? compiler.textOrder(sql.ref("x")) : sql.ref("x");
    const direction = sql.raw(query.sort?.direction === "desc" ? "desc" : "asc");
    const order =
      query.sort?.by === "value"
        ? sql`${sql.ref(`m${query.sort.measure ?? 0}`)} ${direction} nulls last, ${xOrder} asc nulls last, ${sql.ref("k")}`
        : sql`${xOrder} ${direction} nulls last, ${sql.ref("k")}`;
    const result = await sql<
      Record<string, unknown>
    >`select * from (select ${key} as k, ${compiler.read(xColumn)} as x, ${sql.join([
      ...measureRefs.map((ref, index) => sql`${ref} as ${sql.id(`m${index}`)}`),
      ...groupColumn,
    ])} from ${compiler.table} ${where}) as raw order by ${order} limit ${sql.lit(limit)}`.execute(
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
          query.measures.map((_, index) => row[`m${index}`]),
          row.s,
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
  // Each series keeps two points per step at most, so the steps share the budget among them (a
  // group keeps its lowest and highest point however small the budget). Split, a row without a
  // value is no point.
  const buckets = Math.max(1, Math.floor(limit / (2 * series.length)));
  const pointsOnly = rank === null ? [] : measureRefs.map((ref) => sql`${ref} is not null`);
  const span = hi - lo;
  const position =
    span > 0 && Number.isFinite(span)
      ? sql`(${numericX} - ${sql.lit(lo)}) * ${sql.lit(buckets)} / ${sql.lit(span)}`
      : sql`0`;
  const bucket = compiler.dialect.binIndex(position, buckets - 1);
  const result = await sql<
    Record<string, unknown>
  >`select ${bucket} as b, ${rank ?? sql`0`} as s, min(${numericX}) as x0, max(${numericX}) as x1, ${sql.join(
    measureRefs.flatMap((ref, index) => [
      sql`min(${ref}) as ${sql.id(`lo${index}`)}`,
      sql`max(${ref}) as ${sql.id(`hi${index}`)}`,
    ]),
  )} from ${compiler.table} ${compiler.where(query.filters, [sql`${numericX} is not null`, ...pointsOnly])} group by 1, 2 order by 1, 2`.execute(
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
    const lows = query.measures.map((_, index) => row[`lo${index}`]);
    const highs = query.measures.map((_, index) => row[`hi${index}`]);
    rows.push(toRow(fromNumber(row.x0), lows, row.s));
    if (Number(row.x1) !== Number(row.x0) || lows.some((low, index) => low !== highs[index])) {
      rows.push(toRow(fromNumber(row.x1), highs, row.s));
    }
  }
  notes.push(
    `Downsampled ${total.toLocaleString("en-US")} rows to ${rows.length.toLocaleString("en-US")} points (the lowest and highest value of each step kept).`,
  );
  return { x, series, rows, notes, duplicateX };
}

/**
 * A raw query's series: one per measure, or, split by a breakdown, one per group among the most
 * points (rows with a value), the rest as Other; `rank` says which series a row falls in.
 */
async function rawSeries(
  compiler: Compiler,
  query: ChartQuery,
): Promise<{ series: QueryResultColumn[]; rank: Sql | null }> {
  const breakdown = query.breakdown;
  const measure = query.measures[0];
  if (!breakdown || !measure) return { series: measureSeries(query), rank: null };
  const key = compiler.breakdownKey(compiler.column(breakdown.column));
  const top = breakdown.top ?? queryLimits.maxTop;
  const points = { column: measure.column, aggregate: "count" } as const;
  const ranking = breakdownRankingStatement(compiler, query, points, key, top);
  const ranked = await compiler.executor.executeQuery(ranking.compile(compiler.executor));
  const tops = ranked.rows.slice(0, top).map((row) => row.b);
  return { series: breakdownSeries(tops, ranked.rows.length > top), rank: seriesRank(key, tops) };
}

function dayOfMs(ms: number) {
  const date = new Date(Math.round(ms / 86_400_000) * 86_400_000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}
