"use server";

import { type ApiTokenScope, apiTokenLimits } from "@seed/model";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { formText } from "@/lib/form-state";
import { done, formAction, refuse, staleForm } from "@/server/form-action";

/** The create form's state: on success, the secret (shown this once) and its name. */
export type ApiTokenFormState = ContentFormState & { secret?: string; tokenName?: string };

/** Makes a personal API token for the signed-in account; the secret goes back to this form only. */
export const createApiToken = formAction<ApiTokenFormState>(
  "content.read",
  async ({ formData, store, actor }) => {
    const name = formText(formData, "name").slice(0, apiTokenLimits.maxNameLength + 1);
    const days = formText(formData, "expiresInDays").trim();
    const created = await store.createApiToken(
      {
        name,
        scope: formText(formData, "scope").slice(0, 20) as ApiTokenScope,
        expiresInDays: /^\d{1,4}$/.test(days) ? Number(days) : Number.NaN,
      },
      actor,
    );
    return done({
      message: `Token "${created.token.name}" created. Copy it now: it is not shown again.`,
      extra: { secret: created.secret, tokenName: created.token.name },
      revalidate: { adminPath: "/admin/tokens" },
    });
  },
);

export const revokeApiToken = formAction<ContentFormState>(
  "content.read",
  async ({ formData, store, actor }) => {
    const tokenId = formText(formData, "tokenId").slice(0, 200);
    if (tokenId === "") return refuse(staleForm);
    const revoked = await store.revokeApiToken(tokenId, actor);
    return done({
      message: `Token "${revoked.name}" revoked.`,
      revalidate: { adminPath: "/admin/tokens" },
    });
  },
);
