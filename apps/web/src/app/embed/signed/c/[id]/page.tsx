import type { Metadata } from "next";
import { forbidden, notFound } from "next/navigation";
import { EmbedChart } from "@/components/embed-view";
import { verifySignedEmbed } from "@/server/embed-links";
import { getStore } from "@/server/store";

type Params = Promise<{ id: string }>;
type Query = Promise<{ exp?: string | string[]; sig?: string | string[] }>;

export const metadata: Metadata = { title: "Embedded chart" };

/** A signed chart link's render, like the signed dashboard's: any existing chart, per request. */
export default async function SignedEmbedChartPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Query;
}) {
  const [{ id }, { exp, sig }] = await Promise.all([params, searchParams]);
  const verdict = verifySignedEmbed(
    { kind: "chart", id },
    {
      exp: typeof exp === "string" ? exp : null,
      sig: typeof sig === "string" ? sig : null,
    },
  );
  if (verdict !== "valid") forbidden();
  const embed = await (await getStore()).getChartEmbed(id, { includeDrafts: true });
  if (!embed) notFound();
  return <EmbedChart embed={embed} />;
}
