import { createHash, randomBytes } from "node:crypto";
import { isUniqueViolation, type StoreContext } from "../context.js";

/**
 * First-run setup: the server prints a one-time token at start while no user exists, and the
 * setup form must present it. Only hashes are kept. The claim row makes "first admin" atomic
 * across requests and instances.
 */
export const setupTokenLifetimeMs = 24 * 60 * 60 * 1000;
const claimId = "first-admin";
// A claim whose creator died before making the user would block setup forever without this.
const staleClaimMs = 10 * 60 * 1000;
const maxTokenLength = 200;

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Makes a new token (each starting instance prints its own) and forgets expired ones. */
export async function createSetupToken(ctx: StoreContext): Promise<string> {
  const now = ctx.now();
  const token = randomBytes(24).toString("base64url");
  await ctx.db
    .deleteFrom("setup_tokens")
    .where("created_at", "<", new Date(now.getTime() - setupTokenLifetimeMs).toISOString())
    .execute();
  await ctx.db
    .insertInto("setup_tokens")
    .values({ token_hash: hashToken(token), created_at: now.toISOString() })
    .execute();
  return token;
}

export async function isSetupTokenValid(ctx: StoreContext, token: string): Promise<boolean> {
  const trimmed = token.trim();
  if (trimmed.length === 0 || trimmed.length > maxTokenLength) return false;
  const notBefore = new Date(ctx.now().getTime() - setupTokenLifetimeMs).toISOString();
  const row = await ctx.db
    .selectFrom("setup_tokens")
    .select("token_hash")
    .where("token_hash", "=", hashToken(trimmed))
    .where("created_at", ">=", notBefore)
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes the one-time right to create the first admin: of racing callers exactly one gets true. */
export async function claimFirstAdmin(ctx: StoreContext): Promise<boolean> {
  const now = ctx.now();
  await ctx.db
    .deleteFrom("setup_claim")
    .where("id", "=", claimId)
    .where("claimed_at", "<", new Date(now.getTime() - staleClaimMs).toISOString())
    .execute();
  try {
    await ctx.db
      .insertInto("setup_claim")
      .values({ id: claimId, claimed_at: now.toISOString() })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Gives the claim back when creating the admin failed, so setup can be tried again. */
export async function releaseFirstAdminClaim(ctx: StoreContext): Promise<void> {
  await ctx.db.deleteFrom("setup_claim").where("id", "=", claimId).execute();
}

/** Setup is done: every printed token stops working. */
export async function endSetup(ctx: StoreContext): Promise<void> {
  await ctx.db.deleteFrom("setup_tokens").execute();
}

export const setupOperations = {
  /** A new one-time setup token (printed by the server at start while no user exists). */
  createSetupToken,
  isSetupTokenValid,
  /** Takes the one-time right to create the first admin; of racing callers one gets true. */
  claimFirstAdmin,
  releaseFirstAdminClaim,
  /** The first admin exists: every setup token stops working. */
  endSetup,
};
