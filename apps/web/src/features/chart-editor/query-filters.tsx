"use client";

import {
  type FilterForm,
  type FilterOperator,
  type FormColumn,
  filterOperatorsByType,
  newFilterForm,
  queryLimits,
  type RelativeAnchor,
  type RelativeKind,
  type RelativeUnit,
  relativeAnchors,
  relativeKinds,
  relativeUnits,
} from "@seed/model";
import styles from "@/components/admin/admin.module.css";
import { errorsWhere, FieldMessages } from "@/components/admin/form-controls";

// The chart editor's filter rows: a column, an operator that fits its type, and the value(s).

export const operatorLabels: Record<FilterOperator, string> = {
  eq: "equals",
  neq: "does not equal",
  in: "is one of (comma-separated)",
  lt: "is less than",
  lte: "is at most",
  gt: "is greater than",
  gte: "is at least",
  between: "is between",
  empty: "is empty",
  not_empty: "is not empty",
  relative: "is in a relative range",
};

/** What a relative range counts back from, as the filter row offers it. */
export const anchorLabels: Record<RelativeAnchor, string> = {
  today: "today",
  latest: "the newest value in the data",
};

const whichLabels: Record<RelativeKind, string> = {
  last_n: "the last",
  this: "this",
  previous: "the previous",
};

function operatorsFor(type: FormColumn["type"] | undefined): readonly FilterOperator[] {
  return filterOperatorsByType[type ?? "string"];
}

/** What a list of filter rows is for: the query's filters, or the rows its measures count. */
export interface FilterListKind {
  legend: string;
  /** One row, as buttons and row legends name it: "filter", "condition". */
  noun: string;
  /** Shown while the list is empty. */
  empty: string;
  /** Ids of the rows' controls start with this. */
  idPrefix: string;
  max: number;
  /** Whether a query problem's path (query.filters.0.value) is about row `index`. */
  errorOf: (path: string, index: number) => boolean;
}

/** The query's own filters. */
export const queryFilterList: FilterListKind = {
  legend: "Filters",
  noun: "filter",
  empty: "Every row counts.",
  idPrefix: "chart-filter",
  max: queryLimits.maxFilters,
  errorOf: (path, index) =>
    path === `query.filters.${index}` || path.startsWith(`query.filters.${index}.`),
};

/** Which measure a query problem's path (query.measures.2.where.0.value) is about, if any. */
export function measurePathIndex(path: string): number | null {
  const match = /^query\.measures\.(\d+)(\.|$)/.exec(path);
  return match ? Number(match[1]) : null;
}

/**
 * The conditions a group of measures' rows pass ("count where"): the series columns' measures
 * share one list, each further measure has its own. The store checks them per measure.
 */
export function measureConditionList(
  first: number,
  count: number,
  idPrefix = "chart-condition",
): FilterListKind {
  return {
    legend: "Combine only rows where",
    noun: "condition",
    empty:
      count > 1
        ? "Each measure combines every row the filters keep."
        : "Every row the filters keep counts.",
    idPrefix,
    max: queryLimits.maxMeasureFilters,
    errorOf: (path, index) => {
      const measure = measurePathIndex(path);
      return (
        measure !== null &&
        measure >= first &&
        measure < first + count &&
        new RegExp(`^query\\.measures\\.\\d+\\.where\\.${index}(\\.|$)`).test(path)
      );
    },
  };
}

export function FilterList({
  kind = queryFilterList,
  filters,
  columns,
  errors,
  onChange,
  nextKey,
}: {
  kind?: FilterListKind;
  filters: FilterForm[];
  columns: readonly FormColumn[];
  errors: Record<string, string[] | undefined>;
  onChange: (filters: FilterForm[]) => void;
  nextKey: () => number;
}) {
  const update = (key: number, patch: Partial<FilterForm>) =>
    onChange(filters.map((filter) => (filter.key === key ? { ...filter, ...patch } : filter)));
  const Noun = kind.noun.charAt(0).toUpperCase() + kind.noun.slice(1);
  return (
    <fieldset className={styles.fieldset}>
      <legend>{kind.legend}</legend>
      {filters.length === 0 ? <p className="muted">{kind.empty}</p> : null}
      {filters.map((filter, index) => {
        const prefix = `${kind.idPrefix}-${filter.key}`;
        const type = columns.find((column) => column.name === filter.column)?.type;
        // A problem of every measure's copy of a condition is shown once.
        const fieldErrors = errorsWhere(errors, (path) => kind.errorOf(path, index));
        return (
          <fieldset key={filter.key} className={styles.checkRow}>
            <legend>
              {Noun} {index + 1}
            </legend>
            <label>
              Column
              <select
                id={`${prefix}-column`}
                value={filter.column}
                onChange={(event) => {
                  const column = event.currentTarget.value;
                  const nextType = columns.find((candidate) => candidate.name === column)?.type;
                  const ops = operatorsFor(nextType);
                  update(filter.key, {
                    column,
                    op: ops.includes(filter.op) ? filter.op : (ops[0] ?? "eq"),
                  });
                }}
              >
                {columns.map((column) => (
                  <option key={column.name} value={column.name}>
                    {column.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Condition
              <select
                id={`${prefix}-op`}
                value={filter.op}
                onChange={(event) =>
                  update(filter.key, { op: event.currentTarget.value as FilterOperator })
                }
              >
                {operatorsFor(type).map((op) => (
                  <option key={op} value={op}>
                    {operatorLabels[op]}
                  </option>
                ))}
              </select>
            </label>
            {filter.op === "relative" ? (
              <>
                <label>
                  Range
                  <select
                    value={filter.which}
                    onChange={(event) =>
                      update(filter.key, { which: event.currentTarget.value as RelativeKind })
                    }
                  >
                    {relativeKinds.map((which) => (
                      <option key={which} value={which}>
                        {whichLabels[which]}
                      </option>
                    ))}
                  </select>
                </label>
                {filter.which === "last_n" ? (
                  <label>
                    How many
                    <input
                      type="number"
                      min={1}
                      max={queryLimits.maxLastN}
                      value={filter.n}
                      onChange={(event) => update(filter.key, { n: event.currentTarget.value })}
                    />
                  </label>
                ) : null}
                <label>
                  Unit
                  <select
                    value={filter.unit}
                    onChange={(event) =>
                      update(filter.key, { unit: event.currentTarget.value as RelativeUnit })
                    }
                  >
                    {relativeUnits.map((unit) => (
                      <option key={unit} value={unit}>
                        {unit}s
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  Counted back from
                  <select
                    value={filter.anchor}
                    onChange={(event) =>
                      update(filter.key, { anchor: event.currentTarget.value as RelativeAnchor })
                    }
                  >
                    {relativeAnchors.map((anchor) => (
                      <option key={anchor} value={anchor}>
                        {anchorLabels[anchor]}
                      </option>
                    ))}
                  </select>
                </label>
              </>
            ) : filter.op === "empty" || filter.op === "not_empty" ? null : (
              <>
                <label>
                  {filter.op === "between" ? "From" : "Value"}
                  <input
                    value={filter.value}
                    maxLength={filter.op === "in" ? 2_000 : queryLimits.maxFilterText}
                    onChange={(event) => update(filter.key, { value: event.currentTarget.value })}
                  />
                </label>
                {filter.op === "between" ? (
                  <label>
                    To
                    <input
                      value={filter.to}
                      maxLength={queryLimits.maxFilterText}
                      onChange={(event) => update(filter.key, { to: event.currentTarget.value })}
                    />
                  </label>
                ) : null}
              </>
            )}
            <button
              type="button"
              className="button button-secondary"
              aria-label={`Remove ${kind.noun} ${index + 1}`}
              onClick={() => onChange(filters.filter((candidate) => candidate.key !== filter.key))}
            >
              Remove
            </button>
            <FieldMessages id={`${prefix}-errors`} errors={fieldErrors} />
          </fieldset>
        );
      })}
      {filters.length < kind.max ? (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => onChange([...filters, newFilterForm(nextKey(), columns)])}
        >
          Add a {kind.noun}
        </button>
      ) : null}
    </fieldset>
  );
}
