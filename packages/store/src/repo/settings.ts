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

const rolesSchema = z
  .array(z.enum(roles, { error: "Choose from admin, editor and viewer." }))
  .max(roles.length)
  .transform((chosen) => roles.filter((role) => chosen.includes(role)));

/**
 * A setting that names some of the roles: kept in role order, `unset` until an admin chooses,
 * `always` in it whatever is chosen; a stored value that cannot be read counts as `unset`. Each
 * change is audited with the roles added and removed.
 */
function roleSetting(key: string, options: { unset: readonly Role[]; always?: Role }) {
  const normal = (chosen: readonly Role[]): Role[] =>
    roles.filter((role) => role === options.always || chosen.includes(role));
  async function read(db: Executor): Promise<Role[]> {
    const stored = await readSetting(db, key);
    if (stored === null) return [...options.unset];
    try {
      const parsed = rolesSchema.safeParse(JSON.parse(stored));
      return parsed.success ? normal(parsed.data) : [...options.unset];
    } catch {
      return [...options.unset];
    }
  }
  async function write(
    ctx: StoreContext,
    actor: Actor,
    input: { roles: readonly string[] },
  ): Promise<Role[]> {
    const checked = authorize(actor, "settings.manage");
    const chosen = normal(parseInput(z.object({ roles: rolesSchema }), input).roles);
    await ctx.db.transaction().execute(async (trx) => {
      const previous = await read(trx);
      await writeSetting(trx, ctx, checked, key, JSON.stringify(chosen), {
        added: chosen.filter((role) => !previous.includes(role)),
        removed: previous.filter((role) => !chosen.includes(role)),
      });
    });
    return chosen;
  }
  return { read, write };
}

/** The roles whose accounts must sign in with a second factor (none until an admin says so). */
const twoFactorRequired = roleSetting("auth.two-factor-required", { unset: [] });

/**
 * The roles that may sign in with a password, for instances with single sign-on: every role until
 * an admin says otherwise, and admins always (the way in when the identity provider is unreachable).
 */
const passwordSignIn = roleSetting("auth.password-sign-in", { unset: roles, always: "admin" });

/** Read without an actor: the sign-in gate asks it for every user, and it names no one. */
export async function twoFactorRequiredRoles(ctx: StoreContext): Promise<Role[]> {
  return twoFactorRequired.read(ctx.db);
}

/** Sets the roles that must use two-factor sign-in (an admin's setting), audited. */
export const setTwoFactorRequiredRoles = twoFactorRequired.write;

/** Read without an actor: the sign-in reads it for anyone. */
export async function passwordSignInRoles(ctx: StoreContext): Promise<Role[]> {
  return passwordSignIn.read(ctx.db);
}

/** Sets which roles may sign in with a password (admins always), audited. */
export const setPasswordSignInRoles = passwordSignIn.write;

export const settingsOperations = {
  twoFactorRequiredRoles,
  setTwoFactorRequiredRoles,
  passwordSignInRoles,
  setPasswordSignInRoles,
};
