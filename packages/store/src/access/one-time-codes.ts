import { createHash } from "node:crypto";
import type { StoreContext } from "../context.js";

/** Longest a claim is kept: a one-time code is never accepted for longer than this. */
export const maxOneTimeCodeLifetimeSeconds = 24 * 60 * 60;

/**
 * Claims a one-time code for its single use: true the first time `key` is claimed while its
 * claim lasts, false for every later claim of it (a replay), on every instance at once (one
 * INSERT against the primary key, so of two racing claims exactly one wins). Only a hash of the
 * key is stored, and expired claims are swept as new ones come.
 */
export async function claimOneTimeCode(
  ctx: StoreContext,
  key: string,
  lifetimeSeconds: number,
): Promise<boolean> {
  if (key === "" || key.length > 1_000)
    throw new RangeError("A one-time code key is 1 to 1,000 characters.");
  if (
    !Number.isInteger(lifetimeSeconds) ||
    lifetimeSeconds < 1 ||
    lifetimeSeconds > maxOneTimeCodeLifetimeSeconds
  ) {
    throw new RangeError(`A claim lasts 1 to ${maxOneTimeCodeLifetimeSeconds} whole seconds.`);
  }
  const now = ctx.now();
  const keyHash = createHash("sha256").update(key).digest("hex");
  await ctx.db
    .deleteFrom("used_one_time_codes")
    .where("expires_at", "<=", now.toISOString())
    .execute();
  const inserted = await ctx.db
    .insertInto("used_one_time_codes")
    .values({
      key_hash: keyHash,
      expires_at: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
    })
    .onConflict((conflict) => conflict.column("key_hash").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export const oneTimeCodeOperations = { claimOneTimeCode };
