"use server";

import type { FormState } from "@/lib/form-state";
import { formText } from "@/lib/form-state";
import { done, formAction, readVersionedRecord, refuse, staleForm } from "@/server/form-action";

export type SqlSwitchState = FormState<{ enabled: string }>;

/** An admin turns SQL questions on or off for everyone (the store audits it). */
export const setSqlQuestions = formAction<SqlSwitchState>(
  "settings.manage",
  async ({ formData, actor, store }) => {
    const enabled = formText(formData, "enabled") === "true";
    await store.setSqlQuestionsEnabled(actor, { enabled });
    return done({
      message: enabled ? "SQL questions are on." : "SQL questions are off.",
      revalidate: { adminPath: "/admin/sql" },
    });
  },
);

export type SaveQuestionState = FormState<{ name: string; sql: string }>;

/** Saves the editor's question as a dataset (the store runs it once for its columns, and audits). */
export const saveSqlQuestion = formAction<SaveQuestionState>(
  "content.write",
  async ({ formData, actor, store }) => {
    const { id } = await store.createQuestionDataset(actor, {
      name: formText(formData, "name").trim(),
      sql: formText(formData, "sql"),
    });
    return done({ redirectTo: `/admin/datasets/${id}?saved=question` });
  },
);

/** Saves the editor's text as a saved question's new text (the form carries the version it read). */
export const updateSqlQuestion = formAction<SaveQuestionState>(
  "content.write",
  async ({ formData, actor, store }) => {
    const record = readVersionedRecord(formData, "datasetId");
    if (!record) return refuse(staleForm);
    await store.updateQuestionDataset(actor, record.id, record.version, {
      sql: formText(formData, "sql"),
    });
    return done({ redirectTo: `/admin/datasets/${record.id}?saved=question-changed` });
  },
);
