import { createHash, randomBytes } from "node:crypto";
import {
  type DatasetTokenScope,
  datasetTokenScopes,
  NotFoundError,
  pushLimits,
  ValidationError,
} from "@seed/model";
import { sql } from "kysely";
import { z } from "zod";
import { type Actor, authorize } from "../access/policy.js";
import {
  newId,
  parseInput,
  type RecordedActor,
  type StoreContext,
  writeAudit,
} from "../context.js";
import { liveDatasetReadOnly, rowsKeptHere } from "../db/dataset-table.js";
import type { DatasetTokensTable } from "../db/schema.js";
import { assertEditable } from "./collections.js";

/**
 * Push API tokens: each lets a program write rows into one dataset, with a scope, an optional
 * expiry and a request budget counted in the database (so it holds across app instances).
 * A token is shown once; only its SHA-256 is kept. The `seed_` prefix lets secret scanners
 * recognise a leaked one.
 */
export const datasetTokenPrefix = "seed_";
// seed_ + 32 random bytes in base64url.
const tokenPattern = /^seed_[A-Za-z0-9_-]{43}$/;

/** A token as the admin pages list it: never the secret, never its hash. */
export interface DatasetToken {
  id: string;
  datasetId: string;
  name: string;
  scope: DatasetTokenScope;
  /** The first characters of the token, to tell tokens apart. */
  prefix: string;
  createdBy: RecordedActor;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface DatasetTokenInput {
  datasetId: string;
  name: string;
  scope: DatasetTokenScope;
  /** yyyy-mm-dd (the token stops at 00:00 UTC that day) or an ISO date-time; null for none. */
  expiresAt?: string | null;
}

export function hashDatasetToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

const tokenInputSchema = z.object({
  datasetId: z.string().trim().min(1, "Choose a dataset.").max(200),
  name: z
    .string({ error: "Enter a name." })
    .trim()
    .min(1, "Enter a name.")
    .max(
      pushLimits.maxTokenNameLength,
      `Keep the name under ${pushLimits.maxTokenNameLength + 1} characters.`,
    ),
  scope: z.enum(datasetTokenScopes, { error: "The scope must be append or replace." }),
  expiresAt: z
    .string()
    .trim()
    .max(40)
    .nullish()
    .transform((value, ctx) => {
      if (!value) return null;
      const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: "custom", message: "Use a date like 2027-01-31." });
        return z.NEVER;
      }
      return date.toISOString();
    }),
});

function toDatasetToken(row: DatasetTokensTable): DatasetToken {
  return {
    id: row.id,
    datasetId: row.dataset_id,
    name: row.name,
    scope: row.scope as DatasetTokenScope,
    prefix: row.token_prefix,
    createdBy: { id: row.created_by_id, email: row.created_by_email },
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** Makes a token for one dataset; the secret is returned once and only its hash is stored. */
export async function createDatasetToken(
  ctx: StoreContext,
  input: DatasetTokenInput,
  actor: Actor,
): Promise<{ token: DatasetToken; secret: string }> {
  const checkedActor = authorize(actor, "content.write");
  const parsed = parseInput(tokenInputSchema, input);
  const now = ctx.now();
  if (parsed.expiresAt !== null) {
    const expires = Date.parse(parsed.expiresAt);
    if (expires <= now.getTime() || expires > now.getTime() + pushLimits.maxLifetimeMs) {
      throw new ValidationError({
        fieldErrors: { expiresAt: ["Choose a day after today and within a year."] },
      });
    }
  }
  const secret = `${datasetTokenPrefix}${randomBytes(32).toString("base64url")}`;
  const row: DatasetTokensTable = {
    id: newId(),
    dataset_id: parsed.datasetId,
    name: parsed.name,
    scope: parsed.scope,
    token_hash: hashDatasetToken(secret),
    token_prefix: secret.slice(0, datasetTokenPrefix.length + 4),
    created_by_id: checkedActor.id,
    created_by_email: checkedActor.email,
    created_at: now.toISOString(),
    expires_at: parsed.expiresAt,
    last_used_at: null,
    revoked_at: null,
    rate_count: 0,
    rate_window_started_at: null,
  };
  return ctx.db.transaction().execute(async (trx) => {
    const dataset = await trx
      .selectFrom("datasets")
      .select(["id", "source_id", "question_sql"])
      .where("id", "=", parsed.datasetId)
      .executeTakeFirst();
    if (!dataset) throw new NotFoundError("dataset", parsed.datasetId);
    await assertEditable(trx, checkedActor, "dataset", dataset.id);
    if (!rowsKeptHere(dataset)) throw liveDatasetReadOnly(dataset);
    const stamp = now.toISOString();
    const active = await trx
      .selectFrom("dataset_tokens")
      .select(sql<number | string>`count(*)`.as("n"))
      .where("dataset_id", "=", parsed.datasetId)
      .where("revoked_at", "is", null)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", stamp)]))
      .executeTakeFirst();
    if (Number(active?.n ?? 0) >= pushLimits.maxActiveTokensPerDataset) {
      throw new ValidationError({
        fieldErrors: {},
        formError: `A dataset has at most ${pushLimits.maxActiveTokensPerDataset} active tokens; revoke one first.`,
      });
    }
    await trx.insertInto("dataset_tokens").values(row).execute();
    await writeAudit(trx, ctx, checkedActor, "dataset.token-create", "dataset", row.dataset_id, {
      tokenId: row.id,
      name: row.name,
      scope: row.scope,
      expiresAt: row.expires_at,
    });
    return { token: toDatasetToken(row), secret };
  });
}

/** A dataset's tokens, newest first (revoked and expired ones too, marked as such). */
export async function listDatasetTokens(
  ctx: StoreContext,
  datasetId: string,
  actor: Actor,
): Promise<DatasetToken[]> {
  const checkedActor = authorize(actor, "content.write");
  await assertEditable(ctx.db, checkedActor, "dataset", datasetId);
  const rows = await ctx.db
    .selectFrom("dataset_tokens")
    .selectAll()
    .where("dataset_id", "=", datasetId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(200)
    .execute();
  return rows.map(toDatasetToken);
}

/** Ends a token at once; audited. A token of another dataset, or one already revoked, is refused. */
export async function revokeDatasetToken(
  ctx: StoreContext,
  datasetId: string,
  tokenId: string,
  actor: Actor,
): Promise<DatasetToken> {
  const checkedActor = authorize(actor, "content.write");
  return ctx.db.transaction().execute(async (trx) => {
    await assertEditable(trx, checkedActor, "dataset", datasetId);
    const stamp = ctx.now().toISOString();
    const row = await trx
      .updateTable("dataset_tokens")
      .set({ revoked_at: stamp })
      .where("id", "=", tokenId)
      .where("dataset_id", "=", datasetId)
      .where("revoked_at", "is", null)
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      throw new ValidationError({
        fieldErrors: {},
        formError: "This token does not exist or is already revoked.",
      });
    }
    await writeAudit(trx, ctx, checkedActor, "dataset.token-revoke", "dataset", datasetId, {
      tokenId,
      name: row.name,
    });
    return toDatasetToken(row);
  });
}

/** The live token behind a bearer secret, or null (unknown, malformed, revoked or expired). */
export async function findLiveDatasetToken(
  ctx: StoreContext,
  secret: string,
): Promise<DatasetToken | null> {
  if (!tokenPattern.test(secret)) return null;
  const row = await ctx.db
    .selectFrom("dataset_tokens")
    .selectAll()
    .where("token_hash", "=", hashDatasetToken(secret))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null) return null;
  if (row.expires_at !== null && row.expires_at <= ctx.now().toISOString()) return null;
  return toDatasetToken(row);
}

/**
 * Counts one request against the token's window in a single statement (atomic on both engines,
 * so instances sharing the database share the budget) and records it as the token's last use.
 * Returns how long to wait when the budget is spent, else null.
 */
export async function countTokenRequest(
  ctx: StoreContext,
  tokenId: string,
): Promise<{ retryAfterSeconds: number } | null> {
  const now = ctx.now();
  const stamp = now.toISOString();
  const windowStart = new Date(now.getTime() - pushLimits.windowMs).toISOString();
  const fresh = sql<boolean>`(dataset_tokens.rate_window_started_at is null or dataset_tokens.rate_window_started_at <= ${windowStart})`;
  const row = await ctx.db
    .updateTable("dataset_tokens")
    .set({
      rate_count: sql<number>`case when ${fresh} then 1 else dataset_tokens.rate_count + 1 end`,
      rate_window_started_at: sql<string>`case when ${fresh} then ${stamp} else dataset_tokens.rate_window_started_at end`,
      last_used_at: stamp,
    })
    .where("id", "=", tokenId)
    .returning(["rate_count", "rate_window_started_at"])
    .executeTakeFirst();
  if (!row || Number(row.rate_count) <= pushLimits.requestsPerWindow) return null;
  const started = Date.parse(row.rate_window_started_at ?? stamp);
  const wait = started + pushLimits.windowMs - now.getTime();
  return { retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
}

/** Push API tokens: the secret is returned once, only its hash is kept. */
export const datasetTokenOperations = { createDatasetToken, listDatasetTokens, revokeDatasetToken };
