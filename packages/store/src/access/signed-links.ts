import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/** What an embed shows: a whole dashboard or one chart. */
export type EmbedKind = "dashboard" | "chart";

/**
 * Signed embed links: `?exp=<unix seconds>&sig=<base64url HMAC-SHA256>` over the embed's kind,
 * its id (never a slug: a slug passes to the next dashboard that takes it), and the expiry. They let a page frame a dashboard or chart that is not public;
 * where it may be framed is still the allowlist's business.
 */
export const embedLinkLimits = {
  /** The longest a link may live; a later expiry is refused when signing and when verifying. */
  maxLifetimeSeconds: 30 * 24 * 60 * 60,
  /** Leeway for clocks of several instances when judging "too far in the future". */
  clockSkewSeconds: 5 * 60,
  minSecretLength: 32,
} as const;

export type EmbedLinkVerdict = "valid" | "expired" | "invalid";

export interface EmbedLinkSubject {
  kind: EmbedKind;
  /** The dashboard's or the chart's id: the link opens this record and no other, whatever its slug. */
  id: string;
}

// A label of its own, so the derived key is never the auth secret nor another derived key.
const hkdfInfo = "seed-charts/embed-link-hmac/v1";

/**
 * The HMAC key: SEED_EMBED_SECRET as given, or else derived by HKDF-SHA256 from the auth secret
 * under a label only embed links use. Both must be at least 32 characters; there is no default.
 */
export function embedLinkKey(secrets: { embedSecret?: string; authSecret?: string }): Buffer {
  const own = secrets.embedSecret?.trim();
  if (own) {
    if (own.length < embedLinkLimits.minSecretLength) {
      throw new Error("SEED_EMBED_SECRET must be at least 32 characters long.");
    }
    return Buffer.from(own, "utf8");
  }
  const auth = secrets.authSecret?.trim();
  if (!auth || auth.length < embedLinkLimits.minSecretLength) {
    throw new Error("Signing embed links needs SEED_EMBED_SECRET or the auth secret.");
  }
  return Buffer.from(hkdfSync("sha256", auth, "", hkdfInfo, 32));
}

function mac(key: Buffer, subject: EmbedLinkSubject, exp: string): Buffer {
  // JSON keeps the fields apart: no id can shift a boundary between them. v2 signs ids; a v1
  // link (signed over a dashboard's slug) never verifies.
  const message = JSON.stringify(["seed-embed-v2", subject.kind, subject.id, exp]);
  return createHmac("sha256", key).update(message).digest();
}

/** Signs a link that expires at `expiresAt` (unix seconds), within the longest lifetime from `now`. */
export function signEmbedLink(
  key: Buffer,
  subject: EmbedLinkSubject,
  expiresAt: number,
  now: Date = new Date(),
): { exp: string; sig: string } {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (!Number.isInteger(expiresAt) || expiresAt <= nowSeconds) {
    throw new RangeError("An embed link must expire in the future.");
  }
  if (expiresAt - nowSeconds > embedLinkLimits.maxLifetimeSeconds) {
    throw new RangeError("An embed link may live at most 30 days.");
  }
  const exp = String(expiresAt);
  return { exp, sig: mac(key, subject, exp).toString("base64url") };
}

/**
 * Checks a link's signature in constant time, then its expiry. A forged or altered link is
 * "invalid" whatever its expiry says; so is a genuine one that claims to outlive the longest
 * lifetime (a leaked key cannot mint links for ever without it showing).
 */
export function verifyEmbedLink(
  key: Buffer,
  subject: EmbedLinkSubject,
  link: { exp: string | null | undefined; sig: string | null | undefined },
  now: Date = new Date(),
): EmbedLinkVerdict {
  const { exp, sig } = link;
  if (typeof exp !== "string" || !/^[1-9][0-9]{0,11}$/.test(exp)) return "invalid";
  if (typeof sig !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return "invalid";
  // Compared as text: base64url has several spellings of the last character's spare bits.
  const given = Buffer.from(sig, "ascii");
  const expected = Buffer.from(mac(key, subject, exp).toString("base64url"), "ascii");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid";
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const expiresAt = Number(exp);
  if (
    expiresAt - nowSeconds >
    embedLinkLimits.maxLifetimeSeconds + embedLinkLimits.clockSkewSeconds
  )
    return "invalid";
  return expiresAt <= nowSeconds ? "expired" : "valid";
}
