import { methodNotAllowed } from "@/lib/http-status";
import { openApiDocument } from "@/lib/openapi";
import { publicOrigin } from "@/server/public-origin";

export const dynamic = "force-dynamic";

/**
 * The OpenAPI 3.1 document of /api/v1, public like the API's shape itself. Its server address is
 * the public origin, which without BETTER_AUTH_URL is the request's: caches keep one per host.
 */
export async function GET() {
  return Response.json(openApiDocument(await publicOrigin()), {
    headers: {
      "Cache-Control": "public, max-age=300",
      Vary: "Host, X-Forwarded-Host, X-Forwarded-Proto",
    },
  });
}

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
