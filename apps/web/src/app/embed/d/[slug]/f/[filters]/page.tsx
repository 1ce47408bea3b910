import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EmbedDashboard } from "@/components/embed-view";
import { loadPublishedDashboard, publishedDashboardMetadata } from "@/server/published-dashboard";

type Params = Promise<{ slug: string; filters: string }>;

// A filtered embed (/embed/d/<slug>?…, rewritten here by the proxy after its framing check),
// cached per canonical filter combination like /d/<slug>/f/<filters>.
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

export default async function FilteredEmbedDashboardPage({ params }: { params: Params }) {
  const { slug, filters } = await params;
  const rendered = await loadPublishedDashboard(slug, filters);
  if (!rendered) notFound();
  return <EmbedDashboard rendered={rendered} />;
}
