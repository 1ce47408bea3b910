"use server";

import { groupLimits } from "@seed/model";
import { z } from "zod";
import { storeErrorState } from "@/components/admin/store-errors";
import { type FormState, formText } from "@/lib/form-state";
import { done, formAction, refuse } from "@/server/form-action";

// Groups of accounts: made, renamed, filled and deleted by an admin. The store checks the
// permission again, validates and audits each change in the same transaction.

export type GroupFormState = FormState<{ name: string; groupId: string; userIds: string }>;

const groupIdSchema = z.string().min(1).max(200);

/** The group the form is about, or a refusal when the form carries none. */
function groupIdOf(formData: FormData): string | null {
  const parsed = groupIdSchema.safeParse(formText(formData, "groupId"));
  return parsed.success ? parsed.data : null;
}

const noGroup = { formError: "Reload the page and try again." } as const;

export const createGroup = formAction<GroupFormState>(
  "users.manage",
  async ({ formData, store, actor }) => {
    const name = formText(formData, "name").slice(0, groupLimits.maxNameLength * 4);
    try {
      const group = await store.createGroup(actor, { name });
      return done({
        message: `Created the group ${group.name}. Open it to choose its members.`,
        revalidate: "users",
      });
    } catch (error) {
      // The typed name stays in the field beside its message (anything else is thrown on).
      return refuse({ ...storeErrorState(error), values: { name } } as GroupFormState);
    }
  },
);

export const renameGroup = formAction<GroupFormState>(
  "users.manage",
  async ({ formData, store, actor }) => {
    const groupId = groupIdOf(formData);
    if (!groupId) return refuse(noGroup);
    const name = formText(formData, "name").slice(0, groupLimits.maxNameLength * 4);
    await store.renameGroup(actor, groupId, { name });
    return done({
      message: "Name saved.",
      revalidate: { adminPath: `/admin/users/groups/${groupId}` },
    });
  },
);

export const setGroupMembers = formAction<GroupFormState>(
  "users.manage",
  async ({ formData, store, actor }) => {
    const groupId = groupIdOf(formData);
    if (!groupId) return refuse(noGroup);
    const userIds = formData
      .getAll("userIds")
      .filter((value): value is string => typeof value === "string")
      .slice(0, groupLimits.maxMembers + 1);
    const { added, removed } = await store.setGroupMembers(actor, groupId, { userIds });
    const changes = [
      added.length > 0 ? `${added.length} added` : "",
      removed.length > 0 ? `${removed.length} removed` : "",
    ].filter(Boolean);
    return done({
      message: changes.length > 0 ? `Members saved: ${changes.join(", ")}.` : "No change.",
      revalidate: { adminPath: `/admin/users/groups/${groupId}` },
    });
  },
);

export const deleteGroup = formAction<GroupFormState>(
  "users.manage",
  async ({ formData, store, actor }) => {
    const groupId = groupIdOf(formData);
    if (!groupId) return refuse(noGroup);
    await store.deleteGroup(actor, groupId);
    return done({ redirectTo: "/admin/users?group-deleted=1", revalidate: "users" });
  },
);
