import type { Metadata } from "next";
import { forbidden, notFound } from "next/navigation";
import { EmbedDashboard } from "@/components/embed-view";
import { verifySignedEmbed } from "@/server/embed-links";
import { getStore } from "@/server/store";

type Params = Promise<{ id: string }>;
type Query = Promise<{ exp?: string | string[]; sig?: string | string[] }>;

export const metadata: Metadata = { title: "Embedded dashboard" };

/**
 * A signed link's render (the proxy rewrites /embed/d/<slug>?id&exp&sig here, by the dashboard's
 * id, after checking it): drafts too, per request, never cached for others. The link is checked
 * again here, against the id it was signed for.
 */
export default async function SignedEmbedDashboardPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Query;
}) {
  const [{ id }, { exp, sig }] = await Promise.all([params, searchParams]);
  const verdict = verifySignedEmbed(
    { kind: "dashboard", id },
    { exp: typeof exp === "string" ? exp : null, sig: typeof sig === "string" ? sig : null },
  );
  if (verdict !== "valid") forbidden();
  const rendered = await (await getStore()).getRenderedDashboard(id, { includeDrafts: true });
  if (!rendered) notFound();
  return <EmbedDashboard rendered={rendered} />;
}
