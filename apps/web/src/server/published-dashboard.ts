import "server-only";
import type { RenderedDashboard } from "@seed/store";
import type { Metadata } from "next";
import { cache } from "react";
import { canonicalQueryOfSegment } from "@/lib/filter-link";
import { keepOutOfPageCache, limitPageCacheTo } from "@/server/live-cache";
import { getStore } from "@/server/store";

// The one loader of the cached published-dashboard pages: /d/<slug>, /embed/d/<slug> and their
// filtered variants /…/f/<segment>. Nothing here reads the request, so each stays cacheable.

/**
 * A published dashboard, filtered by a canonical filter segment when given; null when there is no
 * such published dashboard or the segment is not one the proxy makes (so it is not a page).
 * Marks the page with its live sources' shortest cache time-to-live.
 */
export const loadPublishedDashboard = cache(
  async (slug: string, segment?: string): Promise<RenderedDashboard | null> => {
    let filterQuery: string | undefined;
    if (segment !== undefined) {
      const canonical = canonicalQueryOfSegment(segment);
      if (canonical === null) return null;
      filterQuery = canonical;
    }
    const rendered = await (await getStore()).getDashboardBySlug(slug, { filterQuery });
    if (!rendered) return null;
    await limitPageCacheTo(rendered.liveCacheSeconds);
    // Only combinations the filter bar offers take cache space; a made-up parameter or value
    // renders (with its "ignored" notice) for this request only.
    if (filterQuery !== undefined && !isOfferedFilterQuery(rendered)) await keepOutOfPageCache();
    return rendered;
  },
);

/**
 * Whether a filtered render asked only for what its filter bar and charts offer: nothing ignored,
 * each category value as the link wrote it one of the values offered for that column (another
 * letter case matches too, but is not one more page to keep; so for a drill's values), and each
 * drilled chart drilled into a period or values that hold data (any year can be named; only those a chart shows are pages to keep).
 */
export function isOfferedFilterQuery(rendered: RenderedDashboard): boolean {
  const { problems, asked, applied, categories } = rendered.filterBar;
  if (problems.length > 0) return false;
  // a drill's values in another letter case show the same chart: not one more page to keep
  const drills = Object.entries(asked.drill ?? {});
  if (drills.some(([tileId, token]) => applied.drill?.[tileId] !== token)) return false;
  const emptyDrill = rendered.tiles.some(
    (tile) =>
      tile.kind === "chart" &&
      (tile.drill?.trail.length ?? 0) > 0 &&
      (tile.result?.rows.length ?? 0) === 0,
  );
  if (emptyDrill) return false;
  return Object.entries(asked.categories).every(([column, values]) => {
    const offered = categories.find((category) => category.column === column)?.values ?? [];
    return values.every((value) => offered.includes(value));
  });
}

/** The page title; a filtered view is not indexed (the unfiltered page is the one to index). */
export async function publishedDashboardMetadata(
  slug: string,
  segment?: string,
): Promise<Metadata> {
  const rendered = await loadPublishedDashboard(slug, segment);
  if (!rendered) return { title: "Not Found" };
  return segment === undefined
    ? { title: rendered.dashboard.title }
    : { title: `${rendered.dashboard.title} (filtered)`, robots: { index: false } };
}
