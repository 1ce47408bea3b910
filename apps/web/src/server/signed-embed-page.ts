import "server-only";
import type { EmbedKind } from "@seed/store";
import { forbidden } from "next/navigation";
import { verifySignedEmbed } from "./embed-links";

/** The props of the signed renders, /embed/signed/d/[id] and /embed/signed/c/[id]. */
export interface SignedEmbedPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ exp?: string | string[]; sig?: string | string[] }>;
}

/**
 * The id a signed render may show: its link is checked again here (the proxy checked it first)
 * against the id it was signed for; anything else answers 403.
 */
export async function verifiedSignedEmbedId(
  kind: EmbedKind,
  { params, searchParams }: SignedEmbedPageProps,
): Promise<string> {
  const [{ id }, { exp, sig }] = await Promise.all([params, searchParams]);
  const verdict = verifySignedEmbed(
    { kind, id },
    { exp: typeof exp === "string" ? exp : null, sig: typeof sig === "string" ? sig : null },
  );
  if (verdict !== "valid") forbidden();
  return id;
}
