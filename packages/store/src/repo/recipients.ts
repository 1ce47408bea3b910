import { randomBytes } from "node:crypto";
import {
  allowedMailDomainsSchema,
  isRole,
  type Role,
  recipientRefusal,
  ValidationError,
} from "@seed/model";
import { type Kysely, sql } from "kysely";
import type { Actor } from "../access/policy.js";
import { type Executor, type RecordedActor, type StoreContext, writeAudit } from "../context.js";
import { dialectOf } from "../db/dialect.js";
import type { SeenBy } from "./collections.js";
import { readSetting } from "./settings.js";

// Who reports and alerts may mail, and each recipient's own unsubscribe link: the rules both
// share. Recipients are the app's users, the owner, or addresses in the domains an admin allows
// (the app is no relay); each has a random token, and an unsubscribe stays on record even when
// the owner drops the address and adds it back.

/** Who the store records for what schedules and checks do on their owner's behalf. */
export const schedulerActor: RecordedActor = {
  id: "scheduler",
  email: "scheduler@seed-charts.invalid",
};
export const allowedDomainsKey = "mail.allowed-domains";

/** Where each kind of mail keeps its recipients. */
const recipientTables = {
  report: { table: "report_recipients", owner: "report_id", home: "reports" },
  alert: { table: "alert_recipients", owner: "alert_id", home: "alerts" },
} as const;
export type MailKind = keyof typeof recipientTables;

// biome-ignore lint/suspicious/noExplicitAny: the two recipient tables share one shape, chosen at runtime.
const untyped = (db: Executor) => db as unknown as Kysely<any>;

export async function allowedDomainsIn(db: Executor): Promise<string[]> {
  const stored = await readSetting(db, allowedDomainsKey);
  if (stored === null) return [];
  const parsed = allowedMailDomainsSchema.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : [];
}

/** The app's users among these lower-case addresses (none before better-auth's tables exist). */
async function userEmailsAmong(db: Executor, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0 || !(await dialectOf(db).tableExists(db, "user"))) return [];
  const rows = await sql<{
    email: string;
  }>`select email from ${sql.table("user")} where lower(email) in (${sql.join(keys)})`.execute(db);
  return rows.rows.map((row) => row.email);
}

/**
 * Field errors (`recipients.<n>`, by place in the input) for every recipient the app may not
 * send to; nothing is thrown when all may be sent to.
 */
export async function refuseRecipients(
  db: Executor,
  keys: readonly string[],
  texts: unknown,
  owner: Actor,
): Promise<void> {
  const allowedDomains = await allowedDomainsIn(db);
  const userEmails = [owner.email, ...(await userEmailsAmong(db, keys))];
  const fieldErrors: Record<string, string[]> = {};
  for (const [index, text] of (Array.isArray(texts) ? texts : []).entries()) {
    const refusal = recipientRefusal(String(text), { userEmails, allowedDomains });
    if (refusal) fieldErrors[`recipients.${index}`] = [refusal];
  }
  if (Object.keys(fieldErrors).length > 0) throw new ValidationError({ fieldErrors });
}

/** Why the owner can no longer send: their account is gone or banned (null before auth exists). */
export async function ownerRefusal(
  db: Executor,
  ownerId: string,
  what: MailKind,
): Promise<string | null> {
  if (!(await dialectOf(db).tableExists(db, "user"))) return null;
  const rows = await sql<{
    banned: unknown;
  }>`select banned from ${sql.table("user")} where id = ${ownerId}`.execute(db);
  const owner = rows.rows[0];
  if (!owner) return `The ${what}'s owner no longer has an account.`;
  if (owner.banned === true || owner.banned === 1) return `The ${what}'s owner is blocked.`;
  return null;
}

/**
 * A delivery's owner as its reads see them (row limits, src/repo/row-limits.ts): the account's id
 * and role as the sign-in library keeps them; a role it does not know reads as a viewer.
 */
export async function ownerReader(db: Executor, ownerId: string): Promise<SeenBy> {
  let role: Role = "viewer";
  if (await dialectOf(db).tableExists(db, "user")) {
    const rows = await sql<{
      role: unknown;
    }>`select role from ${sql.table("user")} where id = ${ownerId}`.execute(db);
    const found = rows.rows[0]?.role;
    if (isRole(found)) role = found;
  }
  return { seenBy: { id: ownerId, email: "", role } };
}

/**
 * How a try of a delivery (a report's run, an alert's event) ended: "sent" when nothing failed,
 * "partial" when some destination failed but one was reached (now or by an earlier try),
 * "failed" when none was or nothing could be sent; and the error to show, bounded.
 */
export function deliveryVerdict(outcome: {
  anySent: boolean;
  failed: readonly { to: string; reason: string }[];
  refusal: string | null;
}): { status: "sent" | "partial" | "failed"; error: string | null } {
  const { anySent, failed, refusal } = outcome;
  const status =
    refusal !== null || (failed.length > 0 && !anySent)
      ? "failed"
      : failed.length > 0
        ? "partial"
        : "sent";
  const error =
    refusal ??
    (failed.length > 0 ? failed.map((one) => `${one.to}: ${one.reason}`).join("; ") : null);
  return { status, error: error === null ? null : error.slice(0, 1_000) };
}

export interface StoredRecipient {
  address: string;
  address_key: string;
  unsubscribe_token: string;
  unsubscribed_at: string | null;
}

/** The recipients of these reports or alerts, by their id, in address order. */
export async function recipientsOf(
  db: Executor,
  kind: MailKind,
  ids: readonly string[],
): Promise<Map<string, StoredRecipient[]>> {
  const { table, owner } = recipientTables[kind];
  const found = new Map<string, StoredRecipient[]>();
  if (ids.length === 0) return found;
  const rows = (await untyped(db)
    .selectFrom(table)
    .selectAll()
    .where(owner, "in", ids)
    .orderBy("address_key")
    .execute()) as (StoredRecipient & Record<string, string>)[];
  for (const row of rows) {
    const id = row[owner] as string;
    found.set(id, [...(found.get(id) ?? []), row]);
  }
  return found;
}

/** Replaces the recipients, keeping each one's token and every unsubscribe. */
export async function writeRecipients(
  trx: Executor,
  kind: MailKind,
  id: string,
  recipients: readonly { address: string; key: string }[],
): Promise<void> {
  const { table, owner } = recipientTables[kind];
  const db = untyped(trx);
  const existing = (await recipientsOf(trx, kind, [id])).get(id) ?? [];
  const keep = new Set(recipients.map((recipient) => recipient.key));
  // A recipient who unsubscribed stays on record, so leaving them out and adding them back later
  // does not sign them up again.
  const gone = existing
    .filter((row) => !keep.has(row.address_key) && row.unsubscribed_at === null)
    .map((row) => row.address_key);
  if (gone.length > 0) {
    await db.deleteFrom(table).where(owner, "=", id).where("address_key", "in", gone).execute();
  }
  for (const recipient of recipients) {
    const before = existing.find((row) => row.address_key === recipient.key);
    if (before) {
      if (before.address !== recipient.address) {
        await db
          .updateTable(table)
          .set({ address: recipient.address })
          .where(owner, "=", id)
          .where("address_key", "=", recipient.key)
          .execute();
      }
      continue;
    }
    await db
      .insertInto(table)
      .values({
        [owner]: id,
        address: recipient.address,
        address_key: recipient.key,
        unsubscribe_token: randomBytes(24).toString("base64url"),
        unsubscribed_at: null,
      })
      .execute();
  }
}

export async function deleteRecipients(trx: Executor, kind: MailKind, id: string): Promise<void> {
  const { table, owner } = recipientTables[kind];
  await untyped(trx).deleteFrom(table).where(owner, "=", id).execute();
}

export interface MailSubscription {
  kind: MailKind;
  /** The report's or alert's name. */
  name: string;
  address: string;
  unsubscribed: boolean;
}

async function subscriptionIn(
  db: Executor,
  token: string,
): Promise<(MailSubscription & { id: string }) | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null;
  for (const kind of Object.keys(recipientTables) as MailKind[]) {
    const { table, owner, home } = recipientTables[kind];
    const rows = await sql<{
      id: string;
      name: string;
      address: string;
      unsubscribed_at: string | null;
    }>`select h.id, h.name, r.address, r.unsubscribed_at from ${sql.table(table)} r join ${sql.table(home)} h on h.id = r.${sql.ref(owner)} where r.unsubscribe_token = ${token}`.execute(
      db,
    );
    const row = rows.rows[0];
    if (row) {
      return {
        kind,
        id: row.id,
        name: row.name,
        address: row.address,
        unsubscribed: row.unsubscribed_at !== null,
      };
    }
  }
  return null;
}

/** The report or alert and the address an unsubscribe link is for, or null for an unknown token. */
export async function mailSubscription(
  ctx: StoreContext,
  token: string,
): Promise<MailSubscription | null> {
  const found = await subscriptionIn(ctx.db, token);
  if (!found) return null;
  const { id: _id, ...shown } = found;
  return shown;
}

/** Stops the link's report or alert mailing its recipient (once; again is no change). Audited. */
export async function unsubscribeMail(
  ctx: StoreContext,
  token: string,
): Promise<MailSubscription | null> {
  return ctx.db.transaction().execute(async (trx) => {
    const found = await subscriptionIn(trx, token);
    if (!found) return null;
    const { id, ...shown } = found;
    if (found.unsubscribed) return shown;
    const { table } = recipientTables[found.kind];
    const result = await untyped(trx)
      .updateTable(table)
      .set({ unsubscribed_at: ctx.now().toISOString() })
      .where("unsubscribe_token", "=", token)
      .where("unsubscribed_at", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      await writeAudit(trx, ctx, schedulerActor, `${found.kind}.unsubscribe`, found.kind, id, {
        name: found.name,
        address: found.address,
      });
    }
    return { ...shown, unsubscribed: true };
  });
}

export const recipientOperations = {
  /** For the unsubscribe page: whom a link is for, and whether they already left. */
  mailSubscription,
  unsubscribeMail,
};
