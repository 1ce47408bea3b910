import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { EmbedChart } from "@/components/embed-view";
import { limitPageCacheTo } from "@/server/live-cache";
import { getStore } from "@/server/store";

type Params = Promise<{ id: string }>;

// A chart on at least one published dashboard; cached like the public pages. Framed by the
// union of those dashboards' allowlists (the proxy); on none, it is 404 unless signed.
export const revalidate = 3600;
export const dynamicParams = true;

export function generateStaticParams(): { id: string }[] {
  return [];
}

const loadChart = cache(async (id: string) => (await getStore()).getChartEmbed(id));

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const embed = await loadChart((await params).id);
  return { title: embed ? embed.chart.title : "Not Found" };
}

export default async function EmbedChartPage({ params }: { params: Params }) {
  const embed = await loadChart((await params).id);
  if (!embed) notFound();
  await limitPageCacheTo(embed.liveCacheSeconds);
  return <EmbedChart embed={embed} />;
}
