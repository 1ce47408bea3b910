"use client";

import {
  breakdownColumnTypes,
  type ChartType,
  chartTypeSpecs,
  chartTypes,
  drawsOneMeasure,
  formMeasureNames,
  formSeriesCount,
  formSplits,
  groupsRest,
  type QueryAggregate,
  queryLimits,
  type SortChoice,
  showsFor,
  splitsByBreakdown,
  subDayGrains,
  type TimeGrain,
  timeGrains,
} from "@seed/model";
import { useId, useRef } from "react";
import styles from "@/components/admin/admin.module.css";
import { ExpressionHelp, expressionCheck } from "@/components/admin/expression-help";
import {
  ChoiceField,
  describedBy,
  errorsWhere,
  FieldMessages,
  SelectField,
  TextAreaField,
} from "@/components/admin/form-controls";
import { FormField } from "@/components/form-field";
import {
  type DatasetChoice,
  withAggregate,
  withBreakdown,
  withDataset,
  withIndexColumn,
  withSeries,
  withType,
} from "./draft";
import { aggregateLabels, showLabels } from "./labels";
import { MoreMeasures } from "./more-measures";
import { FilterList, measureConditionList, measurePathIndex } from "./query-filters";
import type { SectionProps } from "./section-props";

// The chart form's query: type, dataset, index column and grouping, series, split, filters, order
// and limit.

const sortLabels: Record<SortChoice, string> = {
  x_asc: "x ascending",
  x_desc: "x descending",
  value_desc: "largest value first",
  value_asc: "smallest value first",
};

const grainLabels: Record<TimeGrain, string> = {
  minute: "Minute",
  hour: "Hour",
  day: "Day",
  week: "Week (from Monday)",
  month: "Month",
  quarter: "Quarter",
  year: "Year",
};

/** What the index column is called where it is no x axis. */
const indexLabels: Partial<Record<string, string>> = {
  pie: "Slice names (index column)",
  table: "Index column (each row's name)",
  scatter: "X axis (numbers or dates)",
  calendar: "Days (a date column)",
};

export function QuerySection({
  draft,
  columns,
  errors,
  setDraft,
  update,
  datasets,
}: SectionProps & { datasets: DatasetChoice[] }) {
  const seriesId = useId();
  const numberColumns = columns.filter(
    (column) => column.type === "number" && column.name !== draft.indexColumn,
  );

  function chooseDataset(datasetId: string) {
    const next = datasets.find((candidate) => candidate.id === datasetId);
    setDraft((current) => withDataset(current, next));
  }

  const filterKeys = useRef(draft.filters.length);
  const conditionKeys = useRef(draft.measureWhere.length);
  const breakdownColumns = columns.filter(
    (column) => breakdownColumnTypes.includes(column.type) && column.name !== draft.indexColumn,
  );
  const canBreakdown = splitsByBreakdown(draft.type, draft.aggregate === "none");
  const xType = columns.find((column) => column.name === draft.indexColumn)?.type;
  const { accepts } = chartTypeSpecs[draft.type];
  const grains = (
    !accepts.grain
      ? []
      : xType === "timestamp"
        ? timeGrains
        : xType === "date"
          ? timeGrains.filter((grain) => !subDayGrains.includes(grain))
          : []
  ).filter((grain) => accepts.grains === undefined || accepts.grains.includes(grain));
  // Other groups the categories past the limit; a breakdown has its own Other (its series).
  const otherErrorsId = useId();
  const otherErrors = Object.entries(errors).flatMap(([key, messages]) =>
    key === "query.other" ? (messages ?? []) : [],
  );
  const canGroupRest = groupsRest(draft, columns);
  const queryError = (prefix: string) =>
    Object.entries(errors).flatMap(([key, messages]) =>
      key.startsWith(prefix) ? (messages ?? []) : [],
    );
  // Query problems come back by path ("query.measures.0.aggregate"); each control shows its own.
  // The series columns' measures come first; the measures after them show theirs in their rows.
  const seriesCount = formSeriesCount(draft);
  const seriesMeasureErrors = (keep: (key: string) => boolean) =>
    errorsWhere(errors, (key) => {
      const measure = measurePathIndex(key);
      const ours = key === "query.measures" || (measure !== null && measure < seriesCount);
      return ours && keep(key);
    });
  const indexErrors = [...(errors.indexColumn ?? []), ...queryError("query.x.column")];
  const aggregateErrors = seriesMeasureErrors((key) => key.endsWith(".aggregate"));
  const seriesErrors = [
    ...(errors.seriesColumns ?? []),
    ...seriesMeasureErrors(
      (key) =>
        !key.endsWith(".aggregate") &&
        !key.endsWith(".show") &&
        !key.endsWith(".formula") &&
        !key.endsWith(".label") &&
        !key.includes(".where"),
    ),
  ];
  const formulaErrors = seriesMeasureErrors((key) => key.endsWith(".formula"));
  const showErrors = seriesMeasureErrors((key) => key.endsWith(".show"));
  const measureNames = formMeasureNames(draft, columns);

  return (
    <>
      <SelectField
        id="chart-type"
        name="type"
        label="Type"
        value={draft.type}
        onChange={(event) => {
          // Read now: React clears currentTarget once the handler returns, before an updater runs.
          const type = event.currentTarget.value as ChartType;
          setDraft((current) => withType(current, type, columns));
        }}
        errors={errors.type}
      >
        {chartTypes.map((type) => (
          <option key={type} value={type}>
            {chartTypeSpecs[type].label}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="chart-dataset"
        name="datasetId"
        label="Dataset"
        value={draft.datasetId}
        onChange={(event) => chooseDataset(event.currentTarget.value)}
        errors={errors.datasetId}
      >
        {datasets.length === 0 ? <option value="">No datasets yet</option> : null}
        {datasets.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="chart-index"
        name="indexColumn"
        label={indexLabels[draft.type] ?? "Index column (x axis)"}
        value={draft.indexColumn}
        onChange={(event) => {
          const indexColumn = event.currentTarget.value;
          setDraft((current) => withIndexColumn(current, indexColumn));
        }}
        errors={indexErrors}
      >
        <option value="">Choose a column</option>
        {columns.map((column) => (
          <option key={column.name} value={column.name}>
            {column.name} ({column.type})
          </option>
        ))}
      </SelectField>
      {grains.length > 0 ? (
        <SelectField
          id="chart-grain"
          name="grain"
          label="Group dates by"
          value={draft.grain}
          onChange={(event) => update("grain", event.currentTarget.value as TimeGrain | "")}
          errors={queryError("query.x.grain")}
        >
          <option value="">Exact values</option>
          {grains.map((grain) => (
            <option key={grain} value={grain}>
              {grainLabels[grain]}
            </option>
          ))}
        </SelectField>
      ) : null}
      <ChoiceField
        id="chart-aggregate"
        name="aggregate"
        label="Combine rows with"
        value={draft.aggregate}
        choices={Object.keys(aggregateLabels) as QueryAggregate[]}
        labels={aggregateLabels}
        onChoose={(aggregate) => setDraft((current) => withAggregate(current, aggregate))}
        errors={aggregateErrors}
      />
      {draft.aggregate !== "none" ? (
        <ChoiceField
          id="chart-show"
          name="show"
          label="Show values as"
          value={draft.show}
          choices={showsFor(draft.aggregate)}
          labels={showLabels}
          onChoose={(show) => update("show", show)}
          errors={showErrors}
        />
      ) : null}
      {draft.aggregate === "formula" ? (
        <>
          <TextAreaField
            id="chart-formula"
            name="formula"
            label="Formula"
            rows={2}
            spellCheck={false}
            className="code-input"
            value={draft.formula}
            onChange={(event) => update("formula", event.currentTarget.value)}
            hint={expressionCheck(draft.formula, columns, "formula")}
            errors={formulaErrors}
          />
          <ExpressionHelp columns={columns} mode="formula" />
        </>
      ) : (
        <fieldset
          className={styles.fieldset}
          aria-describedby={describedBy(seriesId, seriesErrors)["aria-describedby"]}
        >
          <legend>
            {draft.type === "pie"
              ? "Value column (one)"
              : draft.type === "calendar"
                ? "Value column (one, colouring each day)"
                : draft.type === "table"
                  ? "Value columns"
                  : draft.type === "scatter"
                    ? draft.breakdown
                      ? "Y axis (one)"
                      : "Y axis, then point size (up to two)"
                    : draft.type === "combo"
                      ? "Series columns (two or more, with the measures below)"
                      : "Series columns"}
          </legend>
          {numberColumns.length === 0 ? (
            <p className="muted">This dataset has no other number columns to draw.</p>
          ) : (
            <div className={styles.checkRow}>
              {numberColumns.map((column) => (
                <label key={column.name}>
                  <input
                    type={drawsOneMeasure(draft) ? "radio" : "checkbox"}
                    name="seriesColumns"
                    value={column.name}
                    checked={draft.seriesColumns.includes(column.name)}
                    onChange={(event) => {
                      const { checked } = event.currentTarget;
                      setDraft((current) => withSeries(current, column.name, checked));
                    }}
                  />
                  {column.name}
                </label>
              ))}
            </div>
          )}
          <FieldMessages id={seriesId} errors={seriesErrors} />
        </fieldset>
      )}
      {canBreakdown ? (
        <SelectField
          id="chart-breakdown"
          name="breakdown"
          label={draft.type === "scatter" ? "Colour points by" : "Split into series by"}
          value={draft.breakdown}
          onChange={(event) => {
            const breakdown = event.currentTarget.value;
            setDraft((current) => withBreakdown(current, breakdown));
          }}
          errors={queryError("query.breakdown")}
        >
          <option value="">No split</option>
          {breakdownColumns.map((column) => (
            <option key={column.name} value={column.name}>
              {column.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      {canBreakdown && draft.breakdown ? (
        <FormField
          name="top"
          label={
            draft.type === "scatter"
              ? "Colours to show (the rest is Other)"
              : "Series to show (the rest is Other)"
          }
          id="chart-top"
          type="number"
          min={1}
          max={queryLimits.maxTop}
          value={draft.top}
          onChange={(event) => update("top", event.currentTarget.value)}
          errors={queryError("query.breakdown.top")}
        />
      ) : null}
      {draft.aggregate !== "none" ? (
        <FilterList
          kind={measureConditionList(0, seriesCount)}
          filters={draft.measureWhere}
          columns={columns}
          errors={errors}
          onChange={(measureWhere) => update("measureWhere", measureWhere)}
          nextKey={() => {
            conditionKeys.current += 1;
            return conditionKeys.current;
          }}
        />
      ) : null}
      <MoreMeasures {...{ draft, columns, errors, setDraft, update }} first={seriesCount} />
      <FilterList
        filters={draft.filters}
        columns={columns}
        errors={errors}
        onChange={(filters) => update("filters", filters)}
        nextKey={() => {
          filterKeys.current += 1;
          return filterKeys.current;
        }}
      />
      <ChoiceField
        id="chart-sort"
        name="sort"
        label="Order"
        value={draft.sort}
        choices={Object.keys(sortLabels) as SortChoice[]}
        labels={sortLabels}
        onChoose={(sort) => update("sort", sort)}
        errors={queryError("query.sort").filter(
          (message) => !queryError("query.sort.measure").includes(message),
        )}
      />
      {draft.sort.startsWith("value") && measureNames.length > 1 && !formSplits(draft) ? (
        <SelectField
          id="chart-sort-measure"
          name="sortMeasure"
          label="Ordered by the values of"
          value={draft.sortMeasure}
          onChange={(event) => update("sortMeasure", event.currentTarget.value)}
          errors={queryError("query.sort.measure")}
        >
          {measureNames.map((name, index) => (
            <option key={index} value={String(index)}>
              {name}
            </option>
          ))}
        </SelectField>
      ) : null}
      <FormField
        name="limit"
        label="Show at most (groups, optional)"
        id="chart-limit"
        type="number"
        min={1}
        max={queryLimits.maxLimit}
        value={draft.limit}
        onChange={(event) => update("limit", event.currentTarget.value)}
        errors={queryError("query.limit")}
      />
      {canGroupRest ? (
        <div className={styles.checkRow}>
          <label>
            <input
              type="checkbox"
              name="other"
              checked={draft.other}
              {...describedBy(otherErrorsId, otherErrors)}
              onChange={(event) => update("other", event.currentTarget.checked)}
            />
            Group the rest into Other
          </label>
          <FieldMessages id={otherErrorsId} errors={otherErrors} />
        </div>
      ) : null}
    </>
  );
}
