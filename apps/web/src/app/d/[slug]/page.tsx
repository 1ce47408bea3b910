import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PublicDashboard } from "@/components/public-dashboard";
import { loadPublishedDashboard, publishedDashboardMetadata } from "@/server/published-dashboard";

type Params = Promise<{ slug: string }>;

// Published dashboards are rendered once and cached (incremental static regeneration): every
// content write revalidates them (server/revalidate.ts), and relative date ranges ("last
// month") are refreshed at least hourly. Nothing here may read the request (cookies, headers),
// or the page would render per request again; drafts are previewed at /admin/preview/<slug>.
// A filtered link (?range=…&region=…) is rewritten by the proxy to ./f/[filters], cached alike.
export const revalidate = 3600;
export const dynamicParams = true;

/** No dashboard is rendered at build time (the build has no database); each on first request. */
export function generateStaticParams(): { slug: string }[] {
  return [];
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug } = await params;
  return publishedDashboardMetadata(slug);
}

export default async function DashboardPage({ params }: { params: Params }) {
  const { slug } = await params;
  const rendered = await loadPublishedDashboard(slug);
  if (!rendered) notFound();
  return <PublicDashboard rendered={rendered} />;
}
