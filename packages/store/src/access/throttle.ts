import { sql } from "kysely";
import type { StoreContext } from "../context.js";

/**
 * Sign-in throttling, kept in the database so every instance of the app counts the same failures.
 * A client address that keeps failing is refused for the rest of its window; an account that
 * keeps failing is only slowed down (an attacker must not be able to lock its owner out).
 */
export const signInThrottlePolicy = {
  /** Failures older than this are forgotten. */
  windowMs: 15 * 60 * 1000,
  /** Failed sign-ins from one address within the window before the address is refused. */
  addressLimit: 10,
  /** Failed sign-ins on one account within the window before each try must wait. */
  accountFreeFailures: 5,
  /** The wait after the first throttled failure; it doubles with each further failure. */
  accountBaseDelayMs: 1000,
  accountMaxDelayMs: 60 * 1000,
} as const;

export interface SignInAttempt {
  /** The client's address as the app resolved it, or null when it is unknown. */
  address: string | null;
  /**
   * The email tried, in any case; counted case-insensitively. Null counts against the address
   * only (an attempt refused by the throttle still counts against the address that made it).
   */
  account: string | null;
}

export type SignInVerdict =
  | { allowed: true }
  | { allowed: false; reason: "address" | "account"; retryAfterSeconds: number };

const maxKeyLength = 320;

function keysOf(attempt: SignInAttempt): { address: string | null; account: string | null } {
  const account =
    attempt.account === null
      ? null
      : `account:${attempt.account.trim().toLowerCase()}`.slice(0, maxKeyLength);
  const address = attempt.address ? `address:${attempt.address}`.slice(0, maxKeyLength) : null;
  return { address, account };
}

/** How long an account with `failures` recent failures must wait after its last one. */
export function accountDelayMs(failures: number): number {
  const over = failures - signInThrottlePolicy.accountFreeFailures - 1;
  if (over < 0) return 0;
  return Math.min(
    signInThrottlePolicy.accountMaxDelayMs,
    signInThrottlePolicy.accountBaseDelayMs * 2 ** Math.min(over, 30),
  );
}

export async function checkSignIn(
  ctx: StoreContext,
  attempt: SignInAttempt,
): Promise<SignInVerdict> {
  const now = ctx.now().getTime();
  const keys = keysOf(attempt);
  const rows = await ctx.db
    .selectFrom("sign_in_throttle")
    .selectAll()
    .where(
      "key",
      "in",
      [keys.address, keys.account].filter((key): key is string => key !== null),
    )
    .execute();
  const windowStart = now - signInThrottlePolicy.windowMs;
  const recent = (key: string | null) =>
    rows.find((row) => row.key === key && Date.parse(row.window_started_at) > windowStart);
  // The address first: a refused address is told so, whatever the account's state.
  const address = recent(keys.address);
  if (address && address.failures >= signInThrottlePolicy.addressLimit) {
    const retry = Date.parse(address.window_started_at) + signInThrottlePolicy.windowMs - now;
    return { allowed: false, reason: "address", retryAfterSeconds: Math.ceil(retry / 1000) };
  }
  const account = recent(keys.account);
  if (account) {
    const retry = Date.parse(account.last_failure_at) + accountDelayMs(account.failures) - now;
    if (retry > 0) {
      return { allowed: false, reason: "account", retryAfterSeconds: Math.ceil(retry / 1000) };
    }
  }
  return { allowed: true };
}

/** Counts one failure for the address and the account, atomically on both engines. */
export async function recordSignInFailure(
  ctx: StoreContext,
  attempt: SignInAttempt,
): Promise<void> {
  const now = ctx.now();
  const stamp = now.toISOString();
  const expired = new Date(now.getTime() - signInThrottlePolicy.windowMs).toISOString();
  const keys = keysOf(attempt);
  const values = [keys.account, keys.address]
    .filter((key): key is string => key !== null)
    .map((key) => ({ key, failures: 1, window_started_at: stamp, last_failure_at: stamp }));
  if (values.length === 0) return;
  // Two single statements, no transaction: the upsert is atomic on its own, and a long-idle row
  // the cleanup misses is reset by the upsert's window check anyway.
  await ctx.db.deleteFrom("sign_in_throttle").where("last_failure_at", "<", expired).execute();
  await ctx.db
    .insertInto("sign_in_throttle")
    .values(values)
    .onConflict((conflict) =>
      conflict.column("key").doUpdateSet({
        failures: sql<number>`case when sign_in_throttle.window_started_at <= ${expired} then 1 else sign_in_throttle.failures + 1 end`,
        window_started_at: sql<string>`case when sign_in_throttle.window_started_at <= ${expired} then ${stamp} else sign_in_throttle.window_started_at end`,
        last_failure_at: stamp,
      }),
    )
    .execute();
}

/** A successful sign-in forgets the account's failures; the address keeps its count. */
export async function clearSignInFailures(ctx: StoreContext, account: string): Promise<void> {
  const { account: key } = keysOf({ address: null, account });
  if (key === null) return;
  await ctx.db.deleteFrom("sign_in_throttle").where("key", "=", key).execute();
}

export const signInThrottleOperations = {
  /** Whether a sign-in may be tried now, from the counters every instance shares. */
  checkSignIn,
  recordSignInFailure,
  /** After a successful sign-in: the account's failures are forgotten, the address's are not. */
  clearSignInFailures,
};
