"use client";

import type { QueryColumn } from "@seed/model";
import {
  aggregationLabels,
  aggregations,
  isTimeType,
  relativeAnchors,
  type StatComparison,
  statComparisons,
  textLimits,
  thresholdLimits,
  thresholdTones,
} from "@seed/model";
import { useState } from "react";
import { addStatTile } from "@/app/admin/dashboards/actions";
import styles from "@/components/admin/admin.module.css";
import { FormMessages, SelectField } from "@/components/admin/form-controls";
import { IconPicker } from "@/components/admin/icon-picker";
import { FormField } from "@/components/form-field";
import { anchorLabels } from "@/features/chart-editor/query-filters";
import { useTileChangeForm } from "./editor-state";
import { RecordFields } from "./record-fields";

const comparisonLabels: Record<StatComparison, string> = {
  previous_period: "the period just before",
  previous_year: "the same period a year before",
};

type StatDatasets = { id: string; name: string; columns: QueryColumn[] }[];

/** Adds a stat tile in place; its fields empty for the next one. */
export function AddStatTileForm({ datasets }: { datasets: StatDatasets }) {
  const { state, pending, onSubmit, changes } = useTileChangeForm(addStatTile);
  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Add a stat tile">
      <RecordFields />
      <FormMessages state={state} />
      <StatTileFields key={changes} datasets={datasets} errors={state.fieldErrors ?? {}} />
      <div>
        <button type="submit" className="button" disabled={pending}>
          Add stat tile
        </button>
      </div>
    </form>
  );
}

function StatTileFields({
  datasets,
  errors,
}: {
  datasets: StatDatasets;
  errors: Partial<Record<string, string[]>>;
}) {
  const [datasetId, setDatasetId] = useState("");
  const [formatStyle, setFormatStyle] = useState("");
  const columns = datasets.find((dataset) => dataset.id === datasetId)?.columns ?? [];
  const dateColumns = columns.filter((column) => isTimeType(column.type));
  const [periodColumn, setPeriodColumn] = useState("");
  return (
    <>
      <FormField
        name="label"
        label="Label"
        id="stat-label"
        maxLength={textLimits.statLabel}
        errors={errors.label}
      />
      <SelectField
        id="stat-dataset"
        name="datasetId"
        label="Dataset"
        value={datasetId}
        onChange={(event) => setDatasetId(event.currentTarget.value)}
        errors={errors.datasetId}
      >
        <option value="">Choose a dataset</option>
        {datasets.map((dataset) => (
          <option key={dataset.id} value={dataset.id}>
            {dataset.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="stat-column"
        name="column"
        label="Column"
        defaultValue=""
        key={datasetId}
        errors={errors.column}
      >
        <option value="">{datasetId ? "Choose a column" : "Choose a dataset first"}</option>
        {columns.map((column) => (
          <option key={column.name} value={column.name}>
            {column.name} ({column.type})
          </option>
        ))}
      </SelectField>
      <SelectField
        id="stat-aggregation"
        name="aggregation"
        label="Aggregation"
        defaultValue="sum"
        errors={errors.aggregation}
      >
        {aggregations.map((aggregation) => (
          <option key={aggregation} value={aggregation}>
            {aggregationLabels[aggregation]}
          </option>
        ))}
      </SelectField>
      <fieldset className={styles.fieldset}>
        <legend>Period (optional)</legend>
        <div className={styles.checkRow}>
          <label>
            Dates from
            <select
              name="periodColumn"
              value={periodColumn}
              onChange={(event) => setPeriodColumn(event.currentTarget.value)}
            >
              <option value="">All rows</option>
              {dateColumns.map((column) => (
                <option key={column.name} value={column.name}>
                  {column.name}
                </option>
              ))}
            </select>
          </label>
          {periodColumn ? (
            <>
              <label>
                Range
                <select name="periodWhich" defaultValue="previous">
                  <option value="last_n">the last</option>
                  <option value="this">this</option>
                  <option value="previous">the previous</option>
                </select>
              </label>
              <label>
                How many (for "the last")
                <input name="periodN" type="number" min={1} max={10_000} defaultValue={30} />
              </label>
              <label>
                Unit
                <select name="periodUnit" defaultValue="month">
                  {["day", "week", "month", "quarter", "year"].map((unit) => (
                    <option key={unit} value={unit}>
                      {unit}s
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Counted back from
                <select name="periodAnchor" defaultValue="today">
                  {relativeAnchors.map((anchor) => (
                    <option key={anchor} value={anchor}>
                      {anchorLabels[anchor]}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                <input type="checkbox" name="compare" defaultChecked /> Compare with the period
                before
              </label>
              <label>
                Compared with
                <select name="compareWith" defaultValue="previous_period">
                  {statComparisons.map((comparison) => (
                    <option key={comparison} value={comparison}>
                      {comparisonLabels[comparison]}
                    </option>
                  ))}
                </select>
              </label>
            </>
          ) : null}
        </div>
      </fieldset>
      <SelectField
        id="stat-format-style"
        name="formatStyle"
        label="Number format"
        value={formatStyle}
        onChange={(event) => setFormatStyle(event.currentTarget.value)}
        errors={errors["format.style"]}
      >
        <option value="">Automatic</option>
        <option value="decimal">Decimal</option>
        <option value="percent">Percent</option>
        <option value="currency">Currency</option>
      </SelectField>
      {formatStyle === "currency" ? (
        <FormField
          name="formatCurrency"
          label="Currency code"
          id="stat-format-currency"
          hint="Three letters, e.g. USD or EUR; empty writes US dollars (stat tiles write numbers as en-US)."
          maxLength={3}
          errors={errors["format.currency"]}
        />
      ) : null}
      {formatStyle !== "" ? (
        <FormField
          name="formatMaxDigits"
          label="Most decimal places"
          id="stat-format-digits"
          inputMode="numeric"
          errors={errors["format.maximumFractionDigits"]}
        />
      ) : null}
      <ThresholdFields errors={errors} />
      <IconPicker
        id="stat-icon"
        name="icon"
        legend="Stat icon"
        defaultValue={null}
        errors={errors.icon}
      />
    </>
  );
}

const toneWords: Record<(typeof thresholdTones)[number], string> = {
  good: "Good (green)",
  warning: "Warning (amber)",
  bad: "Bad (red)",
};

/** Two rule rows, e.g. below 1000 is bad, at or above 1000 is good; blank rows are left out. */
function ThresholdFields({ errors }: { errors: Partial<Record<string, string[]>> }) {
  const rows = [
    { when: "below", tone: "bad" },
    { when: "at_or_above", tone: "good" },
  ] as const;
  return (
    <fieldset className={styles.fieldset}>
      <legend>Targets (optional)</legend>
      <p className="muted">
        Colour the value against a target; the value also gets an icon and words such as "below
        target", so colour is never the only sign. Where several rules apply, the one whose value is
        nearest wins.
      </p>
      {errors.thresholds ? <p className="field-error">{errors.thresholds.join(" ")}</p> : null}
      {rows.map((row, index) => (
        <div key={row.when} className={styles.checkRow}>
          <SelectField
            id={`threshold-when-${index}`}
            name={`thresholdWhen.${index}`}
            label={`Rule ${index + 1}: when the value is`}
            defaultValue={row.when}
            errors={errors[`thresholds.${index}.when`]}
          >
            <option value="below">below</option>
            <option value="at_or_above">at or above</option>
          </SelectField>
          <FormField
            name={`thresholdValue.${index}`}
            id={`threshold-value-${index}`}
            label={`Rule ${index + 1}: target`}
            inputMode="decimal"
            errors={errors[`thresholds.${index}.value`]}
          />
          <SelectField
            id={`threshold-tone-${index}`}
            name={`thresholdTone.${index}`}
            label={`Rule ${index + 1}: show as`}
            defaultValue={row.tone}
            errors={errors[`thresholds.${index}.tone`]}
          >
            {thresholdTones.map((tone) => (
              <option key={tone} value={tone}>
                {toneWords[tone]}
              </option>
            ))}
          </SelectField>
          <FormField
            name={`thresholdLabel.${index}`}
            id={`threshold-label-${index}`}
            label={`Rule ${index + 1}: words (optional)`}
            maxLength={thresholdLimits.maxLabelLength}
            errors={errors[`thresholds.${index}.label`]}
          />
        </div>
      ))}
    </fieldset>
  );
}
