import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PublicDashboard } from "@/components/public-dashboard";
import { loadPublishedDashboard, publishedDashboardMetadata } from "@/server/published-dashboard";

type Params = Promise<{ slug: string; filters: string }>;

// One filtered view of a published dashboard, cached like /d/<slug> (same revalidation, hourly
// for relative ranges) with one entry per canonical filter combination. Visitors reach it
// through the proxy's rewrite of /d/<slug>?…; a segment that is not canonical is not a page,
// so the cache holds nothing but canonical combinations. Nothing here may read the request.
export const revalidate = 3600;
export const dynamicParams = true;

/** No dashboard is rendered at build time (the build has no database); each on first request. */
export function generateStaticParams(): { slug: string; filters: string }[] {
  return [];
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug, filters } = await params;
  return publishedDashboardMetadata(slug, filters);
}

export default async function FilteredDashboardPage({ params }: { params: Params }) {
  const { slug, filters } = await params;
  const rendered = await loadPublishedDashboard(slug, filters);
  if (!rendered) notFound();
  return <PublicDashboard rendered={rendered} />;
}
