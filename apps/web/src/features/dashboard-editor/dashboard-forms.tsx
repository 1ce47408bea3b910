"use client";

import type { DatasetColumn } from "@seed/model";
import {
  aggregations,
  embedLimits,
  refreshIntervals,
  textTileLimits,
  thresholdLimits,
  thresholdTones,
} from "@seed/model";
import type { IconName } from "@seed/ui";
import { useActionState, useState } from "react";
import {
  addChartTile,
  addStatTile,
  addTextTile,
  createEmbedLink,
  type EmbedLinkState,
  updateDashboardEmbedding,
  updateDashboardFilters,
} from "@/app/admin/dashboards/actions";
import styles from "@/components/admin/admin.module.css";
import type { ContentAction } from "@/components/admin/content-form-state";
import { FormMessages, SelectField, TextAreaField } from "@/components/admin/form-controls";
import { IconPicker } from "@/components/admin/icon-picker";
import { useContentForm } from "@/components/admin/use-content-form";
import { FormField } from "@/components/form-field";

function RecordFields({ dashboardId, version }: { dashboardId?: string; version?: number }) {
  if (dashboardId === undefined || version === undefined) return null;
  return (
    <>
      <input type="hidden" name="dashboardId" value={dashboardId} />
      <input type="hidden" name="version" value={version} />
    </>
  );
}

// The runtime's IANA zones, for the time zone field's suggestions.
const timeZoneNames: readonly string[] =
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];

/** Title, slug, description, icon and time zone; creates a dashboard, or edits one given its id and version. */
export function DashboardDetailsForm({
  action,
  dashboardId,
  version,
  initial,
  submitLabel,
}: {
  action: ContentAction;
  dashboardId?: string;
  version?: number;
  initial: {
    title: string;
    slug: string;
    description: string;
    icon: IconName | null;
    timeZone: string | null;
  };
  submitLabel: string;
}) {
  const { state, pending, onSubmit } = useContentForm(action);
  const errors = state.fieldErrors ?? {};
  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Dashboard details">
      <RecordFields dashboardId={dashboardId} version={version} />
      <FormMessages state={state} />
      <FormField
        name="title"
        label="Title"
        id="dashboard-title"
        required
        maxLength={120}
        defaultValue={initial.title}
        errors={errors.title}
      />
      <FormField
        name="slug"
        label="Slug"
        id="dashboard-slug"
        hint="The address: /d/<slug>. Lowercase letters, digits and hyphens; left blank, it is made from the title."
        maxLength={64}
        defaultValue={initial.slug}
        errors={errors.slug}
      />
      <FormField
        name="description"
        label="Description (optional)"
        id="dashboard-description"
        maxLength={500}
        defaultValue={initial.description}
        errors={errors.description}
      />
      <IconPicker
        id="dashboard-icon"
        name="icon"
        legend="Icon"
        defaultValue={initial.icon}
        errors={errors.icon}
      />
      <FormField
        name="timeZone"
        label="Time zone (optional)"
        id="dashboard-time-zone"
        hint="Where days, weeks and months begin for this dashboard's charts, e.g. Europe/Paris. Blank is UTC."
        maxLength={64}
        list="dashboard-time-zones"
        defaultValue={initial.timeZone ?? ""}
        errors={errors.timeZone}
      />
      <datalist id="dashboard-time-zones">
        {timeZoneNames.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * The dashboard's filter bar: a date range over one date column and up to five category filters,
 * each over a column of the dashboard's datasets (offered by name; the store checks the types).
 */
export function DashboardFiltersForm({
  dashboardId,
  version,
  initial,
  dateColumns,
  categoryColumns,
  maxCategories,
}: {
  dashboardId: string;
  version: number;
  initial: { dateColumn: string | null; categories: string[] };
  dateColumns: string[];
  categoryColumns: string[];
  maxCategories: number;
}) {
  const { state, pending, onSubmit } = useContentForm(updateDashboardFilters);
  const errors = state.fieldErrors ?? {};
  // A saved column no dataset has any more stays listed, so saving again does not drop it silently.
  const withSaved = (names: string[], saved: readonly (string | null)[]) => [
    ...names,
    ...saved.filter((name): name is string => name !== null && !names.includes(name)),
  ];
  const dateOptions = withSaved(dateColumns, [initial.dateColumn]);
  const categoryOptions = withSaved(categoryColumns, initial.categories);
  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Dashboard filters">
      <RecordFields dashboardId={dashboardId} version={version} />
      <FormMessages state={state} />
      <SelectField
        id="dashboard-filter-date"
        name="dateColumn"
        label="Date range filter"
        hint="Filters every tile whose dataset has a date or timestamp column of this name."
        defaultValue={initial.dateColumn ?? ""}
        errors={errors["filters.dateColumn"] ?? errors.filters}
      >
        <option value="">No date range</option>
        {dateOptions.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </SelectField>
      {Array.from({ length: maxCategories }, (_, index) => (
        <SelectField
          key={index}
          id={`dashboard-filter-category-${index + 1}`}
          name="category"
          label={`Category filter ${index + 1}`}
          {...(index === 0
            ? {
                hint: "Filters every tile whose dataset has a text or true/false column of this name.",
              }
            : {})}
          defaultValue={initial.categories[index] ?? ""}
          errors={errors[`filters.categories.${index}`]}
        >
          <option value="">None</option>
          {categoryOptions.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
      ))}
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : "Save filters"}
        </button>
      </div>
    </form>
  );
}

const refreshLabels: Record<(typeof refreshIntervals)[number], string> = {
  30: "Every 30 seconds",
  60: "Every minute",
  300: "Every 5 minutes",
  900: "Every 15 minutes",
};

/** Who may frame the dashboard's embeds, and how often its pages refresh themselves. */
export function DashboardEmbeddingForm({
  dashboardId,
  version,
  initial,
}: {
  dashboardId: string;
  version: number;
  initial: { embedOrigins: string[]; refreshSeconds: number | null };
}) {
  const { state, pending, onSubmit } = useContentForm(updateDashboardEmbedding);
  const errors = state.fieldErrors ?? {};
  return (
    <form
      onSubmit={onSubmit}
      className={styles.wideForm}
      noValidate
      aria-label="Embedding and refresh"
    >
      <RecordFields dashboardId={dashboardId} version={version} />
      <FormMessages state={state} />
      <TextAreaField
        id="dashboard-embed-origins"
        name="embedOrigins"
        label="Sites allowed to embed this dashboard (one origin per line)"
        hint={`Up to ${embedLimits.maxOrigins}, e.g. https://intranet.example.com or https://*.example.com (its subdomains). Plain http only for localhost. Empty: no site can embed it.`}
        rows={4}
        defaultValue={initial.embedOrigins.join("\n")}
        errors={errors.embedOrigins}
      />
      <SelectField
        id="dashboard-refresh"
        name="refreshSeconds"
        label="Auto-refresh"
        hint="How often the public page and its embeds fetch new data while they are on screen."
        defaultValue={initial.refreshSeconds === null ? "" : String(initial.refreshSeconds)}
        errors={errors.refreshSeconds}
      >
        <option value="">Off</option>
        {refreshIntervals.map((seconds) => (
          <option key={seconds} value={seconds}>
            {refreshLabels[seconds]}
          </option>
        ))}
      </SelectField>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : "Save embedding and refresh"}
        </button>
      </div>
    </form>
  );
}

const linkLifetimes = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 86_400, label: "1 day" },
  { seconds: 604_800, label: "7 days" },
  { seconds: 2_592_000, label: "30 days" },
] as const;

/** Makes a signed link (and its <iframe> snippet) that embeds the dashboard even as a draft. */
export function EmbedLinkForm({
  dashboardId,
  title,
  charts,
}: {
  dashboardId: string;
  title: string;
  charts: { id: string; title: string }[];
}) {
  const [state, action, pending] = useActionState<EmbedLinkState, FormData>(createEmbedLink, {});
  const [copied, setCopied] = useState(false);
  const url = state.values?.url;
  const snippet = url
    ? `<iframe src="${url}" title="${title.replace(/["&<>]/g, "")}" width="100%" height="600" style="border:0" loading="lazy"></iframe>`
    : "";
  return (
    <form action={action} className={styles.wideForm} aria-label="Signed embed link">
      <input type="hidden" name="dashboardId" value={dashboardId} />
      <FormMessages state={state} withFieldErrors />
      <SelectField id="embed-link-target" name="target" label="Embed" defaultValue="dashboard">
        <option value="dashboard">The whole dashboard</option>
        {charts.map((chart) => (
          <option key={chart.id} value={`chart:${chart.id}`}>
            Chart: {chart.title}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="embed-link-expiry"
        name="expiresIn"
        label="Link works for"
        defaultValue="604800"
      >
        {linkLifetimes.map((lifetime) => (
          <option key={lifetime.seconds} value={lifetime.seconds}>
            {lifetime.label}
          </option>
        ))}
      </SelectField>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Signing…" : "Make signed link"}
        </button>
      </div>
      {url ? (
        <>
          <TextAreaField
            id="embed-link-snippet"
            label="Embed code"
            hint={`Works until ${new Date(state.values?.expiresAt ?? "").toLocaleString()}, on the sites allowed above.`}
            readOnly
            rows={3}
            value={snippet}
          />
          <div className={styles.checkRow}>
            <button
              type="button"
              className="button"
              onClick={() => {
                void navigator.clipboard.writeText(snippet).then(() => setCopied(true));
              }}
            >
              Copy embed code
            </button>
            <a href={url} target="_blank" rel="noopener noreferrer">
              Open the signed link
            </a>
            <span role="status">{copied ? "Copied." : ""}</span>
          </div>
        </>
      ) : null}
    </form>
  );
}

export function AddChartTileForm({
  dashboardId,
  version,
  charts,
}: {
  dashboardId: string;
  version: number;
  charts: { id: string; title: string }[];
}) {
  const { state, pending, onSubmit } = useContentForm(addChartTile);
  return (
    <form onSubmit={onSubmit} className="form" noValidate aria-label="Add a chart tile">
      <RecordFields dashboardId={dashboardId} version={version} />
      <FormMessages state={state} />
      <SelectField
        id="tile-chart"
        name="chartId"
        label="Chart"
        defaultValue=""
        errors={state.fieldErrors?.chartId}
      >
        <option value="">Choose a chart</option>
        {charts.map((chart) => (
          <option key={chart.id} value={chart.id}>
            {chart.title}
          </option>
        ))}
      </SelectField>
      <div>
        <button type="submit" className="button" disabled={pending}>
          Add chart tile
        </button>
      </div>
    </form>
  );
}

export function AddStatTileForm({
  dashboardId,
  version,
  datasets,
}: {
  dashboardId: string;
  version: number;
  datasets: { id: string; name: string; columns: DatasetColumn[] }[];
}) {
  const { state, pending, onSubmit } = useContentForm(addStatTile);
  const errors = state.fieldErrors ?? {};
  const [datasetId, setDatasetId] = useState("");
  const [formatStyle, setFormatStyle] = useState("");
  const columns = datasets.find((dataset) => dataset.id === datasetId)?.columns ?? [];
  const dateColumns = columns.filter(
    (column) => column.type === "date" || column.type === "timestamp",
  );
  const [periodColumn, setPeriodColumn] = useState("");
  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Add a stat tile">
      <RecordFields dashboardId={dashboardId} version={version} />
      <FormMessages state={state} />
      <FormField name="label" label="Label" id="stat-label" maxLength={80} errors={errors.label} />
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
            {aggregation}
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
                <input type="checkbox" name="compare" defaultChecked /> Compare with the period
                before
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
          hint="Three letters, e.g. USD or EUR."
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
      <div>
        <button type="submit" className="button" disabled={pending}>
          Add stat tile
        </button>
      </div>
    </form>
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
            maxLength={thresholdLimits.maxLabelLength + 20}
            errors={errors[`thresholds.${index}.label`]}
          />
        </div>
      ))}
    </fieldset>
  );
}

/** A heading or note in Markdown; raw HTML is not shown and links must be http(s) or mailto. */
export function AddTextTileForm({
  dashboardId,
  version,
}: {
  dashboardId: string;
  version: number;
}) {
  const { state, pending, onSubmit } = useContentForm(addTextTile);
  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Add a text tile">
      <RecordFields dashboardId={dashboardId} version={version} />
      <FormMessages state={state} />
      <TextAreaField
        id="text-markdown"
        name="markdown"
        label="Text (Markdown)"
        hint={`Headings (## Title), **bold**, *italic*, lists and [links](https://example.com). No HTML; at most ${textTileLimits.maxLength.toLocaleString("en-US")} characters.`}
        rows={5}
        errors={state.fieldErrors?.markdown}
      />
      <div>
        <button type="submit" className="button" disabled={pending}>
          Add text tile
        </button>
      </div>
    </form>
  );
}

/** One button posting one tile change (remove). */
export function TileActionButton({
  action,
  fields,
  label,
  shortLabel,
  disabled = false,
}: {
  action: ContentAction;
  fields: Record<string, string>;
  label: string;
  /** Shown instead of `label` where room is short; `label` stays the accessible name. */
  shortLabel?: string;
  disabled?: boolean;
}) {
  const { state, pending, onSubmit } = useContentForm(action);
  return (
    <form onSubmit={onSubmit}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className="button button-secondary"
        disabled={disabled || pending}
        aria-label={shortLabel ? label : undefined}
      >
        {shortLabel ?? label}
      </button>
      <FormMessages state={state} />
    </form>
  );
}
