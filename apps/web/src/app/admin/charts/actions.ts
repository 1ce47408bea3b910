"use server";

import {
  chartFormSchema,
  chartOfForm,
  formatZodError,
  jsonInputLimits,
  queryColumnsOf,
  readBoundedJson,
} from "@seed/model";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { formText } from "@/lib/form-state";
import { done, formAction, readVersionedRecord, refuse, staleForm } from "@/server/form-action";

/** The editor sends its whole form as one JSON field, bounded before it is parsed. */
function readChartForm(formData: FormData) {
  const read = readBoundedJson(formText(formData, "chart"), jsonInputLimits.chartForm, "The chart");
  return read.ok ? { read, parsed: chartFormSchema.safeParse(read.value) } : { read, parsed: null };
}

/** Creates a chart, or updates it when the form carries chartId and version. */
export const saveChart = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const { read, parsed } = readChartForm(formData);
    if (!read.ok || !parsed) {
      const reason = read.ok || read.reason === "invalid_json" ? "" : ` ${read.message}`;
      return refuse({
        formError: `The chart could not be read; reload the page and try again.${reason}`,
      });
    }
    if (!parsed.success) {
      return refuse({ ...formatZodError(parsed.error), formError: "Check the marked fields." });
    }
    // The same converter as the editor's preview, over the dataset's own columns.
    const dataset = await store.getDataset(parsed.data.datasetId, 0, { seenBy: actor });
    const { chart, fieldErrors } = chartOfForm(parsed.data, dataset ? queryColumnsOf(dataset) : []);
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
