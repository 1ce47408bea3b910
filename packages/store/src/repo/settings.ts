import { type Role, roles } from "@seed/model";
import { z } from "zod";
import { type Actor, authorize } from "../access/policy.js";
import {
  type Executor,
  parseInput,
  type RecordedActor,
  type StoreContext,
  writeAudit,
} from "../context.js";

// The instance's settings: one row of store_meta each, changed by an admin and audited.

/** A setting's stored text, or null when it was never set. */
export async function readSetting(db: Executor, key: string): Promise<string | null> {
  const row = await db
    .selectFrom("store_meta")
    .select("value")
    .where("key", "=", key)
    .executeTakeFirst();
  return row?.value ?? null;
}

/**
 * Replaces a setting inside the caller's transaction and records the change ("settings.update",
 * with `detail`). The caller has checked "settings.manage".
 */
export async function writeSetting(
  trx: Executor,
  ctx: StoreContext,
  actor: RecordedActor,
  key: string,
  value: string,
  detail: Record<string, unknown>,
): Promise<void> {
  await trx.deleteFrom("store_meta").where("key", "=", key).execute();
  await trx.insertInto("store_meta").values({ key, value }).execute();
  await writeAudit(trx, ctx, actor, "settings.update", "settings", key, detail);
}

const twoFactorKey = "auth.two-factor-required";

const requiredRolesSchema = z
  .array(z.enum(roles, { error: "Choose from admin, editor and viewer." }))
  .max(roles.length)
  .transform((chosen) => roles.filter((role) => chosen.includes(role)));

/**
 * The roles whose accounts must sign in with a second factor (none until an admin says so). Read
 * without an actor: the sign-in gate asks it for every user, and it names no one.
 */
export async function twoFactorRequiredRoles(ctx: StoreContext): Promise<Role[]> {
  return requiredRolesIn(ctx.db);
}

/** The stored requirement; none when unset or unreadable. */
async function requiredRolesIn(db: Executor): Promise<Role[]> {
  const stored = await readSetting(db, twoFactorKey);
  if (stored === null) return [];
  try {
    const parsed = requiredRolesSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Sets the roles that must use two-factor sign-in (an admin's setting), audited. */
export async function setTwoFactorRequiredRoles(
  ctx: StoreContext,
  actor: Actor,
  input: { roles: readonly string[] },
): Promise<Role[]> {
  const checked = authorize(actor, "settings.manage");
  const { roles: chosen } = parseInput(z.object({ roles: requiredRolesSchema }), input);
  await ctx.db.transaction().execute(async (trx) => {
    const previous = await requiredRolesIn(trx);
    await writeSetting(trx, ctx, checked, twoFactorKey, JSON.stringify(chosen), {
      added: chosen.filter((role) => !previous.includes(role)),
      removed: previous.filter((role) => !chosen.includes(role)),
    });
  });
  return chosen;
}

const passwordSignInKey = "auth.password-sign-in";

/** The roles whose accounts may sign in with a password; every role when the row is unset. */
async function passwordRolesIn(db: Executor): Promise<Role[]> {
  const stored = await readSetting(db, passwordSignInKey);
  if (stored === null) return [...roles];
  try {
    const parsed = requiredRolesSchema.safeParse(JSON.parse(stored));
    // Admins always keep their password: the way in when the identity provider is unreachable.
    return parsed.success ? withAdmins(parsed.data) : [...roles];
  } catch {
    return [...roles];
  }
}

function withAdmins(chosen: readonly Role[]): Role[] {
  return roles.filter((role) => role === "admin" || chosen.includes(role));
}

/**
 * The roles that may sign in with a password (an admin's setting, for instances with single
 * sign-on); admins always may. Read without an actor: the sign-in reads it for anyone.
 */
export async function passwordSignInRoles(ctx: StoreContext): Promise<Role[]> {
  return passwordRolesIn(ctx.db);
}

/** Sets which roles may sign in with a password (admins always), audited. */
export async function setPasswordSignInRoles(
  ctx: StoreContext,
  actor: Actor,
  input: { roles: readonly string[] },
): Promise<Role[]> {
  const checked = authorize(actor, "settings.manage");
  const { roles: parsed } = parseInput(z.object({ roles: requiredRolesSchema }), input);
  const chosen = withAdmins(parsed);
  await ctx.db.transaction().execute(async (trx) => {
    const previous = await passwordRolesIn(trx);
    await writeSetting(trx, ctx, checked, passwordSignInKey, JSON.stringify(chosen), {
      added: chosen.filter((role) => !previous.includes(role)),
      removed: previous.filter((role) => !chosen.includes(role)),
    });
  });
  return chosen;
}

export const settingsOperations = {
  twoFactorRequiredRoles,
  setTwoFactorRequiredRoles,
  passwordSignInRoles,
  setPasswordSignInRoles,
};
