import "server-only";
import { isRole } from "@seed/model";
import type { Actor } from "@seed/store";
import { requestClientAddress } from "./sign-in-throttle";
import { getStore } from "./store";

export type UserAuditAction =
  | "user.create"
  | "user.set-role"
  | "user.ban"
  | "user.unban"
  | "user.revoke-sessions"
  | "user.delete"
  /** An admin turned a user's second factor off (a lost phone and recovery codes). */
  | "user.reset-two-factor"
  /** A user's own account: second factor on, off, new recovery codes. */
  | "user.enable-two-factor"
  | "user.disable-two-factor"
  | "user.new-recovery-codes"
  /** Single sign-on: an account made at its first sign-in, a password account linked, a role taken from the provider's claim. */
  | "user.create-by-sign-on"
  | "user.link-sign-on"
  | "user.role-from-sign-on"
  /** A session began (how the account proved who it is, from which address) or was ended by its account. */
  | "user.sign-in"
  | "user.sign-out"
  /** A password refused for an existing account (wrong, the account blocked, or its role on sign-on only). */
  | "user.sign-in-refused";

/** User-management events go through the store's audit API, beside its own events. */
export async function recordUserEvent(
  actor: Actor,
  action: UserAuditAction,
  userId: string,
  detail: Record<string, unknown>,
): Promise<void> {
  const store = await getStore();
  await store.recordAuditEvent({ actor, action, entityType: "user", entityId: userId, detail });
}

/** How an account proved who it is when a session began. */
export type SignInMethod =
  | "password"
  | "password and app code"
  | "password and recovery code"
  | "single sign-on";

/** better-auth's user as an audit actor, or null when it is not one (no id, email or role). */
export function accountActor(user: unknown): Actor | null {
  if (typeof user !== "object" || user === null) return null;
  const { id, email, role } = user as Record<string, unknown>;
  if (typeof id !== "string" || typeof email !== "string" || !isRole(role)) return null;
  return { id, email, role };
}

/**
 * Every session an account begins is audited on that account: how (the method) and from which
 * client (the address the sign-in throttle counts, and the browser's own name, at most 200
 * characters). A second factor's sign-in is one event, at the code; the password alone is none.
 */
export function recordSignIn(user: unknown, method: SignInMethod, requestHeaders: Headers) {
  return recordClientEvent(user, "user.sign-in", { method }, requestHeaders);
}

/** Why a password sign-in of an existing account was refused. */
export type SignInRefusal =
  | "wrong password"
  | "account blocked"
  | "password sign-in off for the role";

/**
 * A refused password of an existing account is audited on that account, with the client that
 * sent it (an email nobody has names no account, so it is not; the sign-in throttle bounds how
 * many a client or an account can make).
 */
export function recordRefusedSignIn(user: unknown, reason: SignInRefusal, requestHeaders: Headers) {
  return recordClientEvent(user, "user.sign-in-refused", { reason }, requestHeaders);
}

/** An event on better-auth's user (when it is an account), with the client it came from. */
async function recordClientEvent(
  user: unknown,
  action: "user.sign-in" | "user.sign-in-refused",
  detail: Record<string, unknown>,
  requestHeaders: Headers,
): Promise<void> {
  const actor = accountActor(user);
  if (!actor) return;
  await recordUserEvent(actor, action, actor.id, {
    ...detail,
    address: requestClientAddress(requestHeaders),
    userAgent: (requestHeaders.get("user-agent") ?? "").slice(0, 200),
  });
}
