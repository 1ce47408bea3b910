"use client";

import {
  breakdownColumnTypes,
  type ChartForm,
  type ChartLocale,
  type ChartType,
  type CurveType,
  chartFormOf,
  chartLocales,
  chartTypeSpecs,
  chartTypes,
  curveTypes,
  type DateFormat,
  dateFormats,
  type FormatStyle,
  formQuery,
  formShape,
  type LegendPosition,
  legendPositions,
  offeredOptions,
  type QueryAggregate,
  queryLimits,
  type SortChoice,
  type StackMode,
  subDayGrains,
  type TimeGrain,
  timeGrains,
  type ValueLabelMode,
  type XNumberFormat,
  xNumberFormats,
} from "@seed/model";
import type { Chart, QueryResult } from "@seed/store";
import {
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { saveChart } from "@/app/admin/charts/actions";
import styles from "@/components/admin/admin.module.css";
import {
  describedBy,
  FieldMessages,
  FormMessages,
  SelectField,
} from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { chartLocaleLabels } from "@/components/chart-format";
import { DashboardChart } from "@/components/dashboard-chart";
import { FormField } from "@/components/form-field";
import {
  type DatasetChoice,
  previewBlocker,
  previewView,
  withBreakdown,
  withDataset,
  withIndexColumn,
  withoutStaleOptions,
  withSeries,
  withType,
} from "./draft";
import { FilterList } from "./query-filters";

export type { DatasetChoice } from "./draft";

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
  auto: "Automatic (grouped as the locale writes them, e.g. 1,900)",
  plain: "Plain, without separators (e.g. 1900, for years)",
};

const aggregateLabels: Record<QueryAggregate, string> = {
  none: "Raw values (no grouping)",
  sum: "Sum",
  avg: "Average",
  min: "Minimum",
  max: "Maximum",
  count: "Count of rows with a value",
  count_distinct: "Count of distinct values",
};

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

/**
 * The preview is drawn anew under a resting pointer whenever the query changes, and the browser
 * then reports the new chart as entered (boundary events with no move): Recharts would open the
 * tooltip on a point nobody pointed at. Each drawing lets no pointer events through to the chart
 * until the pointer really moves over it (set on the DOM at once, so the next event already
 * reaches the chart); keyboard focus is unaffected.
 */
function PreviewChart({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const arm = (event: MouseEvent) => {
      element.dataset.pointer = "moved";
      element.removeEventListener("mousemove", arm);
      // That first move reached only this box: hand it on to what now lies under the pointer.
      const under = document.elementFromPoint(event.clientX, event.clientY);
      if (under && under !== element && element.contains(under)) {
        under.dispatchEvent(
          new MouseEvent("mousemove", {
            bubbles: true,
            clientX: event.clientX,
            clientY: event.clientY,
            screenX: event.screenX,
            screenY: event.screenY,
          }),
        );
      }
    };
    element.addEventListener("mousemove", arm);
    return () => element.removeEventListener("mousemove", arm);
  }, []);
  return (
    <div ref={ref} className={styles.previewChart} data-pointer="resting">
      {children}
    </div>
  );
}

type PreviewState =
  | { status: "loading" }
  | { status: "ready"; result: QueryResult }
  | { status: "failed"; message: string };

/** Runs the draft's query in the database (debounced) for the live preview. */
function usePreview(
  draft: ChartForm,
  columns: DatasetChoice["columns"],
  enabled: boolean,
): PreviewState {
  const [state, setState] = useState<PreviewState>({ status: "loading" });
  const body = useMemo(
    () =>
      JSON.stringify({
        datasetId: draft.datasetId,
        type: draft.type,
        query: formQuery(draft, columns),
      }),
    [draft, columns],
  );
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setState({ status: "loading" });
    const timer = setTimeout(() => {
      fetch("/admin/api/charts/preview", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
        signal: controller.signal,
      })
        .then(async (response) => {
          const json = (await response.json()) as {
            result?: QueryResult;
            fieldErrors?: Record<string, string[]>;
            message?: string;
          };
          if (json.result) return setState({ status: "ready", result: json.result });
          const reason =
            Object.values(json.fieldErrors ?? {}).flat()[0] ??
            json.message ??
            `The preview could not be loaded (${response.status}).`;
          setState({ status: "failed", message: reason });
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          const message = error instanceof Error ? error.message : "The preview failed.";
          setState({ status: "failed", message });
        });
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [body, enabled]);
  return state;
}

/** Chart form with a live preview drawn by @seed/charts from the chosen dataset's rows. */
export function ChartEditor({
  datasets,
  chart,
}: {
  datasets: DatasetChoice[];
  chart: Chart | null;
}) {
  const { state, pending, onSubmit } = useContentForm(saveChart);
  const [draft, setRawDraft] = useState(() => chartFormOf(chart, datasets[0]));
  // Every change goes through here, so options a new type or query no longer offers reset.
  function setDraft(change: (current: ChartForm) => ChartForm) {
    setRawDraft((current) => {
      const next = change(current);
      const nextColumns = datasets.find((choice) => choice.id === next.datasetId)?.columns ?? [];
      return withoutStaleOptions(next, nextColumns);
    });
  }
  const seriesId = useId();
  const errors = state.fieldErrors ?? {};
  const dataset = datasets.find((candidate) => candidate.id === draft.datasetId);
  const columns = dataset?.columns ?? [];
  const numberColumns = columns.filter(
    (column) => column.type === "number" && column.name !== draft.indexColumn,
  );

  function update<Key extends keyof ChartForm>(key: Key, value: ChartForm[Key]) {
    setDraft((current) => ({ ...current, [key]: value }));
  }

  function chooseDataset(datasetId: string) {
    const next = datasets.find((candidate) => candidate.id === datasetId);
    setDraft((current) => withDataset(current, next));
  }

  const missing = previewBlocker(draft);
  const preview = usePreview(draft, columns, missing === null);
  const filterKeys = useRef(draft.filters.length);
  const breakdownColumns = columns.filter(
    (column) => breakdownColumnTypes.includes(column.type) && column.name !== draft.indexColumn,
  );
  const canBreakdown = chartTypeSpecs[draft.type].accepts.breakdown && draft.aggregate !== "none";
  // Options come from the one table of chart types, narrowed to what this query draws.
  const offered = new Set(offeredOptions(draft.type, formShape(draft, columns)));
  const view = useMemo(() => previewView(draft, columns), [draft, columns]);
  const valueLabelModes = chartTypeSpecs[draft.type].valueLabels;
  const xType = columns.find((column) => column.name === draft.indexColumn)?.type;
  const grains =
    xType === "timestamp"
      ? timeGrains
      : xType === "date"
        ? timeGrains.filter((grain) => !subDayGrains.includes(grain))
        : [];
  const queryError = (prefix: string) =>
    Object.entries(errors).flatMap(([key, messages]) =>
      key.startsWith(prefix) ? (messages ?? []) : [],
    );
  // Query problems come back by path ("query.measures.0.aggregate"); each control shows its own.
  const indexErrors = [...(errors.indexColumn ?? []), ...queryError("query.x.column")];
  const aggregateErrors = Object.entries(errors).flatMap(([key, messages]) =>
    key.startsWith("query.measures") && key.endsWith(".aggregate") ? (messages ?? []) : [],
  );
  const seriesErrors = [
    ...(errors.seriesColumns ?? []),
    ...Object.entries(errors).flatMap(([key, messages]) =>
      key.startsWith("query.measures") && !key.endsWith(".aggregate") ? (messages ?? []) : [],
    ),
  ];

  return (
    <div className={styles.editorLayout}>
      <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Chart">
        {chart ? (
          <>
            <input type="hidden" name="chartId" value={chart.id} />
            <input type="hidden" name="version" value={chart.version} />
          </>
        ) : null}
        <FormMessages state={state} />
        <input type="hidden" name="chart" value={JSON.stringify(draft)} />
        <FormField
          name="title"
          label="Title"
          id="chart-title"
          required
          maxLength={120}
          value={draft.title}
          onChange={(event) => update("title", event.currentTarget.value)}
          errors={errors.title}
        />
        <SelectField
          id="chart-type"
          name="type"
          label="Type"
          value={draft.type}
          onChange={(event) => {
            // Read now: React clears currentTarget once the handler returns, before an updater runs.
            const type = event.currentTarget.value as ChartType;
            setDraft((current) => withType(current, type));
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
          label={draft.type === "pie" ? "Slice names (index column)" : "Index column (x axis)"}
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
        <SelectField
          id="chart-aggregate"
          name="aggregate"
          label="Combine rows with"
          value={draft.aggregate}
          onChange={(event) => update("aggregate", event.currentTarget.value as QueryAggregate)}
          errors={aggregateErrors}
        >
          {(Object.keys(aggregateLabels) as QueryAggregate[]).map((aggregate) => (
            <option key={aggregate} value={aggregate}>
              {aggregateLabels[aggregate]}
            </option>
          ))}
        </SelectField>
        <fieldset
          className={styles.fieldset}
          aria-describedby={describedBy(seriesId, seriesErrors)["aria-describedby"]}
        >
          <legend>{draft.type === "pie" ? "Value column (one)" : "Series columns"}</legend>
          {numberColumns.length === 0 ? (
            <p className="muted">This dataset has no other number columns to draw.</p>
          ) : (
            <div className={styles.checkRow}>
              {numberColumns.map((column) => (
                <label key={column.name}>
                  <input
                    type={draft.type === "pie" || draft.breakdown ? "radio" : "checkbox"}
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
        {canBreakdown ? (
          <SelectField
            id="chart-breakdown"
            name="breakdown"
            label="Split into series by"
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
            label="Series to show (the rest is Other)"
            id="chart-top"
            type="number"
            min={1}
            max={queryLimits.maxTop}
            value={draft.top}
            onChange={(event) => update("top", event.currentTarget.value)}
            errors={queryError("query.breakdown.top")}
          />
        ) : null}
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
        <SelectField
          id="chart-sort"
          name="sort"
          label="Order"
          value={draft.sort}
          onChange={(event) => update("sort", event.currentTarget.value as SortChoice)}
          errors={queryError("query.sort")}
        >
          {(Object.keys(sortLabels) as SortChoice[]).map((choice) => (
            <option key={choice} value={choice}>
              {sortLabels[choice]}
            </option>
          ))}
        </SelectField>
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
          {offered.has("showLegend") ? (
            <SelectField
              id="chart-legend"
              name="legend"
              label="Legend"
              value={draft.legend}
              onChange={(event) =>
                update("legend", event.currentTarget.value as LegendPosition | "hidden")
              }
              errors={[...(errors.legendPosition ?? []), ...(errors.showLegend ?? [])]}
            >
              {[...legendPositions, "hidden" as const].map((position) => (
                <option key={position} value={position}>
                  {legendLabels[position]}
                </option>
              ))}
            </SelectField>
          ) : null}
          {offered.has("valueLabels") ? (
            <SelectField
              id="chart-value-labels"
              name="valueLabels"
              label={draft.type === "pie" ? "Slice labels" : "Value labels"}
              value={draft.valueLabels}
              onChange={(event) =>
                update("valueLabels", event.currentTarget.value as ValueLabelMode)
              }
              errors={errors.valueLabels}
            >
              {valueLabelModes.map((mode) => (
                <option key={mode} value={mode}>
                  {valueLabelLabels[mode]}
                </option>
              ))}
            </SelectField>
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
            <SelectField
              id="chart-locale"
              name="locale"
              label="Numbers and dates written for"
              value={draft.locale}
              onChange={(event) => update("locale", event.currentTarget.value as ChartLocale)}
              errors={errors.locale}
            >
              {chartLocales.map((locale) => (
                <option key={locale} value={locale}>
                  {chartLocaleLabels[locale]}
                </option>
              ))}
            </SelectField>
          ) : null}
          {offered.has("dateFormat") ? (
            <SelectField
              id="chart-date-format"
              name="dateFormat"
              label="Date format"
              value={draft.dateFormat}
              onChange={(event) =>
                update("dateFormat", event.currentTarget.value as DateFormat | "")
              }
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
            <SelectField
              id="chart-x-number-format"
              name="xNumberFormat"
              label="X-axis numbers"
              value={draft.xNumberFormat}
              onChange={(event) =>
                update("xNumberFormat", event.currentTarget.value as XNumberFormat)
              }
              errors={errors.xNumberFormat}
            >
              {xNumberFormats.map((format) => (
                <option key={format} value={format}>
                  {xNumberFormatLabels[format]}
                </option>
              ))}
            </SelectField>
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
              hint="Three letters, e.g. USD or EUR."
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
        <FieldMessages id="chart-query-errors" errors={errors.query} />
        <div>
          <button type="submit" className="button" disabled={pending}>
            {pending ? "Saving…" : chart ? "Save chart" : "Create chart"}
          </button>
        </div>
      </form>
      <section aria-labelledby="chart-preview-heading" className="stack">
        <h2 id="chart-preview-heading">Preview</h2>
        {missing ? (
          <p className="muted">{missing}</p>
        ) : preview.status === "ready" ? (
          <div data-testid="chart-preview" className="stack">
            {draft.aggregate === "none" && (preview.result.duplicateX ?? 0) > 0 ? (
              <p role="status">
                {preview.result.duplicateX?.toLocaleString("en-US")} rows share an x value with
                another row.{" "}
                <button type="button" className="button" onClick={() => update("aggregate", "sum")}>
                  Sum them
                </button>
              </p>
            ) : null}
            <PreviewChart>
              <DashboardChart chart={view} result={preview.result} headingLevel="h3" />
            </PreviewChart>
          </div>
        ) : preview.status === "failed" ? (
          <p className="form-error">{preview.message}</p>
        ) : (
          <p className="muted" role="status">
            Running the query…
          </p>
        )}
      </section>
    </div>
  );
}
