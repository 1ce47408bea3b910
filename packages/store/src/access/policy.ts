import {
  type AuditEntityType,
  type DatasetTokenScope,
  ForbiddenError,
  type Permission,
  type Role,
  can as roleCan,
  roles,
  tokenScopePermissions,
  ValidationError,
} from "@seed/model";
import { z } from "zod";
import type { RecordedActor } from "../context.js";

/** Who acts on the store: an account with its role, or a built-in actor given one explicitly. */
export interface Actor extends RecordedActor {
  role: Role;
}

/** A push token on its own dataset, its scope its permission; only the push path makes one, so no caller's object is one. */
export class TokenActor implements RecordedActor {
  constructor(
    readonly id: string,
    readonly email: string,
    readonly datasetId: string,
    readonly scope: DatasetTokenScope,
  ) {}
}

/** What a permission is asked for; a token's grant holds on its own dataset only. */
export interface PolicyTarget {
  datasetId?: string;
}

/** The one decision: whether this actor may do what `permission` names, on `target`. */
export function can(
  actor: Actor | TokenActor,
  permission: Permission,
  target: PolicyTarget = {},
): boolean {
  if (actor instanceof TokenActor) {
    return (
      target.datasetId === actor.datasetId &&
      tokenScopePermissions[actor.scope].includes(permission)
    );
  }
  return roleCan(actor.role, permission);
}

const actorSchema = z.object({
  id: z.string().min(1),
  email: z.string(),
  role: z.enum(roles),
});

/** A caller's actor checked for shape: an id, an email and one known role, nothing else kept. */
export function checkActor(actor: unknown): Actor {
  const result = actorSchema.safeParse(actor);
  if (!result.success) {
    throw new ValidationError({
      fieldErrors: {},
      formError: "Every change needs a signed-in actor with an id, an email and a role.",
    });
  }
  return { id: result.data.id, email: result.data.email, role: result.data.role };
}

/** The first step of every write (and every read some roles may not make): checked, then allowed or ForbiddenError. */
export function authorize(
  actor: Actor | TokenActor,
  permission: Permission,
  target: PolicyTarget = {},
): Actor | TokenActor {
  const checked = actor instanceof TokenActor ? actor : checkActor(actor);
  if (!can(checked, permission, target)) throw new ForbiddenError(permission, checked.id);
  return checked;
}

/** Events a signed-in user records about their own account, which any role may (two-factor sign-in). */
export const ownAccountActions = [
  "user.enable-two-factor",
  "user.disable-two-factor",
  "user.new-recovery-codes",
  // What a sign-in through the identity provider does to the account signing in.
  "user.create-by-sign-on",
  "user.link-sign-on",
  "user.role-from-sign-on",
  "user.groups-from-sign-on",
  // A session begun or ended by the account, and a password refused for it.
  "user.sign-in",
  "user.sign-out",
  "user.sign-in-refused",
] as const;

/**
 * What recording this event needs: an event about the actor's own account, of an own-account
 * action, only a role; any other, the permission its kind of record names.
 */
export function auditEventPermissionFor(
  event: { action: string; entityType: AuditEntityType; entityId: string },
  actorId: string,
): Permission {
  const own =
    event.entityType === "user" &&
    event.entityId === actorId &&
    (ownAccountActions as readonly string[]).includes(event.action);
  return own ? "content.read" : auditEventPermission[event.entityType];
}

/** What recording an event about this kind of record needs (the web app's user events among them). */
export const auditEventPermission: Readonly<Record<AuditEntityType, Permission>> = {
  dataset: "content.write",
  chart: "content.write",
  dashboard: "content.write",
  source: "sources.manage",
  user: "users.manage",
  question: "sql.run",
  settings: "settings.manage",
  report: "content.write",
  alert: "content.write",
  group: "users.manage",
  collection: "collections.manage",
};
