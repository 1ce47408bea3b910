import "server-only";
import { revalidatePath } from "next/cache";
import { NEXT_CACHE_IMPLICIT_TAG_ID } from "next/dist/lib/constants";
import { after } from "next/server";
import { getStore } from "./store";

/** The tag revalidatePath("/", "layout") expires: the root layout, which every page is under. */
const everyPageTag = `${NEXT_CACHE_IMPLICIT_TAG_ID}/layout`;

/**
 * Every write to content (datasets and their rows, charts, dashboards) calls this: public pages
 * are cached, and a dashboard can draw any dataset, so all pages are revalidated together. The
 * next request to any instance renders them from the database again (tested in
 * e2e/public-cache.spec.ts, and across instances in e2e-cluster/).
 * The expiry is written to the database before this returns: Next.js runs an action's own
 * revalidations only after its response when the action redirects, so a client following the
 * redirect could otherwise still be served the old page by another instance. The cache handler
 * (page-cache-handler.mjs) stamps a page with the generation from before its render, so a render
 * that read the database just before the write is stale too; the revalidation after the response
 * is a guard for the same race should a page ever be stored some other way.
 * `inPlace` is for a form that updates its own page from the action's answer: revalidating now
 * would make Next.js draw the whole page again into that answer.
 */
export async function revalidateContent(options: { inPlace?: boolean } = {}): Promise<void> {
  // In place: the form draws its change itself, so the action's answer holds no page; every
  // instance's page cache still expires now (below), and this instance's own after the answer.
  if (!options.inPlace) revalidatePath("/", "layout");
  await expireContentNow();
  after(() => revalidatePath("/", "layout"));
}

/**
 * For writes that finish while their response streams (an import): expires every page through
 * the cache handler's shared tags before the stream's last event, so a client that reads "done"
 * and loads a page gets the new data from any instance; then once more after the response.
 */
export async function expireContentNow(): Promise<void> {
  await (await getStore()).expirePageCacheTags([everyPageTag]);
}

/**
 * For writes that finish after their handler has returned (a streamed import): revalidates once
 * the response is done, if `changed` resolves true.
 */
export function revalidateContentWhen(changed: Promise<boolean>): void {
  after(async () => {
    if (await changed) revalidatePath("/", "layout");
  });
}
