import "server-only";
import { canonicalFilterQuery } from "@seed/model";
import type { EmbedKind } from "@seed/store";
import { forbidden } from "next/navigation";
import { signedLinkParams, verifySignedEmbed } from "./embed-links";

/** The props of the signed renders, /embed/signed/d/[id] and /embed/signed/c/[id]. */
export interface SignedEmbedPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
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

/**
 * A signed dashboard link's own query (id, exp, sig), to keep in every filtered link of its page,
 * and the filters the rest of its query asks for (canonical; the render reports bad ones).
 */
export async function signedEmbedQuery({ searchParams }: SignedEmbedPageProps): Promise<{
  link: string;
  filterQuery: string;
}> {
  const query = await searchParams;
  const link = new URLSearchParams();
  const filters: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value ?? ""]) {
      if (signedLinkParams.includes(name)) link.append(name, one);
      else filters.push([name, one]);
    }
  }
  return { link: link.toString(), filterQuery: canonicalFilterQuery(filters) };
}
