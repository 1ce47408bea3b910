import { dashboardFileJsonSchema } from "@seed/model";
import { methodNotAllowed } from "@/lib/http-status";

// The JSON Schema of dashboard files at a stable address, for editors (yaml-language-server)
// and tools; public, like the format itself.
export const dynamic = "force-static";

export function GET() {
  return Response.json(dashboardFileJsonSchema(), {
    headers: {
      "Content-Type": "application/schema+json",
      "Cache-Control": "public, max-age=3600",
    },
  });
}

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
