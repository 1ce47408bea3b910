"use server";

import { parseCsvDataset } from "@seed/store/csv";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { actorOf, storeErrorState } from "@/components/admin/store-errors";
import { formText } from "@/lib/form-state";
import { requireRole } from "@/server/auth";
import { revalidateContent } from "@/server/revalidate";
import { getStore } from "@/server/store";

const recordSchema = z.object({
  datasetId: z.string().min(1, { error: "Pick a dataset." }).max(200),
  version: z.coerce.number().int().min(1, { error: "Reload the page and try again." }),
});

function readRecord(formData: FormData) {
  return recordSchema.safeParse({
    datasetId: formText(formData, "datasetId"),
    version: formText(formData, "version"),
  });
}

/** Re-parses the CSV on the server (the browser preview is only a preview) and creates the dataset. */
export async function createDatasetFromCsv(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  const session = await requireRole("admin", "editor");
  const name = formText(formData, "name").trim();
  const description = formText(formData, "description").trim();
  const csv = formText(formData, "csv");
  const fieldErrors: Record<string, string[]> = {};
  if (name === "") fieldErrors.name = ["Enter a name."];
  const parsed = csv.trim() === "" ? null : parseCsvDataset(csv);
  if (parsed === null) fieldErrors.csv = ["Choose a CSV file or paste CSV text."];
  else if (!parsed.ok) fieldErrors.csv = [parsed.message];
  if (parsed === null || !parsed.ok || Object.keys(fieldErrors).length > 0) {
    return { fieldErrors, formError: "Check the marked fields." };
  }
  let datasetId: string;
  try {
    const store = await getStore();
    const created = await store.createDataset(
      { name, description, columns: parsed.columns, rows: parsed.rows },
      actorOf(session),
    );
    datasetId = created.id;
  } catch (error) {
    return storeErrorState(error);
  }
  revalidateContent();
  redirect(`/admin/datasets/${datasetId}`);
}

export async function renameDataset(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  const session = await requireRole("admin", "editor");
  const record = readRecord(formData);
  if (!record.success) return { formError: "Reload the page and try again." };
  const { datasetId, version } = record.data;
  try {
    const store = await getStore();
    await store.updateDataset(
      datasetId,
      version,
      { name: formText(formData, "name"), description: formText(formData, "description") },
      actorOf(session),
    );
  } catch (error) {
    return storeErrorState(error);
  }
  revalidateContent();
  redirect(`/admin/datasets/${datasetId}`);
}

const cellSchema = z.union([z.string().max(10_000), z.number(), z.null()]);
const rowSchema = z.record(z.string().max(64), cellSchema);
const rowEditsSchema = z.object({
  set: z.array(z.object({ key: z.number().int().min(1), row: rowSchema })).max(1_000),
  remove: z.array(z.number().int().min(1)).max(1_000),
  append: z.array(rowSchema).max(1_000),
});

/** Saves the table editor's changes as row edits against the version the editor loaded. */
export async function saveDatasetRows(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  const session = await requireRole("admin", "editor");
  const record = readRecord(formData);
  if (!record.success) return { formError: "Reload the page and try again." };
  let edits: z.infer<typeof rowEditsSchema>;
  try {
    const parsed = rowEditsSchema.safeParse(JSON.parse(formText(formData, "edits")));
    if (!parsed.success) return { formError: "The table changes could not be read; reload." };
    edits = parsed.data;
  } catch {
    return { formError: "The table changes could not be read; reload." };
  }
  const { datasetId, version } = record.data;
  try {
    const store = await getStore();
    await store.editDatasetRows(datasetId, version, edits, actorOf(session));
  } catch (error) {
    return storeErrorState(error);
  }
  revalidateContent();
  redirect(`/admin/datasets/${datasetId}?saved=rows`);
}

export async function deleteDataset(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  const session = await requireRole("admin", "editor");
  const record = readRecord(formData);
  if (!record.success) return { formError: "Reload the page and try again." };
  try {
    const store = await getStore();
    await store.deleteDataset(record.data.datasetId, record.data.version, actorOf(session));
  } catch (error) {
    return storeErrorState(error);
  }
  revalidateContent();
  redirect("/admin/datasets");
}
