import "server-only";
import { revalidatePath } from "next/cache";

/**
 * Every write to content (datasets and their rows, charts, dashboards) calls this: public pages
 * are cached, and a dashboard can draw any dataset, so all pages are revalidated together. The
 * next request renders them from the database again (tested in e2e/public-cache.spec.ts).
 */
export function revalidateContent(): void {
  revalidatePath("/", "layout");
}
