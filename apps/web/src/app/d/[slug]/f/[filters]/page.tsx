import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PublicDashboard } from "@/components/public-dashboard";
import { canonicalQueryOfSegment } from "@/lib/filter-link";
import { getStore } from "@/server/store";

type Params = Promise<{ slug: string; filters: string }>;

// One filtered view of a published dashboard, cached like /d/<slug> (same revalidation, hourly
// for relative ranges) with one entry per canonical filter combination. Visitors reach it
// through the proxy's rewrite of /d/<slug>?…; a segment that is not canonical is not a page,
// so the cache holds nothing but canonical combinations. Nothing here may read the request.
export const revalidate = 3600;
export const dynamicParams = true;

export function generateStaticParams(): { slug: string; filters: string }[] {
  return [];
}

const loadFiltered = cache(async (slug: string, segment: string) => {
  const filterQuery = canonicalQueryOfSegment(segment);
  if (filterQuery === null) return null;
  return (await getStore()).getDashboardBySlug(slug, { filterQuery });
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug, filters } = await params;
  const rendered = await loadFiltered(slug, filters);
  return {
    title: rendered ? `${rendered.dashboard.title} (filtered)` : "Not Found",
    // The unfiltered page is the one to index.
    robots: { index: false },
  };
}

export default async function FilteredDashboardPage({ params }: { params: Params }) {
  const { slug, filters } = await params;
  const rendered = await loadFiltered(slug, filters);
  if (!rendered) notFound();
  return <PublicDashboard rendered={rendered} />;
}
