import { describe, expect, it } from "vitest";
import { openStore, pageCacheTagLimits } from "../src/index.js";
import { createTestDatabase, dialects, openTestStore } from "./helpers.js";

describe.each(dialects)("page cache tags on %s", (dialect) => {
  it("starts at generation 0 and moves expired tags above every page stored before", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    expect(await store.currentPageCacheGeneration()).toBe(0);
    expect(await store.pageCacheTagsGeneration(["_N_T_/layout"])).toBe(0);

    const storedAt = await store.currentPageCacheGeneration();
    const expiredAt = await store.expirePageCacheTags(["_N_T_/layout", "_N_T_/d/demo"]);
    expect(expiredAt).toBeGreaterThan(storedAt);
    expect(await store.pageCacheTagsGeneration(["_N_T_/d/demo", "unrelated"])).toBe(expiredAt);
    expect(await store.pageCacheTagsGeneration(["unrelated"])).toBe(0);
    expect(await store.currentPageCacheGeneration()).toBe(expiredAt);

    // A page stored now is fresh until one of its own tags is expired again.
    const page = await store.currentPageCacheGeneration();
    await store.expirePageCacheTags(["_N_T_/admin"]);
    expect(await store.pageCacheTagsGeneration(["_N_T_/layout"])).toBeLessThanOrEqual(page);
    const again = await store.expirePageCacheTags(["_N_T_/layout"]);
    expect(await store.pageCacheTagsGeneration(["_N_T_/layout", "_N_T_/d/demo"])).toBe(again);
    expect(again).toBeGreaterThan(page);
  });

  it("ignores empty input, repeats and overlong tags without failing", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    expect(await store.expirePageCacheTags([])).toBe(0);
    expect(await store.pageCacheTagsGeneration([])).toBe(0);
    const long = "x".repeat(pageCacheTagLimits.tagLength * 3);
    const many = Array.from({ length: pageCacheTagLimits.tagsPerCall * 2 }, (_, i) => `t${i}`);
    const generation = await store.expirePageCacheTags(["", "a", "a", long, ...many]);
    expect(generation).toBe(1);
    expect(await store.pageCacheTagsGeneration([long])).toBe(1);
    expect(await store.pageCacheTagsGeneration(["a"])).toBe(1);
  });

  it("shows one instance's expiry to another instance on the same database at once", async () => {
    const database = await createTestDatabase(dialect);
    const first = await openStore({ ...database.options, seedDemo: false });
    const second = await openStore({ ...database.options, seedDemo: false });
    database.openStores.push(first, second);
    const stored = await second.currentPageCacheGeneration();
    // Expiries from both instances at once: every one lands above the page stored before them.
    const generations = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? first : second).expirePageCacheTags([`_N_T_/d/page-${i}`]),
      ),
    );
    for (const [i, generation] of generations.entries()) {
      expect(generation).toBeGreaterThan(stored);
      expect(await second.pageCacheTagsGeneration([`_N_T_/d/page-${i}`])).toBeGreaterThan(stored);
    }
  });
});
