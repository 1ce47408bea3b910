import "server-only";
import type { Actor } from "@seed/store";
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
  | "user.role-from-sign-on";

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
