import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { EmbedDashboard } from "@/components/embed-view";
import { canonicalQueryOfSegment } from "@/lib/filter-link";
import { getStore } from "@/server/store";

type Params = Promise<{ slug: string; filters: string }>;

// A filtered embed (/embed/d/<slug>?…, rewritten here by the proxy after its framing check),
// cached per canonical filter combination like /d/<slug>/f/<filters>.
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
  return { title: rendered ? rendered.dashboard.title : "Not Found", robots: { index: false } };
}

export default async function FilteredEmbedDashboardPage({ params }: { params: Params }) {
  const { slug, filters } = await params;
  const rendered = await loadFiltered(slug, filters);
  if (!rendered) notFound();
  return <EmbedDashboard rendered={rendered} />;
}
