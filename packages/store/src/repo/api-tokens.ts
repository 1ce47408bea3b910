import { createHash, randomBytes } from "node:crypto";
import { type ApiTokenScope, apiTokenLimits, apiTokenScopes, ValidationError } from "@seed/model";
import { sql } from "kysely";
import { z } from "zod";
import { type Actor, authorize, can } from "../access/policy.js";
import { newId, parseInput, type StoreContext, writeAudit } from "../context.js";
import type { ApiTokensTable } from "../db/schema.js";

// Personal API tokens: each lets a program (the seed CLI, a script) act as the account that made
// it, through /api/v1, never beyond the account's role today nor the token's scope. Shown once;
// only the SHA-256 is kept; every token expires; made and revoked in the audit log.

/** The `seed_pat_` prefix lets secret scanners tell a leaked token from a push token (`seed_`). */
export const apiTokenPrefix = "seed_pat_";
const tokenPattern = /^seed_pat_[A-Za-z0-9_-]{43}$/;
const dayMs = 86_400_000;

/** A token as its owner's page lists it: never the secret, never its hash. */
export interface ApiToken {
  id: string;
  userId: string;
  name: string;
  scope: ApiTokenScope;
  /** The first characters of the token, to tell tokens apart. */
  prefix: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface ApiTokenInput {
  name: string;
  scope: ApiTokenScope;
  /** Days until it stops working: 1 to 365. */
  expiresInDays: number;
}

/** Who a valid token acts for; the web app gives it its user's role, capped by the scope. */
export interface ApiTokenGrant {
  tokenId: string;
  userId: string;
  scope: ApiTokenScope;
}

const inputSchema = z.object({
  name: z
    .string({ error: "Enter a name." })
    .trim()
    .min(1, "Enter a name.")
    .max(
      apiTokenLimits.maxNameLength,
      `Keep the name under ${apiTokenLimits.maxNameLength + 1} characters.`,
    ),
  scope: z.enum(apiTokenScopes, { error: "The scope must be read or write." }),
  expiresInDays: z
    .number({ error: "Choose how many days the token lasts." })
    .int("Choose a whole number of days.")
    .min(1, "A token lasts at least 1 day.")
    .max(
      apiTokenLimits.maxLifetimeDays,
      `A token lasts at most ${apiTokenLimits.maxLifetimeDays} days.`,
    ),
});

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function toApiToken(row: ApiTokensTable): ApiToken {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    scope: row.scope as ApiTokenScope,
    prefix: row.token_prefix,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** Makes a token for the actor's own account; the secret is returned once. */
export async function createApiToken(
  ctx: StoreContext,
  input: ApiTokenInput,
  actor: Actor,
): Promise<{ token: ApiToken; secret: string }> {
  const owner = authorize(actor, "content.read") as Actor;
  const parsed = parseInput(inputSchema, input);
  const now = ctx.now();
  const secret = `${apiTokenPrefix}${randomBytes(32).toString("base64url")}`;
  const row: ApiTokensTable = {
    id: newId(),
    user_id: owner.id,
    user_email: owner.email,
    name: parsed.name,
    scope: parsed.scope,
    token_hash: hashToken(secret),
    token_prefix: secret.slice(0, apiTokenPrefix.length + 4),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + parsed.expiresInDays * dayMs).toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  return ctx.db.transaction().execute(async (trx) => {
    const stamp = now.toISOString();
    const active = await trx
      .selectFrom("api_tokens")
      .select(sql<number | string>`count(*)`.as("n"))
      .where("user_id", "=", owner.id)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", stamp)
      .executeTakeFirst();
    if (Number(active?.n ?? 0) >= apiTokenLimits.maxActivePerUser) {
      throw new ValidationError({
        fieldErrors: {},
        formError: `An account has at most ${apiTokenLimits.maxActivePerUser} active tokens; revoke one first.`,
      });
    }
    await trx.insertInto("api_tokens").values(row).execute();
    await writeAudit(trx, ctx, owner, "user.api-token-create", "user", owner.id, {
      tokenId: row.id,
      name: row.name,
      scope: row.scope,
      expiresAt: row.expires_at,
    });
    return { token: toApiToken(row), secret };
  });
}

/** The actor's own tokens, newest first (revoked and expired ones too). */
export async function listApiTokens(ctx: StoreContext, actor: Actor): Promise<ApiToken[]> {
  const owner = authorize(actor, "content.read");
  const rows = await ctx.db
    .selectFrom("api_tokens")
    .selectAll()
    .where("user_id", "=", owner.id)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(200)
    .execute();
  return rows.map(toApiToken);
}

/** Ends a token at once: the owner's own, or any account's for an admin of users. Audited. */
export async function revokeApiToken(
  ctx: StoreContext,
  tokenId: string,
  actor: Actor,
): Promise<ApiToken> {
  const checked = authorize(actor, "content.read") as Actor;
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom("api_tokens")
      .selectAll()
      .where("id", "=", tokenId)
      .executeTakeFirst();
    // Another account's token is "not found" to anyone who may not manage accounts.
    if (!existing || (existing.user_id !== checked.id && !can(checked, "users.manage"))) {
      throw new ValidationError({ fieldErrors: { tokenId: ["No such token."] } });
    }
    if (existing.revoked_at !== null) return toApiToken(existing);
    const stamp = ctx.now().toISOString();
    await trx
      .updateTable("api_tokens")
      .set({ revoked_at: stamp })
      .where("id", "=", tokenId)
      .execute();
    await writeAudit(trx, ctx, checked, "user.api-token-revoke", "user", existing.user_id, {
      tokenId,
      name: existing.name,
    });
    return toApiToken({ ...existing, revoked_at: stamp });
  });
}

/**
 * Who a presented token acts for, or null (malformed, unknown, revoked or expired: one answer,
 * so a caller learns nothing about which). Marks it used, at most once a minute.
 */
export async function authenticateApiToken(
  ctx: StoreContext,
  secret: string,
): Promise<ApiTokenGrant | null> {
  if (!tokenPattern.test(secret)) return null;
  const row = await ctx.db
    .selectFrom("api_tokens")
    .selectAll()
    .where("token_hash", "=", hashToken(secret))
    .executeTakeFirst();
  const now = ctx.now();
  if (!row || row.revoked_at !== null || Date.parse(row.expires_at) <= now.getTime()) return null;
  const lastUsed = row.last_used_at === null ? 0 : Date.parse(row.last_used_at);
  if (now.getTime() - lastUsed > 60_000) {
    await ctx.db
      .updateTable("api_tokens")
      .set({ last_used_at: now.toISOString() })
      .where("id", "=", row.id)
      .execute();
  }
  return { tokenId: row.id, userId: row.user_id, scope: row.scope as ApiTokenScope };
}

export const apiTokenOperations = {
  createApiToken,
  listApiTokens,
  revokeApiToken,
  /** For the web app's /api/v1: the token's account and scope, or null. */
  authenticateApiToken,
};
