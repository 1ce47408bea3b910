"use server";

import type { ChartInput, ChartOptions } from "@seed/store";
import { acceptedOptions, chartTypeSpecs } from "@seed/store/chart-types";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { readNumberFormat } from "@/components/admin/number-format-input";
import { actorOf, storeErrorState } from "@/components/admin/store-errors";
import { formText } from "@/lib/form-state";
import { requireRole } from "@/server/auth";
import { revalidateContent } from "@/server/revalidate";
import { getStore } from "@/server/store";

const recordSchema = z.object({
  chartId: z.string().min(1).max(200),
  version: z.coerce.number().int().min(1),
});

const maxQueryJson = 20_000;

/** The chart of the editor's form; only options the chosen type accepts are kept. */
function readChart(formData: FormData, fieldErrors: Record<string, string[]>): ChartInput {
  const type = formText(formData, "type") as ChartInput["type"];
  const all: ChartOptions = {};
  const stack = formText(formData, "stack");
  if (stack && stack !== "none") all.stack = stack as ChartOptions["stack"];
  if (formText(formData, "horizontal") === "on") all.horizontal = true;
  const curve = formText(formData, "curve");
  if (curve) all.curve = curve as ChartOptions["curve"];
  if (formText(formData, "donut") === "on") all.donut = true;
  if (formText(formData, "showLegend") !== "on") all.showLegend = false;
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
export async function saveChart(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  const session = await requireRole("admin", "editor");
  const fieldErrors: Record<string, string[]> = {};
  const chart = readChart(formData, fieldErrors);
  if (Object.keys(fieldErrors).length > 0) {
    return { fieldErrors, formError: "Check the marked fields." };
  }
  const existing = formText(formData, "chartId")
    ? recordSchema.safeParse({
        chartId: formText(formData, "chartId"),
        version: formText(formData, "version"),
      })
    : null;
  if (existing && !existing.success) return { formError: "Reload the page and try again." };
  let chartId: string;
  try {
    const store = await getStore();
    const actor = actorOf(session);
    const saved = existing?.success
      ? await store.updateChart(existing.data.chartId, existing.data.version, chart, actor)
      : await store.createChart(chart, actor);
    chartId = saved.id;
  } catch (error) {
    return storeErrorState(error);
  }
  // Dashboards draw charts, so their pages change too.
  revalidateContent();
  redirect(`/admin/charts/${chartId}?saved=1`);
}

export async function deleteChart(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  const session = await requireRole("admin", "editor");
  const record = recordSchema.safeParse({
    chartId: formText(formData, "chartId"),
    version: formText(formData, "version"),
  });
  if (!record.success) return { formError: "Reload the page and try again." };
  try {
    const store = await getStore();
    await store.deleteChart(record.data.chartId, record.data.version, actorOf(session));
  } catch (error) {
    return storeErrorState(error);
  }
  revalidateContent();
  redirect("/admin/charts");
}
