import { canonicalFilterQuery } from "@seed/model";

// A filtered dashboard link (/d/<slug>?range=…&region=…) is served from its own cached route,
// /d/<slug>/f/<segment>, where the segment is the canonical filter query in base64url: one
// cache entry per combination, whatever order or spelling the link used (src/proxy.ts).

/** The canonical filter query of a link's search params; Next.js's own (`_rsc`…) are left out. */
export function canonicalQueryOf(params: URLSearchParams): string {
  return canonicalFilterQuery([...params].filter(([name]) => !name.startsWith("_")));
}

export function filterSegmentOf(canonicalQuery: string): string {
  return Buffer.from(canonicalQuery, "utf8").toString("base64url");
}

/** The canonical query a segment holds, or null when it is not one the proxy would make. */
export function canonicalQueryOfSegment(segment: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,12000}$/.test(segment)) return null;
  const query = Buffer.from(segment, "base64url").toString("utf8");
  if (query === "" || filterSegmentOf(query) !== segment) return null;
  return canonicalFilterQuery(new URLSearchParams(query)) === query ? query : null;
}

/** The public dashboard path a filtered link rewrites from: /d/<slug> or /embed/d/<slug>. */
export function filterablePath(pathname: string): string | null {
  return /^\/(?:embed\/)?d\/[a-z0-9-]{1,64}$/.test(pathname) ? pathname : null;
}

/** A page's searchParams prop as URLSearchParams (repeated names kept in order). */
export function searchParamsOf(
  params: Record<string, string | string[] | undefined>,
): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      search.append(name, item);
    }
  }
  return search;
}
