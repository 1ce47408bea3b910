import type { Metadata } from "next";
import { forbidden, notFound } from "next/navigation";
import { EmbedDashboard } from "@/components/embed-view";
import { verifySignedEmbed } from "@/server/embed-links";
import { getStore } from "@/server/store";

type Params = Promise<{ slug: string }>;
type Query = Promise<{ exp?: string | string[]; sig?: string | string[] }>;

export const metadata: Metadata = { title: "Embedded dashboard" };

/**
 * A signed link's render (the proxy rewrites /embed/d/<slug>?exp&sig here after checking it):
 * drafts too, per request, never cached for others. The link is checked again here.
 */
export default async function SignedEmbedDashboardPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Query;
}) {
  const [{ slug }, { exp, sig }] = await Promise.all([params, searchParams]);
  const verdict = verifySignedEmbed("dashboard", slug, {
    exp: typeof exp === "string" ? exp : null,
    sig: typeof sig === "string" ? sig : null,
  });
  if (verdict !== "valid") forbidden();
  const rendered = await (await getStore()).getDashboardBySlug(slug, { includeDrafts: true });
  if (!rendered) notFound();
  return <EmbedDashboard rendered={rendered} />;
}
