import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { EmbedDashboard } from "@/components/embed-view";
import { limitPageCacheTo } from "@/server/live-cache";
import { getStore } from "@/server/store";

type Params = Promise<{ slug: string }>;

// Cached like /d/<slug> (same revalidation); who may frame it is decided per request by the
// proxy (frame-ancestors from the dashboard's allowlist), so nothing here reads the request.
// Signed links (?exp&sig) never reach this page: the proxy rewrites them to /embed/signed.
export const revalidate = 3600;
export const dynamicParams = true;

export function generateStaticParams(): { slug: string }[] {
  return [];
}

const loadDashboard = cache(async (slug: string) => (await getStore()).getDashboardBySlug(slug));

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const rendered = await loadDashboard((await params).slug);
  return { title: rendered ? rendered.dashboard.title : "Not Found" };
}

export default async function EmbedDashboardPage({ params }: { params: Params }) {
  const rendered = await loadDashboard((await params).slug);
  if (!rendered) notFound();
  await limitPageCacheTo(rendered.liveCacheSeconds);
  return <EmbedDashboard rendered={rendered} />;
}
