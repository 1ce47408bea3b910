import "server-only";
import { revalidatePath } from "next/cache";
import { after } from "next/server";

/**
 * Every write to content (datasets and their rows, charts, dashboards) calls this: public pages
 * are cached, and a dashboard can draw any dataset, so all pages are revalidated together. The
 * next request renders them from the database again (tested in e2e/public-cache.spec.ts).
 * Once more after the response: a page render that began before the write committed can finish
 * after the first invalidation and store what it read; the second one drops that too.
 */
export function revalidateContent(): void {
  revalidatePath("/", "layout");
  after(() => revalidatePath("/", "layout"));
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
