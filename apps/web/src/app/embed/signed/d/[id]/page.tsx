import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EmbedDashboard } from "@/components/embed-view";
import { type SignedEmbedPageProps, verifiedSignedEmbedId } from "@/server/signed-embed-page";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Embedded dashboard" };

/**
 * A signed link's render (the proxy rewrites /embed/d/<slug>?id&exp&sig here, by the dashboard's
 * id, after checking it): drafts too, per request, never cached for others.
 */
export default async function SignedEmbedDashboardPage(props: SignedEmbedPageProps) {
  const id = await verifiedSignedEmbedId("dashboard", props);
  const rendered = await (await getStore()).getRenderedDashboard(id, { includeDrafts: true });
  if (!rendered) notFound();
  return <EmbedDashboard rendered={rendered} signed />;
}
