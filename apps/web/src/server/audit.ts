import "server-only";
import { randomUUID } from "node:crypto";
import { getStore } from "./store";

export type UserAuditAction =
  | "user.create"
  | "user.set-role"
  | "user.ban"
  | "user.unban"
  | "user.revoke-sessions";

export interface AuditActor {
  id: string;
  email: string;
}

/** User-management events go to the Store's audit log beside its own dataset/chart/dashboard events. */
export async function recordUserEvent(
  actor: AuditActor,
  action: UserAuditAction,
  userId: string,
  detail: Record<string, unknown>,
): Promise<void> {
  const store = await getStore();
  await store.db
    .insertInto("audit_events")
    .values({
      id: randomUUID(),
      at: new Date().toISOString(),
      actor_id: actor.id,
      actor_email: actor.email,
      action,
      entity_type: "user",
      entity_id: userId,
      detail_json: JSON.stringify(detail),
    })
    .execute();
}
