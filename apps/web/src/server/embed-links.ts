// Not server-only: the proxy verifies links too. It never reaches a client bundle.
import {
  type EmbedKind,
  type EmbedLinkVerdict,
  embedLinkKey,
  signEmbedLink,
  verifyEmbedLink,
} from "@seed/store";
import { loadAuthSecret, resolveDataDir } from "./auth-options.mjs";

let key: Buffer | undefined;

/** SEED_EMBED_SECRET, or a key derived from the auth secret (env or data folder) by HKDF. */
function embedKey(): Buffer {
  if (!key) {
    const embedSecret = process.env.SEED_EMBED_SECRET?.trim();
    key = embedSecret
      ? embedLinkKey({ embedSecret })
      : embedLinkKey({ authSecret: loadAuthSecret(resolveDataDir()) });
  }
  return key;
}

/** The path of an embed: /embed/d/<slug> or /embed/c/<chart id>. */
export function embedPathOf(kind: EmbedKind, key: string): string {
  return `/embed/${kind === "dashboard" ? "d" : "c"}/${encodeURIComponent(key)}`;
}

/** What a signed link opens: a dashboard (by id, shown under its slug) or a chart. */
export type SignedEmbedTarget =
  | { kind: "dashboard"; id: string; slug: string }
  | { kind: "chart"; id: string };

/**
 * A signed path with its query, valid until `expiresAt` (unix seconds, at most 30 days ahead).
 * The signature covers the record's id, never its slug: a dashboard's link carries `id` beside
 * `exp` and `sig`, so a slug taken over by another dashboard opens nothing.
 */
/** The query names a signed link carries beside a dashboard's filters. */
export const signedLinkParams: readonly string[] = ["id", "exp", "sig"];

export function signedEmbedPath(target: SignedEmbedTarget, expiresAt: number): string {
  const { exp, sig } = signEmbedLink(embedKey(), { kind: target.kind, id: target.id }, expiresAt);
  if (target.kind === "chart") {
    return `${embedPathOf("chart", target.id)}?${new URLSearchParams({ exp, sig })}`;
  }
  return `${embedPathOf("dashboard", target.slug)}?${new URLSearchParams({ id: target.id, exp, sig })}`;
}

export function verifySignedEmbed(
  subject: { kind: EmbedKind; id: string },
  query: { exp: string | null | undefined; sig: string | null | undefined },
): EmbedLinkVerdict {
  return verifyEmbedLink(embedKey(), subject, query);
}
