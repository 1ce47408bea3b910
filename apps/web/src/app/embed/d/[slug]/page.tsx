import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EmbedDashboard } from "@/components/embed-view";
import { loadPublishedDashboard, publishedDashboardMetadata } from "@/server/published-dashboard";

type Params = Promise<{ slug: string }>;

// Cached like /d/<slug> (same revalidation); who may frame it is decided per request by the
// proxy (frame-ancestors from the dashboard's allowlist), so nothing here reads the request.
// Signed links (?exp&sig) never reach this page: the proxy rewrites them to /embed/signed.
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

export default async function EmbedDashboardPage({ params }: { params: Params }) {
  const { slug } = await params;
  const rendered = await loadPublishedDashboard(slug);
  if (!rendered) notFound();
  return <EmbedDashboard rendered={rendered} />;
}
