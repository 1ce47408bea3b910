"use server";

import { ConflictError, NotFoundError } from "@seed/store";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type FormState, fieldErrorsFromZod, formText } from "@/lib/form-state";
import { requireRole } from "@/server/auth";
import { getStore } from "@/server/store";

export type PublishState = FormState<{ dashboardId: string; version: string }>;

const publishSchema = z.object({
  dashboardId: z.string().min(1, { error: "Pick a dashboard." }).max(200),
  version: z.coerce.number().int().min(1, { error: "Reload the page and try again." }),
  publish: z.enum(["true", "false"]),
});

/** Editors and admins publish or unpublish; viewers get 403 like on every other write. */
export async function setDashboardPublished(
  _previous: PublishState,
  formData: FormData,
): Promise<PublishState> {
  const session = await requireRole("admin", "editor");
  const parsed = publishSchema.safeParse({
    dashboardId: formText(formData, "dashboardId"),
    version: formText(formData, "version"),
    publish: formText(formData, "publish"),
  });
  if (!parsed.success) return { fieldErrors: fieldErrorsFromZod(parsed.error.issues) };
  const store = await getStore();
  const actor = { id: session.user.id, email: session.user.email };
  const { dashboardId, version, publish } = parsed.data;
  try {
    if (publish === "true") await store.publishDashboard(dashboardId, version, actor);
    else await store.unpublishDashboard(dashboardId, version, actor);
  } catch (error) {
    if (error instanceof ConflictError || error instanceof NotFoundError) {
      return { formError: error.message };
    }
    throw error;
  }
  revalidatePath("/admin/dashboards");
  revalidatePath("/");
  return { message: publish === "true" ? "Published." : "Moved back to draft." };
}
