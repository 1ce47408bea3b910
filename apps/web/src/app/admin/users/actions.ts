"use server";

import { roles } from "@seed/model";
import { headers } from "next/headers";
import { z } from "zod";
import { type FormState, fieldErrorsFromZod, formText } from "@/lib/form-state";
import { recordUserEvent } from "@/server/audit";
import { type AuthRefusal, asAuthRefusal, getAuth } from "@/server/auth-instance";
import { done, formAction, refuse } from "@/server/form-action";
import { oidcSettingsFromEnv } from "@/server/oidc-settings.mjs";
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

/**
 * Whether `target` is the last admin who can still sign in: such an account may be neither
 * demoted nor blocked.
 */
async function isLastActiveAdmin(
  auth: AuthInstance,
  requestHeaders: Headers,
  target: { id: string; role: string | null },
): Promise<boolean> {
  if (target.role !== "admin") return false;
  const { users } = await auth.api.listUsers({
    query: { filterField: "role", filterOperator: "eq", filterValue: "admin", limit: 10_000 },
    headers: requestHeaders,
  });
  const active = users.filter((user) => !user.banned).map((user) => user.id);
  return active.length <= 1 && active.includes(target.id);
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

/** better-auth's refusal of a call, or the error rethrown when it is not a refusal. */
async function refusalOf(call: Promise<unknown>): Promise<AuthRefusal | null> {
  try {
    await call;
    return null;
  } catch (error) {
    const refusal = asAuthRefusal(error);
    if (!refusal) throw error;
    return refusal;
  }
}

export const createUser = formAction<CreateUserState>(
  "users.manage",
  async ({ formData, actor }) => {
    const values = {
      name: formText(formData, "name").trim(),
      email: formText(formData, "email").trim(),
      role: formText(formData, "role"),
    };
    const parsed = newUserSchema.safeParse({ ...values, password: formText(formData, "password") });
    if (!parsed.success)
      return refuse({ fieldErrors: fieldErrorsFromZod(parsed.error.issues), values });
    const auth = await getAuth();
    let userId = "";
    const refusal = await refusalOf(
      auth.api.createUser({ body: parsed.data, headers: await headers() }).then(({ user }) => {
        userId = user.id;
      }),
    );
    if (refusal?.code?.startsWith("USER_ALREADY_EXISTS")) {
      return refuse({ fieldErrors: { email: ["A user with this email already exists."] }, values });
    }
    if (refusal)
      return refuse({ formError: refusal.message || "The account was refused.", values });
    await recordUserEvent(actor, "user.create", userId, {
      email: parsed.data.email,
      role: parsed.data.role,
    });
    return done({
      message: `Created ${parsed.data.email} as ${parsed.data.role}.`,
      revalidate: "users",
    });
  },
);

export const setUserRole = formAction<UserActionState>(
  "users.manage",
  async ({ formData, session, actor }) => {
    const parsed = setRoleSchema.safeParse({
      userId: formText(formData, "userId"),
      role: formText(formData, "role"),
    });
    if (!parsed.success) return refuse({ fieldErrors: fieldErrorsFromZod(parsed.error.issues) });
    if (parsed.data.userId === session.user.id) {
      return refuse({ formError: "You can't change your own role; ask another admin." });
    }
    const auth = await getAuth();
    const requestHeaders = await headers();
    const target = await findUser(auth, parsed.data.userId);
    if (!target) return refuse({ formError: "That user no longer exists." });
    if (target.role === parsed.data.role) {
      return done({ message: `Role is already ${parsed.data.role}.`, revalidate: "none" });
    }
    if (parsed.data.role !== "admin" && (await isLastActiveAdmin(auth, requestHeaders, target))) {
      return refuse({ formError: "This is the last admin; make another admin first." });
    }
    const refusal = await refusalOf(
      auth.api.setRole({ body: parsed.data, headers: requestHeaders }),
    );
    if (refusal) return refuse({ formError: refusal.message || "The change was refused." });
    await recordUserEvent(actor, "user.set-role", parsed.data.userId, {
      role: parsed.data.role,
      previousRole: target.role,
    });
    return done({ message: `Role set to ${parsed.data.role}.`, revalidate: "users" });
  },
);

type UserChange = "ban" | "unban" | "revoke-sessions" | "delete" | "reset-two-factor";

const changeDone: Record<UserChange, string> = {
  ban: "Blocked.",
  unban: "Unblocked.",
  "revoke-sessions": "Signed out everywhere.",
  delete: "The user was deleted.",
  "reset-two-factor":
    "Two-factor sign-in is off for this account; they sign in with their password.",
};

/** Removes an account's second factor (key and recovery codes), for one who lost both. */
async function resetTwoFactor(auth: AuthInstance, userId: string): Promise<void> {
  const context = await auth.$context;
  await context.adapter.deleteMany({
    model: "twoFactor",
    where: [{ field: "userId", value: userId }],
  });
  await context.internalAdapter.updateUser(userId, { twoFactorEnabled: false });
}

function userChange(change: UserChange) {
  return formAction<UserActionState>(
    "users.manage",
    async ({ formData, session, actor, store }) => {
      const parsed = userIdSchema.safeParse(formText(formData, "userId"));
      if (!parsed.success) {
        return refuse({
          fieldErrors: { userId: parsed.error.issues.map((issue) => issue.message) },
        });
      }
      const userId = parsed.data;
      if (change === "ban" && userId === session.user.id) {
        return refuse({ formError: "You can't block your own account." });
      }
      if (change === "delete" && userId === session.user.id) {
        return refuse({ formError: "You can't delete your own account." });
      }
      const auth = await getAuth();
      const requestHeaders = await headers();
      const target = await findUser(auth, userId);
      if (!target) return refuse({ formError: "That user no longer exists." });
      if (
        (change === "ban" || change === "delete") &&
        (await isLastActiveAdmin(auth, requestHeaders, target))
      ) {
        return refuse({
          formError: `This is the last admin who can sign in; it can't be ${change === "ban" ? "blocked" : "deleted"}.`,
        });
      }
      const body = { userId };
      const call =
        change === "ban"
          ? auth.api.banUser({ body, headers: requestHeaders })
          : change === "unban"
            ? auth.api.unbanUser({ body, headers: requestHeaders })
            : change === "delete"
              ? auth.api.removeUser({ body, headers: requestHeaders })
              : change === "reset-two-factor"
                ? resetTwoFactor(auth, userId)
                : auth.api.revokeUserSessions({ body, headers: requestHeaders });
      const refusal = await refusalOf(call);
      if (refusal) return refuse({ formError: refusal.message || "The change was refused." });
      if (change === "delete") await store.forgetGroupMember(userId);
      // Acting on another admin is allowed only through this flow, and the log says so.
      await recordUserEvent(
        actor,
        `user.${change}`,
        userId,
        target.role === "admin" ? { targetRole: "admin" } : {},
      );
      // A deleted user's row goes with it, so the page itself says what happened.
      if (change === "delete")
        return done({ redirectTo: "/admin/users?deleted=1", revalidate: "users" });
      return done({ message: changeDone[change], revalidate: "users" });
    },
  );
}

export const banUser = userChange("ban");
export const unbanUser = userChange("unban");
export const revokeUserSessions = userChange("revoke-sessions");
export const deleteUser = userChange("delete");
export const resetUserTwoFactor = userChange("reset-two-factor");

/** The roles that must use two-factor sign-in (an admin's setting, audited by the store). */
export type TwoFactorRequirementState = FormState<{ roles: string }>;

export const setTwoFactorRequirement = formAction<TwoFactorRequirementState>(
  "settings.manage",
  async ({ formData, store, actor }) => {
    const chosen = formData
      .getAll("roles")
      .filter((value): value is string => typeof value === "string")
      .slice(0, roles.length + 1);
    const saved = await store.setTwoFactorRequiredRoles(actor, { roles: chosen });
    return done({
      message:
        saved.length === 0
          ? "Two-factor sign-in is optional for everyone."
          : `Two-factor sign-in is required of: ${saved.map((role) => `${role}s`).join(", ")}. Those without it set it up at their next page.`,
      revalidate: "users",
    });
  },
);

/** Which roles may sign in with a password while single sign-on is set up (admins always). */
export type PasswordSignInState = FormState<{ roles: string }>;

export const setPasswordSignIn = formAction<PasswordSignInState>(
  "settings.manage",
  async ({ formData, store, actor }) => {
    const provider = oidcSettingsFromEnv();
    if (!provider) {
      return refuse({
        formError:
          "Single sign-on is not set up (SEED_OIDC_ISSUER), so everyone signs in with a password.",
      });
    }
    const chosen = formData
      .getAll("roles")
      .filter((value): value is string => typeof value === "string")
      .slice(0, roles.length + 1);
    const saved = await store.setPasswordSignInRoles(actor, { roles: chosen });
    const off = roles.filter((role) => !saved.includes(role));
    return done({
      message:
        off.length === 0
          ? "Every role may sign in with a password."
          : `Password sign-in is off for ${off.map((role) => `${role}s`).join(" and ")}: they sign in with ${provider.name}. Admins keep their password.`,
      revalidate: "users",
    });
  },
);
