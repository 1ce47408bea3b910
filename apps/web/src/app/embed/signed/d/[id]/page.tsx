import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EmbedDashboard } from "@/components/embed-view";
import { embedPathOf } from "@/server/embed-links";
import {
  type SignedEmbedPageProps,
  signedEmbedQuery,
  verifiedSignedEmbedId,
} from "@/server/signed-embed-page";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Embedded dashboard" };

/**
 * A signed link's render (the proxy rewrites /embed/d/<slug>?id&exp&sig here, by the dashboard's
 * id, after checking it): drafts too, per request, never cached for others; filtered by the rest
 * of its query, in links that keep the signature.
 */
export default async function SignedEmbedDashboardPage(props: SignedEmbedPageProps) {
  const id = await verifiedSignedEmbedId("dashboard", props);
  const { link, filterQuery } = await signedEmbedQuery(props);
  const rendered = await (await getStore()).getRenderedDashboard(id, {
    includeDrafts: true,
    filterQuery,
  });
  if (!rendered) notFound();
  // Every filtered link of the page keeps the signature, so it opens this same render.
  return (
    <EmbedDashboard
      rendered={rendered}
      action={`${embedPathOf("dashboard", rendered.dashboard.slug)}?${link}`}
    />
  );
}
