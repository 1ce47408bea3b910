import { formatDay, localDay } from "@seed/model";
import { LRUCache } from "lru-cache";
import type { RunQueryOptions } from "./execute.js";

// Query results kept in memory per dataset version: the same query over unchanged data answers
// from here. A key holds the dataset's version, and every write to a dataset raises its version
// in the shared database, so a write makes the old entries unreachable at once on every
// instance (they age out of the LRU). Bounded in bytes; errors are never kept.

/** The default bound: 32 MiB of results, about a thousand typical charts. */
export const defaultResultCacheBytes = 32 * 1024 * 1024;

export interface ResultCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

export interface ResultCache {
  /**
   * The result under `key`, or `work`'s result (then kept). Concurrent asks for one key while it
   * runs share the one run.
   */
  through<T extends object>(
    key: string,
    work: () => Promise<T>,
  ): Promise<{ value: T; hit: boolean }>;
  stats(): ResultCacheStats;
}

export function createResultCache(maxBytes: number = defaultResultCacheBytes): ResultCache {
  const entries = new LRUCache<string, object>({
    maxSize: Math.max(1, Math.floor(maxBytes)),
    // A UTF-16 string of the JSON is about what the result holds in memory.
    sizeCalculation: (value) => Math.max(1, JSON.stringify(value).length * 2),
  });
  const running = new Map<string, Promise<object>>();
  let hits = 0;
  let misses = 0;
  return {
    async through<T extends object>(key: string, work: () => Promise<T>) {
      const kept = entries.get(key);
      if (kept !== undefined) {
        hits++;
        return { value: kept as T, hit: true };
      }
      const pending = running.get(key);
      if (pending) {
        hits++;
        return { value: (await pending) as T, hit: true };
      }
      misses++;
      const run = work();
      running.set(key, run);
      try {
        const value = await run;
        entries.set(key, value);
        return { value, hit: false };
      } finally {
        running.delete(key);
      }
    },
    stats: () => ({ hits, misses, entries: entries.size, bytes: entries.calculatedSize }),
  };
}

/**
 * The key of one query over one version of a dataset: the query as asked, the options that
 * change its answer, and, when it has a relative date filter, the local day it is relative to.
 */
export function resultKey(
  scope: { datasetId: string; version: number; kind: "chart" | "stat" },
  query: unknown,
  options: RunQueryOptions,
): string {
  const asked = JSON.stringify(query);
  const timeZone = options.timeZone ?? "UTC";
  // Relative periods are whole local days, so the day (not the instant) is what they depend on.
  const day = asked.includes('"relative"') ? dayIn(timeZone, options.now ?? new Date()) : "";
  return JSON.stringify([
    scope.datasetId,
    scope.version,
    scope.kind,
    timeZone,
    options.maxPoints ?? null,
    day,
    asked,
  ]);
}

/** The local day in the zone; an unknown zone keys nothing (the query refuses it anyway). */
function dayIn(timeZone: string, now: Date): string {
  try {
    return formatDay(localDay(timeZone, now.getTime()));
  } catch {
    return "";
  }
}
