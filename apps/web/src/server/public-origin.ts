import "server-only";
import { headers } from "next/headers";
import { publicOriginFor } from "@/lib/same-origin.mjs";

/**
 * The site's origin for links people paste elsewhere: BETTER_AUTH_URL when set (the configured
 * public address), else the origin this request came to (src/lib/same-origin.mjs).
 */
export async function publicOrigin(): Promise<string> {
  return publicOriginFor(await headers());
}
