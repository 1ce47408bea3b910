"use server";

import {
  calculatedFieldLimits,
  type DatasetTokenScope,
  hierarchyLimits,
  jsonInputLimits,
  pushLimits,
  readBoundedJson,
} from "@seed/model";
import { z } from "zod";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { formText } from "@/lib/form-state";
import { checkAlertsAfterWrite } from "@/server/delivery";
import { done, formAction, readVersionedRecord, refuse, staleForm } from "@/server/form-action";

export const renameDataset = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const record = readVersionedRecord(formData, "datasetId");
    if (!record) return refuse(staleForm);
    await store.updateDataset(
      record.id,
      record.version,
      { name: formText(formData, "name"), description: formText(formData, "description") },
      actor,
    );
    return done({ redirectTo: `/admin/datasets/${record.id}` });
  },
);

/**
 * A dataset's calculated fields, the whole list as the form shows it (rows of `fieldName` and
 * `fieldExpression`); the store checks each against the columns and refuses the list with an
 * error on each field at fault, writing nothing.
 */
export const saveCalculatedFields = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const record = readVersionedRecord(formData, "datasetId");
    if (!record) return refuse(staleForm);
    const names = formData.getAll("fieldName");
    const expressions = formData.getAll("fieldExpression");
    if (names.length !== expressions.length || names.length > calculatedFieldLimits.maxFields) {
      return refuse({
        formError: `Give at most ${calculatedFieldLimits.maxFields} fields, each with a name and an expression.`,
      });
    }
    const text = (value: FormDataEntryValue | undefined) =>
      typeof value === "string" ? value : "";
    const calculatedFields = names.map((name, index) => ({
      name: text(name),
      expression: text(expressions[index]),
    }));
    await store.updateDataset(record.id, record.version, { calculatedFields }, actor);
    // A field's values change what alerts on the dataset see.
    await checkAlertsAfterWrite(record.id);
    return done({ redirectTo: `/admin/datasets/${record.id}?saved=fields` });
  },
);

/**
 * A dataset's category hierarchies, the whole list as the form shows it (`hierarchyCount` lists,
 * each the selects `level-<index>` in order); the store checks each level against the columns
 * and refuses the list with an error at each level at fault, writing nothing.
 */
export const saveHierarchies = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const record = readVersionedRecord(formData, "datasetId");
    if (!record) return refuse(staleForm);
    const count = Number(formText(formData, "hierarchyCount"));
    if (!Number.isInteger(count) || count < 0 || count > hierarchyLimits.maxHierarchies) {
      return refuse({
        formError: `Give at most ${hierarchyLimits.maxHierarchies} hierarchies.`,
      });
    }
    const hierarchies = Array.from({ length: count }, (_, index) =>
      formData
        .getAll(`level-${index}`)
        .slice(0, hierarchyLimits.maxLevels + 1)
        .map((value) => (typeof value === "string" ? value : "")),
    );
    await store.updateDataset(record.id, record.version, { hierarchies }, actor);
    return done({ redirectTo: `/admin/datasets/${record.id}?saved=hierarchies` });
  },
);

const cellSchema = z.union([z.string().max(10_000), z.number(), z.null()]);
const rowSchema = z.record(z.string().max(64), cellSchema);
const rowEditsSchema = z.object({
  set: z.array(z.object({ key: z.number().int().min(1), row: rowSchema })).max(1_000),
  remove: z.array(z.number().int().min(1)).max(1_000),
  append: z.array(rowSchema).max(1_000),
});

function readRowEdits(formData: FormData) {
  const read = readBoundedJson(
    formText(formData, "edits"),
    jsonInputLimits.rowEdits,
    "The changes",
  );
  if (!read.ok) {
    const reason = read.reason === "invalid_json" ? "" : ` ${read.message}`;
    return { error: `The table changes could not be read; reload.${reason}` };
  }
  const parsed = rowEditsSchema.safeParse(read.value);
  return parsed.success
    ? { edits: parsed.data }
    : { error: "The table changes could not be read; reload." };
}

/** Saves the table editor's changes as row edits against the version the editor loaded. */
export const saveDatasetRows = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const record = readVersionedRecord(formData, "datasetId");
    if (!record) return refuse(staleForm);
    const { edits, error } = readRowEdits(formData);
    if (!edits) return refuse({ formError: error });
    await store.editDatasetRows(record.id, record.version, edits, actor);
    await checkAlertsAfterWrite(record.id);
    return done({ redirectTo: `/admin/datasets/${record.id}?saved=rows` });
  },
);

export const deleteDataset = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const record = readVersionedRecord(formData, "datasetId");
    if (!record) return refuse(staleForm);
    await store.deleteDataset(record.id, record.version, actor);
    return done({ redirectTo: "/admin/datasets" });
  },
);

/** The create-token form's state: on success, the secret (shown this once) and its name. */
export type DatasetTokenFormState = ContentFormState & { secret?: string; tokenName?: string };

const tokenFormSchema = z.object({
  datasetId: z.string().min(1).max(200),
  name: z.string().max(pushLimits.maxTokenNameLength + 1),
  scope: z.string().max(20),
  expiresAt: z.string().max(40),
});

/** Makes a push API token for the dataset; the secret goes back to this form only, never stored. */
export const createDatasetToken = formAction<DatasetTokenFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const parsed = tokenFormSchema.safeParse({
      datasetId: formText(formData, "datasetId"),
      name: formText(formData, "name"),
      scope: formText(formData, "scope"),
      expiresAt: formText(formData, "expiresAt"),
    });
    if (!parsed.success) {
      return refuse({
        fieldErrors: {
          name: [`Keep the name under ${pushLimits.maxTokenNameLength + 1} characters.`],
        },
        formError: "Check the marked fields.",
      });
    }
    const { datasetId, name, scope, expiresAt } = parsed.data;
    const created = await store.createDatasetToken(
      {
        datasetId,
        name,
        scope: scope as DatasetTokenScope,
        expiresAt: expiresAt.trim() === "" ? null : expiresAt,
      },
      actor,
    );
    return done({
      message: `Token "${created.token.name}" created. Copy it now: it is not shown again.`,
      extra: { secret: created.secret, tokenName: created.token.name },
      revalidate: { adminPath: `/admin/datasets/${datasetId}` },
    });
  },
);

export const revokeDatasetToken = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const datasetId = formText(formData, "datasetId").slice(0, 200);
    const tokenId = formText(formData, "tokenId").slice(0, 200);
    if (datasetId === "" || tokenId === "") return refuse(staleForm);
    const revoked = await store.revokeDatasetToken(datasetId, tokenId, actor);
    return done({
      message: `Token "${revoked.name}" revoked.`,
      revalidate: { adminPath: `/admin/datasets/${datasetId}` },
    });
  },
);
