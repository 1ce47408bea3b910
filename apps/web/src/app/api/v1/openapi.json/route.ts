import { methodNotAllowed } from "@/lib/http-status";
import { openApiDocument } from "@/lib/openapi";
import { publicOrigin } from "@/server/public-origin";

export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 document of /api/v1, public like the API's shape itself. */
export async function GET() {
  return Response.json(openApiDocument(await publicOrigin()), {
    headers: { "Cache-Control": "public, max-age=300" },
  });
}

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
