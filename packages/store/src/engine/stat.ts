import type { Aggregation, QueryFilter, StatComparison } from "@seed/model";
import type { Kysely } from "kysely";
import type { DatasetTable } from "../db/dataset-table.js";
import {
  type RunQueryOptions,
  runAggregate,
  runLastValues,
  timedQuery,
  whyNoValue,
  withinResources,
} from "./execute.js";
import { QueryError } from "./parse.js";
import { relativeChange } from "./result.js";

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/** A stat tile's aggregation (@seed/model's list, the one the tile form offers). */
export type StatAggregation = Aggregation;

export interface StatQuery {
  column: string;
  aggregation: StatAggregation;
  filters?: QueryFilter[];
  /** Compare with the previous period of the tile's relative date filter. */
  compare?: boolean;
  /** With compare: the period just before (the default) or the same dates a year before. */
  compareWith?: StatComparison;
}

export interface StatValue {
  value: number | null;
  /** Why there is no value (no rows in the period, and which), in a sentence; null with a value. */
  empty: string | null;
  /** Fraction of change (-0.12 = -12%) against the previous period (or previous value for "last"). */
  delta: number | null;
  deltaLabel: string | null;
  /** What the change is against (the previous period's value, or the value before); for alerts. */
  previous: number | null;
}

/**
 * A stat tile's value, with a comparison: "last" compares the last two values in row order;
 * `compare` compares with the same aggregate over the previous period of the relative filter.
 */
export function runStat(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  stat: StatQuery,
  options: RunQueryOptions = {},
): Promise<StatValue> {
  return timedQuery("stat", options.observe, () =>
    withinResources(executor, () => runStatUntimed(executor, descriptor, stat, options)),
  );
}

async function runStatUntimed(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  stat: StatQuery,
  options: RunQueryOptions,
): Promise<StatValue> {
  const found = await statValue(executor, descriptor, stat, options);
  if (found.value !== null) return { ...found, empty: null };
  const empty = await whyNoValue(executor, descriptor, stat.column, stat.filters ?? [], options);
  return { ...found, empty };
}

async function statValue(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  stat: StatQuery,
  options: RunQueryOptions,
): Promise<Omit<StatValue, "empty">> {
  const column = descriptor.columns.find((candidate) => candidate.name === stat.column);
  if (!column) {
    throw new QueryError({
      fieldErrors: { column: [`The dataset has no column "${stat.column}".`] },
    });
  }
  const filters = stat.filters ?? [];
  if (stat.aggregation === "last") {
    if (descriptor.remote) {
      throw new QueryError({
        fieldErrors: {
          aggregation: [
            "A live dataset keeps no order of its rows, so it has no last value: choose another aggregation.",
          ],
        },
      });
    }
    const [last, previous] = await runLastValues(
      executor,
      descriptor,
      stat.column,
      filters,
      options,
    );
    const value = last ?? null;
    const delta = relativeChange(value, previous ?? null);
    return {
      value,
      delta,
      deltaLabel: delta === null ? null : "vs previous",
      previous: previous ?? null,
    };
  }
  const value = await measure(executor, descriptor, stat, filters, options);
  const alone = { value, delta: null, deltaLabel: null, previous: null };
  if (!stat.compare) return alone;
  const relative = filters.find((filter) => filter.op === "relative");
  if (relative?.op !== "relative") return alone;
  const lastYear = stat.compareWith === "previous_year";
  const before = lastYear
    ? { ...relative, yearsBack: (relative.yearsBack ?? 0) + 1 }
    : { ...relative, shift: (relative.shift ?? 0) + 1 };
  const previousFilters = filters.map((filter) => (filter === relative ? before : filter));
  const previous = await measure(executor, descriptor, stat, previousFilters, options);
  const delta = relativeChange(value, previous);
  const label = lastYear ? "vs same period last year" : "vs previous period";
  return { value, delta, deltaLabel: delta === null ? null : label, previous };
}

async function measure(
  executor: AnyExecutor,
  descriptor: DatasetTable,
  stat: StatQuery,
  filters: QueryFilter[],
  options: RunQueryOptions,
): Promise<number | null> {
  const aggregate = stat.aggregation === "last" ? "max" : stat.aggregation;
  return runAggregate(executor, descriptor, { column: stat.column, aggregate }, filters, options);
}
