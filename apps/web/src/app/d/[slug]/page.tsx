import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PublicDashboard } from "@/components/public-dashboard";
import { getStore } from "@/server/store";

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

const loadDashboard = cache(async (slug: string) => (await getStore()).getDashboardBySlug(slug));

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const rendered = await loadDashboard((await params).slug);
  return { title: rendered ? rendered.dashboard.title : "Not Found" };
}

export default async function DashboardPage({ params }: { params: Params }) {
  const rendered = await loadDashboard((await params).slug);
  if (!rendered) notFound();
  return <PublicDashboard rendered={rendered} />;
}
