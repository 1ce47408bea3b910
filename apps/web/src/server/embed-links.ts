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

/** A signed path with its query, valid until `expiresAt` (unix seconds, at most 30 days ahead). */
export function signedEmbedPath(kind: EmbedKind, key: string, expiresAt: number): string {
  const { exp, sig } = signEmbedLink(embedKey(), { kind, key }, expiresAt);
  return `${embedPathOf(kind, key)}?${new URLSearchParams({ exp, sig })}`;
}

export function verifySignedEmbed(
  kind: EmbedKind,
  key: string,
  query: { exp: string | null | undefined; sig: string | null | undefined },
): EmbedLinkVerdict {
  return verifyEmbedLink(embedKey(), { kind, key }, query);
}
