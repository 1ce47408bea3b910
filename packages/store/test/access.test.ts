import { describe, expect, it } from "vitest";
import { accountDelayMs, openStore, signInThrottlePolicy } from "../src/index.js";
import { clock, createTestDatabase, dialects, openTestStore } from "./helpers.js";

describe.each(dialects)("sign-in throttle and setup on %s", (dialect) => {
  it("refuses an address after the limit, across accounts, until its window ends", async () => {
    const time = clock();
    const store = await openTestStore(dialect, { seedDemo: false, now: time.now });
    const address = "203.0.113.7";
    for (let i = 0; i < signInThrottlePolicy.addressLimit; i += 1) {
      expect(await store.checkSignIn({ address, account: `user${i}@example.com` })).toEqual({
        allowed: true,
      });
      await store.recordSignInFailure({ address, account: `user${i}@example.com` });
    }
    const refused = await store.checkSignIn({ address, account: "fresh@example.com" });
    expect(refused).toMatchObject({ allowed: false, reason: "address" });
    // Another address is unaffected; the same address is free again after the window.
    expect(await store.checkSignIn({ address: "198.51.100.1", account: "x@example.com" })).toEqual({
      allowed: true,
    });
    time.advance(signInThrottlePolicy.windowMs + 1);
    expect(await store.checkSignIn({ address, account: "fresh@example.com" })).toEqual({
      allowed: true,
    });
  });

  it("counts an address-only attempt (one the throttle refused) against the address", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    for (let i = 0; i < signInThrottlePolicy.addressLimit; i += 1) {
      await store.recordSignInFailure({ address: "2001:db8::1", account: null });
    }
    expect(
      await store.checkSignIn({ address: "2001:db8::1", account: "a@example.com" }),
    ).toMatchObject({ allowed: false, reason: "address" });
    expect(await store.checkSignIn({ address: null, account: "a@example.com" })).toEqual({
      allowed: true,
    });
    await store.recordSignInFailure({ address: null, account: null });
  });

  it("tells a refused address so even while the account it tries is also slowed", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const attempt = { address: "198.51.100.9", account: "target@example.com" };
    for (let i = 0; i < signInThrottlePolicy.addressLimit; i += 1) {
      await store.recordSignInFailure(attempt);
    }
    expect(await store.checkSignIn(attempt)).toMatchObject({ allowed: false, reason: "address" });
  });

  it("slows an account down without locking it out, and forgets on success", async () => {
    const time = clock();
    const store = await openTestStore(dialect, { seedDemo: false, now: time.now });
    const account = "Victim@Example.com";
    // Failures from ever new addresses: the account is slowed, never refused for long.
    for (let i = 0; i < signInThrottlePolicy.accountFreeFailures; i += 1) {
      await store.recordSignInFailure({ address: `10.0.0.${i}`, account });
    }
    expect(await store.checkSignIn({ address: "10.1.1.1", account })).toEqual({ allowed: true });
    await store.recordSignInFailure({ address: "10.1.1.1", account: account.toLowerCase() });
    const slowed = await store.checkSignIn({ address: "10.1.1.2", account });
    expect(slowed).toMatchObject({ allowed: false, reason: "account", retryAfterSeconds: 1 });
    time.advance(accountDelayMs(signInThrottlePolicy.accountFreeFailures + 1));
    expect(await store.checkSignIn({ address: "10.1.1.2", account })).toEqual({ allowed: true });
    // However many failures, the wait never exceeds the policy's maximum.
    for (let i = 0; i < 40; i += 1) await store.recordSignInFailure({ address: null, account });
    const capped = await store.checkSignIn({ address: null, account });
    expect(capped).toMatchObject({ allowed: false, reason: "account" });
    if (capped.allowed) throw new Error("expected a refusal");
    expect(capped.retryAfterSeconds).toBeLessThanOrEqual(
      signInThrottlePolicy.accountMaxDelayMs / 1000,
    );
    await store.clearSignInFailures(account);
    expect(await store.checkSignIn({ address: null, account })).toEqual({ allowed: true });
  });

  it("counts concurrent failures from two store instances without losing one", async () => {
    const database = await createTestDatabase(dialect);
    const first = await openStore({ ...database.options, seedDemo: false });
    const second = await openStore({ ...database.options, seedDemo: false });
    database.openStores.push(first, second);
    const attempts = 2 * signInThrottlePolicy.addressLimit;
    await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        (i % 2 === 0 ? first : second).recordSignInFailure({
          address: "192.0.2.1",
          account: `u${i}@example.com`,
        }),
      ),
    );
    // Exactly addressLimit - 1 failures would still allow; all of them must have counted.
    expect(
      await second.checkSignIn({ address: "192.0.2.1", account: "z@example.com" }),
    ).toMatchObject({ allowed: false, reason: "address" });
  });

  it("accepts only a printed setup token, until it expires or setup ends", async () => {
    const time = clock();
    const store = await openTestStore(dialect, { seedDemo: false, now: time.now });
    const token = await store.createSetupToken();
    const other = await store.createSetupToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await store.isSetupTokenValid(token)).toBe(true);
    expect(await store.isSetupTokenValid(` ${other} `)).toBe(true);
    for (const wrong of [
      "",
      token.slice(1),
      `${token}x`,
      token.toUpperCase(),
      "x".repeat(10_000),
    ]) {
      expect(await store.isSetupTokenValid(wrong)).toBe(false);
    }
    time.advance(24 * 60 * 60 * 1000 + 1);
    expect(await store.isSetupTokenValid(token)).toBe(false);
    const fresh = await store.createSetupToken();
    await store.endSetup();
    expect(await store.isSetupTokenValid(fresh)).toBe(false);
  });

  it("gives the first-admin claim to exactly one of many racing callers", async () => {
    const database = await createTestDatabase(dialect);
    const first = await openStore({ ...database.options, seedDemo: false });
    const second = await openStore({ ...database.options, seedDemo: false });
    database.openStores.push(first, second);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? first : second).claimFirstAdmin()),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    await first.releaseFirstAdminClaim();
    expect(await second.claimFirstAdmin()).toBe(true);
  });
});
