import { ForbiddenError, type Permission, permissions, ValidationError } from "@seed/model";
import { z } from "zod";
import { type StoreContext, writeAudit } from "../context.js";
import { type Actor, checkActor } from "./policy.js";

// Refusals that matter are audited (issue 28): a signed-in account's call the policy refused (its
// role, its collections' levels, a row limit) is recorded as "user.denied" on that account, with
// the operation, the permission and the reason, so admins see who tried what. The refused call
// itself wrote nothing; this event is written after it, on its own. Bounded: at most one event per
// account and refusal (operation, permission, reason) a minute for each open store, so a loop of
// refusals cannot fill the log.

const denialInterval = 60_000;
const maxRemembered = 10_000;
const lastDeniedIn = new WeakMap<StoreContext, Map<string, number>>();

/**
 * The account a refused call named: the argument (or an argument's `actor`, as audit events carry
 * it) with the refusal's actor id and an email.
 */
function actorIn(args: readonly unknown[], actorId: string): { id: string; email: string } | null {
  for (const arg of args) {
    if (typeof arg !== "object" || arg === null) continue;
    for (const candidate of [arg, (arg as { actor?: unknown }).actor]) {
      if (typeof candidate !== "object" || candidate === null) continue;
      const { id, email } = candidate as { id?: unknown; email?: unknown };
      if (id === actorId && typeof email === "string") return { id, email };
    }
  }
  return null;
}

/** Records `error` as a denial when it is the policy's refusal of a known account; never throws. */
export async function auditDenial(
  ctx: StoreContext,
  operation: string,
  args: readonly unknown[],
  error: unknown,
): Promise<void> {
  if (!(error instanceof ForbiddenError)) return;
  const actor = actorIn(args, error.actorId);
  if (actor === null) return;
  const lastDenied = lastDeniedIn.get(ctx) ?? new Map<string, number>();
  lastDeniedIn.set(ctx, lastDenied);
  const key = [actor.id, operation, error.permission, error.message].join("\u0000");
  const now = ctx.now().getTime();
  const last = lastDenied.get(key);
  if (last !== undefined && now - last < denialInterval) return;
  if (lastDenied.size >= maxRemembered) lastDenied.clear();
  lastDenied.set(key, now);
  try {
    await writeAudit(ctx.db, ctx, actor, "user.denied", "user", actor.id, {
      operation,
      permission: error.permission,
      reason: error.message,
    });
  } catch {
    // The refusal stands whether or not its record could be written (a closed store, say).
  }
}

/** A place is a label (a path, a method): a longer one is cut to the bound here, once for all callers. */
const maxWhereLength = 200;
const deniedWhereSchema = z.string().trim().min(1).max(maxWhereLength);

/**
 * For the web app's own gates (a page, action or route the account's role does not open, refused
 * before any store call): the refusal audited as the store's own are, with the same bound.
 */
async function recordDenial(
  ctx: StoreContext,
  actor: Actor,
  input: { where: string; permission: Permission },
): Promise<void> {
  const checked = checkActor(actor);
  const where = deniedWhereSchema.safeParse(
    typeof input.where === "string" ? input.where.slice(0, maxWhereLength) : input.where,
  );
  if (!where.success || !(permissions as readonly string[]).includes(input.permission)) {
    throw new ValidationError({
      fieldErrors: {},
      formError: "A denial names where it happened and a known permission.",
    });
  }
  await auditDenial(ctx, where.data, [checked], new ForbiddenError(input.permission, checked.id));
}

export const denialOperations = { recordDenial };
