import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clock, dialects, errorOf, openTestStore } from "./helpers.js";

const seed = Number(process.env.FC_SEED) || Date.now() % 2_147_483_647;

describe.each(dialects)("one-time codes on %s", (dialect) => {
  it("a code is accepted once while its claim lasts, and again only after it expired", async () => {
    const time = clock();
    const store = await openTestStore(dialect, { seedDemo: false, now: time.now });

    expect(await store.claimOneTimeCode("totp:user-a:123456", 120)).toBe(true);
    expect(await store.claimOneTimeCode("totp:user-a:123456", 120)).toBe(false);
    // Another account's same digits, and the same account's next code, are their own.
    expect(await store.claimOneTimeCode("totp:user-b:123456", 120)).toBe(true);
    expect(await store.claimOneTimeCode("totp:user-a:654321", 120)).toBe(true);
    time.advance(119_000);
    expect(await store.claimOneTimeCode("totp:user-a:123456", 120)).toBe(false);
    time.advance(1_000);
    expect(await store.claimOneTimeCode("totp:user-a:123456", 120)).toBe(true);
  });

  it("of many claims of one code racing at once, exactly one wins (property)", async () => {
    console.log(`[one-time codes ${dialect}] fast-check seed ${seed} (FC_SEED=${seed} repeats it)`);
    const store = await openTestStore(dialect, { seedDemo: false });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 12 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        async (racers, code) => {
          round += 1;
          const key = `totp:racer-${round}:${code}`;
          const won = await Promise.all(
            Array.from({ length: racers }, () => store.claimOneTimeCode(key, 120)),
          );
          expect(won.filter(Boolean)).toHaveLength(1);
        },
      ),
      { seed, numRuns: 25 },
    );
  });

  it("refuses an empty or over-long key and a lifetime out of bounds", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    for (const [key, seconds] of [
      ["", 60],
      ["k".repeat(1_001), 60],
      ["key", 0],
      ["key", 1.5],
      ["key", 86_401],
    ] as const) {
      expect(await errorOf(store.claimOneTimeCode(key, seconds))).toBeInstanceOf(RangeError);
    }
  });
});
