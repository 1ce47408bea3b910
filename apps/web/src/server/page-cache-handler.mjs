// Next.js's incremental cache (published pages, route handlers) for one instance or many on one
// database. Rendered pages stay in this process's memory, bounded (least recently used out);
// which cache tags were expired is kept in the database (@seed/store's page_cache_tags), so a
// write through any instance is seen by the next page every instance serves.
//
// Why a read on every hit rather than PostgreSQL LISTEN/NOTIFY: a notification reaches the other
// instances after the writer's response may already have gone out, so a visitor who saves
// through A and reloads through B could still see the old page. One indexed read of a few tags
// per cached hit costs well under a millisecond (see `pnpm bench:web`) and is never stale.
// Each instance renders a page once after it is expired; pages are not copied between instances.
//
// A page is stamped with the generation from before its render began (recorded when Next.js
// looked it up), not from when it was stored: a render that read the database just before a
// write and finished just after it is then stale at once, on every instance.
import { processStore } from "./process-store.mjs";

/**
 * @typedef {import("next/dist/server/lib/incremental-cache").CacheHandler} CacheHandler
 * @typedef {Parameters<CacheHandler["get"]>[1]} GetContext
 * @typedef {Parameters<CacheHandler["set"]>[1]} CacheValue
 * @typedef {Parameters<CacheHandler["set"]>[2]} SetContext
 * @typedef {import("next/dist/server/lib/incremental-cache").CacheHandlerValue} CacheHandlerValue
 * @typedef {{ value: NonNullable<CacheValue>; lastModified: number; generation: number;
 *   tags: string[]; cacheControl: CacheHandlerValue["cacheControl"]; size: number }} Entry
 */

const tagsHeader = "x-next-cache-tags";
const liveTtlTagPrefix = "seed-live-ttl:";

/**
 * The tag of a render that must not take cache space (src/server/live-cache.ts): a filtered page
 * whose link asks for what the dashboard does not offer (unknown parameters or values).
 */
export const noStoreTag = "seed-no-store";

/**
 * The tag a page reading live sources carries (src/server/live-cache.ts): its time-to-live.
 * @param {number} seconds
 */
export function liveTtlTag(seconds) {
  return `${liveTtlTagPrefix}${seconds}`;
}

/**
 * Next.js judges a page stale by its own clock a moment after this lookup: an entry within this
 * margin of its time-to-live is rendered again now, so that it is never served stale. (A CI run
 * on a loaded machine served a live page STALE when looked up a few milliseconds before its TTL.)
 */
const liveTtlMarginMs = 1_000;

/**
 * Whether an entry outlived (or is about to outlive) the shortest live-source time-to-live among
 * its tags.
 * @param {{ tags: string[]; lastModified: number }} entry
 */
function pastLiveTtl(entry) {
  const ttls = entry.tags
    .filter((tag) => tag.startsWith(liveTtlTagPrefix))
    .map((tag) => Number(tag.slice(liveTtlTagPrefix.length)))
    .filter((seconds) => Number.isFinite(seconds));
  if (ttls.length === 0) return false;
  return Date.now() - entry.lastModified >= Math.min(...ttls) * 1000 - liveTtlMarginMs;
}
const megabyte = 1024 * 1024;

function memoryBudgetBytes() {
  const configured = Number(process.env.SEED_PAGE_CACHE_MB);
  return (Number.isFinite(configured) && configured >= 0 ? configured : 50) * megabyte;
}

/**
 * Roughly how many bytes a cached value holds (strings and buffers dominate).
 * @param {unknown} value
 * @returns {number}
 */
function approximateSize(value, depth = 0) {
  if (value === null || value === undefined) return 0;
  if (typeof value === "string") return value.length * 2;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof value !== "object" || depth > 4) return 8;
  let size = 0;
  const children = value instanceof Map ? value.values() : Object.values(value);
  for (const child of children) size += approximateSize(child, depth + 1);
  return size;
}

/**
 * The tags Next.js stamped on a rendered page or route response.
 * @param {NonNullable<CacheValue>} value
 * @returns {string[]}
 */
function tagsOf(value) {
  const header = "headers" in value ? value.headers?.[tagsHeader] : undefined;
  return typeof header === "string" && header !== "" ? header.split(",") : [];
}

/**
 * A page or route response with an error status (a 404 for an unknown slug included).
 * @param {NonNullable<CacheValue>} value
 */
function isErrorPage(value) {
  const status = "status" in value ? value.status : undefined;
  return typeof status === "number" && status >= 400;
}

// The build prerenders pages with no database to ask; it keeps them only for its own run.
const building = process.env.NEXT_PHASE === "phase-production-build";

/** @type {Map<string, Entry>} */
const entries = new Map();
let storedBytes = 0;
/** The generation each page's render can be trusted from, recorded when it was looked up. */
/** @type {Map<string, number>} */
const renderingSince = new Map();
const maxRenderingKeys = 10_000;

/**
 * @param {string} key
 * @param {number} generation
 */
function noteLookup(key, generation) {
  renderingSince.delete(key);
  renderingSince.set(key, generation);
  if (renderingSince.size > maxRenderingKeys) {
    const oldest = renderingSince.keys().next().value;
    if (oldest !== undefined) renderingSince.delete(oldest);
  }
}

/** @param {string} key */
function forget(key) {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  storedBytes -= entry.size;
}

/** @implements {CacheHandler} */
export default class PageCacheHandler {
  /**
   * @param {string} key
   * @param {GetContext} ctx
   * @returns {Promise<CacheHandlerValue | null>}
   */
  async get(key, ctx) {
    if (building) return entries.get(key) ?? null;
    const entry = entries.get(key);
    try {
      const store = await processStore();
      if (!entry) {
        noteLookup(key, await store.currentPageCacheGeneration());
        return null;
      }
      // Live data is not served stale: past its time-to-live the page is rendered again now.
      if (pastLiveTtl(entry)) {
        forget(key);
        noteLookup(key, await store.currentPageCacheGeneration());
        return null;
      }
      const asked = /** @type {{ tags?: string[]; softTags?: string[] }} */ (ctx ?? {});
      const tags = [...entry.tags, ...(asked.tags ?? []), ...(asked.softTags ?? [])];
      const expiredAt = tags.length > 0 ? await store.pageCacheTagsGeneration(tags) : 0;
      if (expiredAt > entry.generation) {
        forget(key);
        noteLookup(key, await store.currentPageCacheGeneration());
        return null;
      }
    } catch {
      // The database cannot say whether the page is fresh: render it again (and fail there with
      // the real reason if the database is down). Whatever that render stores is stamped as
      // older than any generation, so it is checked again on its next lookup.
      forget(key);
      noteLookup(key, -1);
      return null;
    }
    // A fresh page: a render after this lookup (time-based revalidation) starts from here.
    noteLookup(key, entry.generation);
    // Most recently used last, so eviction takes the oldest first.
    entries.delete(key);
    entries.set(key, entry);
    return {
      lastModified: entry.lastModified,
      value: entry.value,
      cacheControl: entry.cacheControl,
    };
  }

  /**
   * @param {string} key
   * @param {CacheValue} data
   * @param {SetContext} ctx
   */
  async set(key, data, ctx) {
    forget(key);
    if (data === null || data === undefined) return;
    const given =
      /** @type {{ tags?: string[]; cacheControl?: CacheHandlerValue["cacheControl"] }} */ (
        ctx ?? {}
      );
    const since = renderingSince.get(key);
    renderingSince.delete(key);
    const tags = [...new Set([...tagsOf(data), ...(given.tags ?? [])])];
    // Only real pages take space: never a render marked as one-off, never an error or 404 page
    // (a path or query made up by a visitor would otherwise make an entry per spelling).
    if (tags.includes(noStoreTag) || isErrorPage(data)) return;
    const generation = building
      ? 0
      : (since ?? (await (await processStore()).currentPageCacheGeneration()));
    const size = approximateSize(data) + key.length * 2;
    const budget = memoryBudgetBytes();
    if (size > budget) return;
    entries.set(key, {
      value: data,
      lastModified: Date.now(),
      generation,
      tags,
      cacheControl: given.cacheControl,
      size,
    });
    storedBytes += size;
    for (const oldest of entries.keys()) {
      if (storedBytes <= budget) break;
      forget(oldest);
    }
  }

  /** @param {string | string[]} tags */
  async revalidateTag(tags) {
    const list = (Array.isArray(tags) ? tags : [tags]).filter((tag) => typeof tag === "string");
    if (list.length === 0) return;
    if (building) {
      entries.clear();
      storedBytes = 0;
      return;
    }
    await (await processStore()).expirePageCacheTags(list);
  }

  resetRequestCache() {}
}
