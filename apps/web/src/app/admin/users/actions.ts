"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { type FormState, fieldErrorsFromZod, formText } from "@/lib/form-state";
import { recordUserEvent } from "@/server/audit";
import { requireRole } from "@/server/auth";
import { asAuthRefusal, getAuth } from "@/server/auth-instance";
import { roles } from "@/server/auth-options.mjs";
import { newUserSchema } from "@/server/user-input";

export type CreateUserState = FormState<{
  name: string;
  email: string;
  password: string;
  role: string;
}>;

export type UserActionState = FormState<{ userId: string; role: string }>;

const userIdSchema = z
  .string()
  .min(1, { error: "Pick a user." })
  .max(200, { error: "Pick a user." });

const setRoleSchema = z.object({
  userId: userIdSchema,
  role: z.enum(roles, { error: "Choose admin, editor or viewer." }),
});

type AuthInstance = Awaited<ReturnType<typeof getAuth>>;

/** Admins who can still sign in: the last of them may not be demoted or blocked. */
async function activeAdminIds(auth: AuthInstance, requestHeaders: Headers): Promise<string[]> {
  const { users } = await auth.api.listUsers({
    query: { filterField: "role", filterOperator: "eq", filterValue: "admin", limit: 10_000 },
    headers: requestHeaders,
  });
  return users.filter((user) => !user.banned).map((user) => user.id);
}

/** The user with its admin-plugin fields (role, banned), or null. */
async function findUser(
  auth: AuthInstance,
  userId: string,
): Promise<{ id: string; role: string | null; banned: boolean } | null> {
  const context = await auth.$context;
  const user = (await context.internalAdapter.findUserById(userId)) as
    | (Record<string, unknown> & { id: string })
    | null;
  if (!user) return null;
  return {
    id: user.id,
    role: typeof user.role === "string" ? user.role : null,
    banned: user.banned === true,
  };
}

function apiErrorMessage(error: unknown): string {
  const refusal = asAuthRefusal(error);
  if (refusal) return refusal.message || "The change was refused.";
  throw error;
}

export async function createUser(
  _previous: CreateUserState,
  formData: FormData,
): Promise<CreateUserState> {
  const session = await requireRole("admin");
  const values = {
    name: formText(formData, "name").trim(),
    email: formText(formData, "email").trim(),
    role: formText(formData, "role"),
  };
  const parsed = newUserSchema.safeParse({ ...values, password: formText(formData, "password") });
  if (!parsed.success) return { fieldErrors: fieldErrorsFromZod(parsed.error.issues), values };
  const auth = await getAuth();
  let userId: string;
  try {
    const { user } = await auth.api.createUser({ body: parsed.data, headers: await headers() });
    userId = user.id;
  } catch (error) {
    const message = apiErrorMessage(error);
    if (/exist/i.test(message)) {
      return { fieldErrors: { email: ["A user with this email already exists."] }, values };
    }
    return { formError: message, values };
  }
  await recordUserEvent(session.user, "user.create", userId, {
    email: parsed.data.email,
    role: parsed.data.role,
  });
  revalidatePath("/admin/users");
  return { message: `Created ${parsed.data.email} as ${parsed.data.role}.` };
}

export async function setUserRole(
  _previous: UserActionState,
  formData: FormData,
): Promise<UserActionState> {
  const session = await requireRole("admin");
  const parsed = setRoleSchema.safeParse({
    userId: formText(formData, "userId"),
    role: formText(formData, "role"),
  });
  if (!parsed.success) return { fieldErrors: fieldErrorsFromZod(parsed.error.issues) };
  if (parsed.data.userId === session.user.id) {
    return { formError: "You can't change your own role; ask another admin." };
  }
  const auth = await getAuth();
  const requestHeaders = await headers();
  const target = await findUser(auth, parsed.data.userId);
  if (!target) return { formError: "That user no longer exists." };
  if (target.role === parsed.data.role) return { message: `Role is already ${parsed.data.role}.` };
  if (target.role === "admin" && parsed.data.role !== "admin") {
    const admins = await activeAdminIds(auth, requestHeaders);
    if (admins.length <= 1 && admins.includes(target.id)) {
      return { formError: "This is the last admin; make another admin first." };
    }
  }
  try {
    await auth.api.setRole({ body: parsed.data, headers: requestHeaders });
  } catch (error) {
    return { formError: apiErrorMessage(error) };
  }
  await recordUserEvent(session.user, "user.set-role", parsed.data.userId, {
    role: parsed.data.role,
    previousRole: target.role ?? null,
  });
  revalidatePath("/admin/users");
  return { message: `Role set to ${parsed.data.role}.` };
}

async function changeUser(
  formData: FormData,
  change: "ban" | "unban" | "revoke-sessions",
): Promise<UserActionState> {
  const session = await requireRole("admin");
  const parsed = userIdSchema.safeParse(formText(formData, "userId"));
  if (!parsed.success)
    return { fieldErrors: { userId: parsed.error.issues.map((i) => i.message) } };
  const userId = parsed.data;
  if (change === "ban" && userId === session.user.id) {
    return { formError: "You can't block your own account." };
  }
  const auth = await getAuth();
  const requestHeaders = await headers();
  const target = await findUser(auth, userId);
  if (!target) return { formError: "That user no longer exists." };
  if (change === "ban" && target.role === "admin") {
    const admins = await activeAdminIds(auth, requestHeaders);
    if (admins.length <= 1 && admins.includes(target.id)) {
      return { formError: "This is the last admin who can sign in; it can't be blocked." };
    }
  }
  try {
    if (change === "ban") await auth.api.banUser({ body: { userId }, headers: requestHeaders });
    if (change === "unban") await auth.api.unbanUser({ body: { userId }, headers: requestHeaders });
    if (change === "revoke-sessions") {
      await auth.api.revokeUserSessions({ body: { userId }, headers: requestHeaders });
    }
  } catch (error) {
    return { formError: apiErrorMessage(error) };
  }
  // Acting on another admin is allowed only through this flow, and the log says so.
  await recordUserEvent(
    session.user,
    `user.${change}`,
    userId,
    target.role === "admin" ? { targetRole: "admin" } : {},
  );
  revalidatePath("/admin/users");
  const done = {
    ban: "Blocked.",
    unban: "Unblocked.",
    "revoke-sessions": "Signed out everywhere.",
  };
  return { message: done[change] };
}

export async function banUser(_previous: UserActionState, formData: FormData) {
  return changeUser(formData, "ban");
}

export async function unbanUser(_previous: UserActionState, formData: FormData) {
  return changeUser(formData, "unban");
}

export async function revokeUserSessions(_previous: UserActionState, formData: FormData) {
  return changeUser(formData, "revoke-sessions");
}
