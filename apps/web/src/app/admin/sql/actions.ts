"use server";

import type { FormState } from "@/lib/form-state";
import { formText } from "@/lib/form-state";
import { done, formAction } from "@/server/form-action";

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
