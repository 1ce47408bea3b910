import "server-only";
import { headers } from "next/headers";

/**
 * The site's origin for links people paste elsewhere: BETTER_AUTH_URL when set (the configured
 * public address), else the host this request came to.
 */
export async function publicOrigin(): Promise<string> {
  const configured = process.env.BETTER_AUTH_URL;
  if (configured) return new URL(configured).origin;
  const requestHeaders = await headers();
  const host = requestHeaders.get("host") ?? "localhost";
  const proto =
    requestHeaders.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  return `${proto}://${host}`;
}
