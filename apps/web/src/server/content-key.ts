import "server-only";
import { createHash } from "node:crypto";

/** A short fingerprint of what a page shows, so auto-refresh can tell new data from the same. */
export function contentKey(shown: unknown): string {
  return createHash("sha256").update(JSON.stringify(shown)).digest("base64url").slice(0, 16);
}
