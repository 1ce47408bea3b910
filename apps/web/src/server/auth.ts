import "server-only";
import { can, isRole, type Permission, type Role } from "@seed/model";
import { headers } from "next/headers";
import { forbidden, redirect, unauthorized } from "next/navigation";
import { cache } from "react";
import { errorResponse } from "@/lib/http-status";
import { loginPath } from "@/lib/safe-next-path";
import { getAuth } from "./auth-instance";
import { sessionSettingsFromEnv } from "./auth-options.mjs";
import { getStore } from "./store";

const sessionSettings = cache(() => sessionSettingsFromEnv());

export type { Permission, Role };

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  /** null when the stored role is not one this app knows: such a user gets no access. */
  role: Role | null;
  /** Whether the account signs in with a second factor (an authenticator app's code). */
  twoFactorEnabled: boolean;
}

export interface Session {
  user: SessionUser;
  sessionId: string;
  expiresAt: Date;
}

/** Request header the proxy sets to the requested admin path, used for the sign-in return path. */
export const requestPathHeader = "x-seed-request-path";

/** The signed-in user of this request, read once per render, or null. */
export const getSession = cache(async (): Promise<Session | null> => {
  // headers() first: it marks the render dynamic before anything opens the database.
  const requestHeaders = await headers();
  const auth = await getAuth();
  const result = await auth.api.getSession({ headers: requestHeaders });
  if (!result || result.user.banned) return null;
  // better-auth slides the expiry on use (the idle timeout); the absolute lifetime is kept here.
  const ageSeconds = (Date.now() - new Date(result.session.createdAt).getTime()) / 1000;
  if (ageSeconds > sessionSettings().maxSeconds) {
    await (await auth.$context).internalAdapter.deleteSession(result.session.token);
    return null;
  }
  return {
    user: {
      id: result.user.id,
      email: result.user.email,
      name: result.user.name,
      role: isRole(result.user.role) ? result.user.role : null,
      twoFactorEnabled: result.user.twoFactorEnabled === true,
    },
    sessionId: result.session.id,
    expiresAt: result.session.expiresAt,
  };
});

/** A session whose user has a role this app knows. */
export type SignedInSession = Session & { user: { role: Role } };

/** Where an account sets up its second factor; the one admin page open while that is due. */
export const accountPath = "/admin/account";

/** The roles an admin requires two-factor sign-in of, read once per render. */
const requiredTwoFactorRoles = cache(async () => (await getStore()).twoFactorRequiredRoles());

/** Whether an admin requires every account of this role to sign in with a second factor. */
export async function twoFactorRequiredFor(role: Role): Promise<boolean> {
  return (await requiredTwoFactorRoles()).includes(role);
}

/** Whether the account has a password (accounts made by single sign-on have none). */
export const hasPassword = cache(async (userId: string): Promise<boolean> => {
  const accounts = await (await (await getAuth()).$context).internalAdapter.findAccounts(userId);
  return accounts.some((account) => account.providerId === "credential");
});

/**
 * Whether this account must set up two-factor sign-in before it may do anything else. The
 * requirement is of password accounts: one that signs in only through the identity provider
 * has the provider's own second factor, and no password to protect.
 */
export async function twoFactorSetupDue(session: SignedInSession): Promise<boolean> {
  return (
    !session.user.twoFactorEnabled &&
    (await twoFactorRequiredFor(session.user.role)) &&
    (await hasPassword(session.user.id))
  );
}

/** Signed in with a role that allows `permission`: no session 401 or /login, no permission 403. */
async function requireSignedIn(permission: Permission): Promise<SignedInSession> {
  const session = await getSession();
  if (!session) {
    const requestHeaders = await headers();
    if (requestHeaders.has("next-action")) unauthorized();
    redirect(loginPath(requestHeaders.get(requestPathHeader) ?? "/admin"));
  }
  const role = session.user.role;
  if (role === null || !can(role, permission)) {
    const requestHeaders = await headers();
    const path = requestHeaders.get(requestPathHeader) ?? "/admin";
    const where = requestHeaders.has("next-action") ? `action on ${path}` : `page ${path}`;
    await auditDenial(session, where, permission);
    forbidden();
  }
  return { ...session, user: { ...session.user, role } };
}

/**
 * A signed-in account refused by these gates is audited as the store's own refusals are
 * (user.denied on the account, at most once a minute per place and permission).
 */
async function auditDenial(session: Session, where: string, permission: Permission) {
  const { id, email, role } = session.user;
  // An account with a role no longer known cannot be named as an actor; nothing to record.
  if (!isRole(role)) return;
  const store = await getStore();
  await store.recordDenial({ id, email, role }, { where, permission });
}

/**
 * The gate of the admin layout and the account page: signed in with a known role, even while
 * two-factor setup is due (that is where it is done).
 */
export function requireAccount(): Promise<SignedInSession> {
  return requireSignedIn("content.read");
}

/**
 * The early gate of pages and actions (the store decides again): no session 401 or /login, no
 * permission 403, and an account whose role must use two-factor sign-in and has not set it up
 * goes to the account page first.
 */
export async function requirePermission(permission: Permission): Promise<SignedInSession> {
  const session = await requireSignedIn(permission);
  if (await twoFactorSetupDue(session)) redirect(`${accountPath}?two-factor=required`);
  return session;
}

export function hasPermission(session: Session | null, permission: Permission): boolean {
  return can(session?.user.role, permission);
}

type PermissionCheckedHandler<Context> = (
  request: Request,
  session: SignedInSession,
  context: Context,
) => Promise<Response> | Response;

/** Route handlers answer 401/403 as JSON instead of redirecting. */
export function withPermission<Context = unknown>(
  permission: Permission,
  handler: PermissionCheckedHandler<Context>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    const session = await getSession();
    if (!session) return errorResponse(401, "Sign in to use this endpoint.");
    const role = session.user.role;
    if (role === null || !can(role, permission)) {
      await auditDenial(session, `${request.method} ${new URL(request.url).pathname}`, permission);
      return errorResponse(403, "Your role does not allow this.");
    }
    const signedIn = { ...session, user: { ...session.user, role } };
    if (await twoFactorSetupDue(signedIn)) {
      return errorResponse(403, `Set up two-factor sign-in first, on ${accountPath}.`);
    }
    return handler(request, signedIn, context);
  };
}
