import { sql } from "kysely";
import type { StoreContext } from "../context.js";

/**
 * The shared half of the web app's page cache: when a cache tag was last expired, as a
 * generation number every instance on the database reads. An instance keeps rendered pages in
 * its own memory, stamped with the generation current when they were stored; a page is fresh
 * while none of its tags has been expired at a later generation. Numbers, not clocks, so
 * instances on machines whose clocks disagree still agree on what is stale.
 */
export const pageCacheTagLimits = {
  /** Longer tags are cut (Next.js paths are short; this only bounds what reaches the table). */
  tagLength: 1024,
  /** Tags per call; a page carries a handful. */
  tagsPerCall: 256,
} as const;

function cleanTags(tags: readonly string[]): string[] {
  const unique = new Set<string>();
  for (const tag of tags) {
    if (typeof tag !== "string" || tag === "") continue;
    unique.add(tag.slice(0, pageCacheTagLimits.tagLength));
    if (unique.size >= pageCacheTagLimits.tagsPerCall) break;
  }
  return [...unique];
}

/** The latest generation any tag was expired at (0 before the first expiry). */
export async function currentPageCacheGeneration(ctx: StoreContext): Promise<number> {
  const row = await ctx.db
    .selectFrom("page_cache_tags")
    .select(sql<number | string | null>`max(generation)`.as("generation"))
    .executeTakeFirst();
  return Number(row?.generation ?? 0);
}

/** The latest generation at which any of `tags` was expired (0 if none ever was). */
export async function pageCacheTagsGeneration(
  ctx: StoreContext,
  tags: readonly string[],
): Promise<number> {
  const wanted = cleanTags(tags);
  if (wanted.length === 0) return 0;
  const row = await ctx.db
    .selectFrom("page_cache_tags")
    .select(sql<number | string | null>`max(generation)`.as("generation"))
    .where("tag", "in", wanted)
    .executeTakeFirst();
  return Number(row?.generation ?? 0);
}

/**
 * Expires `tags` on every instance: they move to a generation above every page stored so far.
 * Returns that generation. One statement (no read-then-write transaction), so it is atomic on
 * both engines and two SQLite connections never deadlock upgrading their locks. Two expiries at
 * once may share a generation; both are still above every page stored before them, which is all
 * freshness needs.
 */
export async function expirePageCacheTags(
  ctx: StoreContext,
  tags: readonly string[],
): Promise<number> {
  const wanted = cleanTags(tags);
  if (wanted.length === 0) return currentPageCacheGeneration(ctx);
  const rows = sql.join(
    wanted.map((tag) => sql`select cast(${tag} as text) as tag`),
    sql` union all `,
  );
  const result = await sql<{ generation: number | string }>`
    insert into page_cache_tags (tag, generation)
    select wanted.tag, (select coalesce(max(generation), 0) + 1 from page_cache_tags)
    from (${rows}) as wanted
    where true
    on conflict (tag) do update set generation = excluded.generation
    returning generation`.execute(ctx.db);
  return Number(result.rows[0]?.generation ?? 0);
}

export const pageCacheOperations = {
  /** The page cache's generation now: stored with each page the web app caches. */
  currentPageCacheGeneration,
  /** The latest generation at which any of `tags` was expired (0 if never). */
  pageCacheTagsGeneration,
  /** Expires `tags` for every instance on this database; returns the new generation. */
  expirePageCacheTags,
};
