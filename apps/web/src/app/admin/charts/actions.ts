"use server";

import type { ChartInput, ChartOptions } from "@seed/model";
import { acceptedOptions, chartTypeSpecs } from "@seed/model";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { readNumberFormat } from "@/components/admin/number-format-input";
import { defaultChartLocale } from "@/components/chart-format";
import { formText } from "@/lib/form-state";
import { done, formAction, readVersionedRecord, refuse, staleForm } from "@/server/form-action";

const maxQueryJson = 20_000;
/** The kit's own "Other" share, in percent, which a chart need not store. */
const defaultOtherPercent = "3";

/**
 * The chart of the editor's form; only options the chosen type accepts are kept (the store then
 * drops what the query does not draw, e.g. stacking of one series).
 */
function readChart(formData: FormData, fieldErrors: Record<string, string[]>): ChartInput {
  const type = formText(formData, "type") as ChartInput["type"];
  const all: ChartOptions = {};
  const stack = formText(formData, "stack");
  if (stack && stack !== "none") all.stack = stack as ChartOptions["stack"];
  if (formText(formData, "horizontal") === "on") all.horizontal = true;
  const curve = formText(formData, "curve");
  if (curve) all.curve = curve as ChartOptions["curve"];
  if (formText(formData, "donut") === "on") all.donut = true;
  // Defaults (legend below, the type's own labels, en-US) are left out of what is stored.
  const legend = formText(formData, "legend");
  if (legend === "hidden") all.showLegend = false;
  else if (legend && legend !== "bottom")
    all.legendPosition = legend as ChartOptions["legendPosition"];
  const valueLabels = formText(formData, "valueLabels");
  if (valueLabels && Object.hasOwn(chartTypeSpecs, type)) {
    if (valueLabels !== chartTypeSpecs[type].valueLabels[0]) {
      all.valueLabels = valueLabels as ChartOptions["valueLabels"];
    }
  } else if (valueLabels) all.valueLabels = valueLabels as ChartOptions["valueLabels"];
  const otherPercent = formText(formData, "otherPercent").trim();
  if (otherPercent !== "" && otherPercent !== defaultOtherPercent) {
    const percent = Number(otherPercent);
    if (Number.isFinite(percent)) all.otherThreshold = percent / 100;
    else fieldErrors.otherThreshold = ["Enter a percentage such as 3, or 0 to keep every slice."];
  }
  const locale = formText(formData, "locale");
  if (locale && locale !== defaultChartLocale) all.locale = locale as ChartOptions["locale"];
  const dateFormat = formText(formData, "dateFormat");
  if (dateFormat) all.dateFormat = dateFormat as ChartOptions["dateFormat"];
  // An unknown type keeps every option: the store refuses the type by name.
  const options = Object.hasOwn(chartTypeSpecs, type) ? acceptedOptions(type, all) : all;
  const numberFormat = readNumberFormat(formData, fieldErrors);
  if (numberFormat) options.numberFormat = numberFormat;
  const indexColumn = formText(formData, "indexColumn");
  const seriesColumns = formData
    .getAll("seriesColumns")
    .filter((value): value is string => typeof value === "string");
  const base = {
    title: formText(formData, "title"),
    type,
    datasetId: formText(formData, "datasetId"),
    options,
  };
  // The editor sends its query as JSON (the store validates every part of it); without it the
  // form's index and series columns are the simple form, raw values.
  const queryJson = formText(formData, "query");
  if (queryJson === "") return { ...base, indexColumn, seriesColumns };
  if (queryJson.length > maxQueryJson) {
    fieldErrors.query = ["The query is too large."];
    return { ...base, indexColumn, seriesColumns };
  }
  try {
    return { ...base, query: JSON.parse(queryJson) as ChartInput["query"] };
  } catch {
    fieldErrors.query = ["The query could not be read; reload the page and try again."];
    return { ...base, indexColumn, seriesColumns };
  }
}

/** Creates a chart, or updates it when the form carries chartId and version. */
export const saveChart = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const fieldErrors: Record<string, string[]> = {};
    const chart = readChart(formData, fieldErrors);
    if (Object.keys(fieldErrors).length > 0) {
      return refuse({ fieldErrors, formError: "Check the marked fields." });
    }
    const updating = formText(formData, "chartId") !== "";
    const record = updating ? readVersionedRecord(formData, "chartId") : null;
    if (updating && !record) return refuse(staleForm);
    const saved = record
      ? await store.updateChart(record.id, record.version, chart, actor)
      : await store.createChart(chart, actor);
    // Dashboards draw charts, so their pages change too (the default revalidation).
    return done({ redirectTo: `/admin/charts/${saved.id}?saved=1` });
  },
);

export const deleteChart = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const record = readVersionedRecord(formData, "chartId");
    if (!record) return refuse(staleForm);
    await store.deleteChart(record.id, record.version, actor);
    return done({ redirectTo: "/admin/charts" });
  },
);

/** Saves an older version of the chart again as its next version. */
export const restoreChart = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const record = readVersionedRecord(formData, "chartId");
    const fromVersion = Number(formText(formData, "fromVersion"));
    if (!record) return refuse(staleForm);
    if (!Number.isSafeInteger(fromVersion) || fromVersion < 1) {
      return refuse({ formError: "Choose a version to restore." });
    }
    const restored = await store.restoreChartVersion(record.id, record.version, fromVersion, actor);
    return done({ redirectTo: `/admin/charts/${record.id}/history?restored=${restored.version}` });
  },
);
