import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EmbedChart } from "@/components/embed-view";
import { type SignedEmbedPageProps, verifiedSignedEmbedId } from "@/server/signed-embed-page";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Embedded chart" };

/** A signed chart link's render, like the signed dashboard's: any existing chart, per request. */
export default async function SignedEmbedChartPage(props: SignedEmbedPageProps) {
  const id = await verifiedSignedEmbedId("chart", props);
  const embed = await (await getStore()).getChartEmbed(id, { includeDrafts: true });
  if (!embed) notFound();
  return <EmbedChart embed={embed} />;
}
