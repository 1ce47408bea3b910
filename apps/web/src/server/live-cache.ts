import "server-only";
import { unstable_cache } from "next/cache";
import { liveTtlTag, noStoreTag } from "./page-cache-handler.mjs";

/**
 * Marks the page being rendered as reading live sources: its cache entry carries a tag with the
 * shortest time-to-live, and page-cache-handler.mjs drops the entry once that long has passed,
 * so the next request renders from the source again (no stale-while-revalidate for live data).
 */
export async function limitPageCacheTo(...ttls: Array<number | null | undefined>): Promise<void> {
  const given = ttls.filter((ttl): ttl is number => typeof ttl === "number" && ttl >= 0);
  if (given.length === 0) return;
  const seconds = Math.floor(Math.min(...given));
  const tag = liveTtlTag(seconds);
  // A constant result: only the tag and the shorter revalidate reach the page being rendered.
  await unstable_cache(async () => seconds, [tag], {
    tags: [tag],
    revalidate: Math.max(1, seconds),
  })();
}

/**
 * Marks the page being rendered as a one-off: page-cache-handler.mjs does not store it, so the
 * next request renders it again and it takes no cache space.
 */
export async function keepOutOfPageCache(): Promise<void> {
  await unstable_cache(async () => true, [noStoreTag], { tags: [noStoreTag] })();
}
