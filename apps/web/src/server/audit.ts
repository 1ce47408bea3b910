import "server-only";
import { getStore } from "./store";

export type UserAuditAction =
  | "user.create"
  | "user.set-role"
  | "user.ban"
  | "user.unban"
  | "user.revoke-sessions"
  | "user.delete";

export interface AuditActor {
  id: string;
  email: string;
}

/** User-management events go through the store's audit API, beside its own events. */
export async function recordUserEvent(
  actor: AuditActor,
  action: UserAuditAction,
  userId: string,
  detail: Record<string, unknown>,
): Promise<void> {
  const store = await getStore();
  await store.recordAuditEvent({ actor, action, entityType: "user", entityId: userId, detail });
}
