"use client";

import {
  type CurveType,
  chartLocales,
  chartTypeSpecs,
  curveTypes,
  type DateFormat,
  dateFormats,
  type FormatStyle,
  formQuery,
  formShape,
  type GapMode,
  gapModes,
  type LegendPosition,
  legendPositions,
  measureLabel,
  offeredOptions,
  type StackMode,
  tablePageSizes,
  type ValueLabelMode,
  type XNumberFormat,
  xNumberFormats,
} from "@seed/model";
import styles from "@/components/admin/admin.module.css";
import { ChoiceField, SelectField } from "@/components/admin/form-controls";
import { chartLocaleLabels } from "@/components/chart-format";
import { FormField } from "@/components/form-field";
import { AnnotationList } from "./annotation-list";
import { AnnotationSourceFields } from "./annotation-source";
import { ColorRuleList } from "./color-rule-list";
import { ComboSeriesList } from "./combo-series-list";
import type { DatasetChoice } from "./draft";
import type { SectionProps } from "./section-props";

// The chart form's drawing options: only those the chart types table offers for this query.

const stackLabels: Record<StackMode, string> = {
  none: "Side by side",
  stacked: "Stacked",
  percent: "Stacked to 100%",
};

const legendLabels: Record<LegendPosition | "hidden", string> = {
  bottom: "Below the chart",
  top: "Above the chart",
  left: "Left of the chart",
  right: "Right of the chart",
  hidden: "Hidden",
};

const valueLabelLabels: Record<ValueLabelMode, string> = {
  none: "None",
  value: "Values",
  percent: "Share of the total (%)",
  name: "Slice names",
};

const dateFormatLabels: Record<DateFormat, string> = {
  day: "Day (e.g. 03/01/2024)",
  month: "Month (e.g. Mar 2024)",
  year: "Year (e.g. 2024)",
};

const xNumberFormatLabels: Record<XNumberFormat, string> = {
  auto: "Automatic (years as 1900, other numbers grouped as the locale writes them: 12,500)",
  plain: "Plain, without separators (e.g. 1900, for years)",
};

const pageSizeChoices = tablePageSizes.map((size) => `${size}` as const);
const pageSizeLabels = Object.fromEntries(
  pageSizeChoices.map((size) => [size, `${size} rows`]),
) as Record<(typeof pageSizeChoices)[number], string>;

const gapLabels: Record<GapMode, string> = {
  break: "Leave a gap (the line breaks where a period has no data)",
  connect: "Connect across them (a straight line over the missing periods)",
};

export function OptionsSection({
  draft,
  columns,
  errors,
  update,
  datasets,
}: SectionProps & { datasets: readonly DatasetChoice[] }) {
  // Options come from the one table of chart types, narrowed to what this query draws.
  const offered = new Set(offeredOptions(draft.type, formShape(draft, columns)));
  const valueLabelModes = chartTypeSpecs[draft.type].valueLabels;
  return (
    <fieldset className={styles.fieldset}>
      <legend>Options</legend>
      <div className={styles.checkRow}>
        {offered.has("stack") ? (
          <label>
            Stacking
            <select
              name="stack"
              value={draft.stack}
              onChange={(event) => update("stack", event.currentTarget.value as StackMode)}
            >
              {(Object.keys(stackLabels) as StackMode[]).map((mode) => (
                <option key={mode} value={mode}>
                  {stackLabels[mode]}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {offered.has("horizontal") ? (
          <label>
            <input
              type="checkbox"
              name="horizontal"
              checked={draft.horizontal}
              onChange={(event) => update("horizontal", event.currentTarget.checked)}
            />
            Horizontal bars
          </label>
        ) : null}
        {offered.has("donut") ? (
          <label>
            <input
              type="checkbox"
              name="donut"
              checked={draft.donut}
              onChange={(event) => update("donut", event.currentTarget.checked)}
            />
            Donut (hole with the total)
          </label>
        ) : null}
      </div>
      {offered.has("comboSeries") ? (
        <ComboSeriesList
          series={draft.comboSeries}
          measures={formQuery(draft, columns).measures.map((measure) => measureLabel(measure))}
          errors={errors}
          onChange={(comboSeries) => update("comboSeries", comboSeries)}
        />
      ) : null}
      {offered.has("showLegend") ? (
        <ChoiceField
          id="chart-legend"
          name="legend"
          label="Legend"
          value={draft.legend}
          choices={[...legendPositions, "hidden" as const]}
          labels={legendLabels}
          onChoose={(legend) => update("legend", legend)}
          errors={[...(errors.legendPosition ?? []), ...(errors.showLegend ?? [])]}
        />
      ) : null}
      {offered.has("valueLabels") ? (
        <ChoiceField
          id="chart-value-labels"
          name="valueLabels"
          label={draft.type === "pie" ? "Slice labels" : "Value labels"}
          value={draft.valueLabels}
          choices={valueLabelModes}
          labels={valueLabelLabels}
          onChoose={(mode) => update("valueLabels", mode)}
          errors={errors.valueLabels}
        />
      ) : null}
      {offered.has("otherThreshold") ? (
        <FormField
          name="otherPercent"
          label="Group slices under this share into Other (%)"
          id="chart-other"
          hint="0 keeps every slice; at most 50."
          inputMode="decimal"
          value={draft.otherPercent}
          onChange={(event) => update("otherPercent", event.currentTarget.value)}
          errors={errors.otherThreshold}
        />
      ) : null}
      {offered.has("locale") ? (
        <ChoiceField
          id="chart-locale"
          name="locale"
          label="Numbers and dates written for"
          value={draft.locale}
          choices={chartLocales}
          labels={chartLocaleLabels}
          onChoose={(locale) => update("locale", locale)}
          errors={errors.locale}
        />
      ) : null}
      {offered.has("dateFormat") ? (
        <SelectField
          id="chart-date-format"
          name="dateFormat"
          label="Date format"
          value={draft.dateFormat}
          onChange={(event) => update("dateFormat", event.currentTarget.value as DateFormat | "")}
          errors={errors.dateFormat}
        >
          <option value="">Automatic (by the dates' span)</option>
          {dateFormats.map((format) => (
            <option key={format} value={format}>
              {dateFormatLabels[format]}
            </option>
          ))}
        </SelectField>
      ) : null}
      {offered.has("xNumberFormat") ? (
        <ChoiceField
          id="chart-x-number-format"
          name="xNumberFormat"
          label="X-axis numbers"
          value={draft.xNumberFormat}
          choices={xNumberFormats}
          labels={xNumberFormatLabels}
          onChoose={(format) => update("xNumberFormat", format)}
          errors={errors.xNumberFormat}
        />
      ) : null}
      {offered.has("gaps") ? (
        <ChoiceField
          id="chart-gaps"
          name="gaps"
          label="Periods without data"
          value={draft.gaps}
          choices={gapModes}
          labels={gapLabels}
          onChoose={(mode) => update("gaps", mode)}
          errors={errors.gaps}
        />
      ) : null}
      {offered.has("annotations") ? (
        <AnnotationList
          annotations={draft.annotations}
          errors={errors}
          onChange={(annotations) => update("annotations", annotations)}
        />
      ) : draft.annotations.length > 0 ? (
        <p className="muted">
          Annotations are drawn on a time axis: while the x column holds no dates (or the chart is a
          pie), its{" "}
          {draft.annotations.length === 1
            ? "annotation is"
            : `${draft.annotations.length} annotations are`}{" "}
          kept here but not drawn or saved.
        </p>
      ) : null}
      {offered.has("annotationSource") ? (
        <AnnotationSourceFields
          source={draft.annotationSource}
          datasets={datasets}
          errors={errors}
          onChange={(source) => update("annotationSource", source)}
        />
      ) : null}
      {offered.has("pageSize") ? (
        <ChoiceField
          id="chart-page-size"
          name="pageSize"
          label="Rows per page"
          value={draft.pageSize}
          choices={pageSizeChoices}
          labels={pageSizeLabels}
          onChoose={(size) => update("pageSize", size)}
          errors={errors.pageSize}
        />
      ) : null}
      {offered.has("colorRules") ? (
        <ColorRuleList
          rules={draft.colorRules}
          measures={formQuery(draft, columns).measures.map((measure) => measureLabel(measure))}
          errors={errors}
          onChange={(colorRules) => update("colorRules", colorRules)}
        />
      ) : draft.colorRules.length > 0 ? (
        <p className="muted">
          Colour rules tone a table's cells: while the chart is not a table, its{" "}
          {draft.colorRules.length === 1 ? "rule is" : `${draft.colorRules.length} rules are`} kept
          here but not drawn or saved.
        </p>
      ) : null}
      {offered.has("curve") ? (
        <SelectField
          id="chart-curve"
          name="curve"
          label="Curve"
          value={draft.curve}
          onChange={(event) => update("curve", event.currentTarget.value as CurveType)}
          errors={errors.curve}
        >
          {curveTypes.map((curve) => (
            <option key={curve} value={curve}>
              {curve}
            </option>
          ))}
        </SelectField>
      ) : null}
      <SelectField
        id="chart-format-style"
        name="formatStyle"
        label="Number format"
        value={draft.formatStyle}
        onChange={(event) => update("formatStyle", event.currentTarget.value as FormatStyle)}
        errors={errors["format.style"]}
      >
        <option value="">Automatic</option>
        <option value="decimal">Decimal</option>
        <option value="compact">Compact (1.2K)</option>
        <option value="percent">Percent</option>
        <option value="currency">Currency</option>
      </SelectField>
      {draft.formatStyle === "currency" ? (
        <FormField
          name="formatCurrency"
          label="Currency code"
          id="chart-format-currency"
          hint="Three letters, e.g. USD or EUR; empty writes the locale's own currency."
          maxLength={3}
          value={draft.formatCurrency}
          onChange={(event) => update("formatCurrency", event.currentTarget.value)}
          errors={errors["format.currency"]}
        />
      ) : null}
      {draft.formatStyle !== "" ? (
        <FormField
          name="formatMaxDigits"
          label="Most decimal places"
          id="chart-format-digits"
          inputMode="numeric"
          value={draft.formatMaxDigits}
          onChange={(event) => update("formatMaxDigits", event.currentTarget.value)}
          errors={errors["format.maximumFractionDigits"]}
        />
      ) : null}
    </fieldset>
  );
}
