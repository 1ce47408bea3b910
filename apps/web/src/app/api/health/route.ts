import { methodNotAllowed } from "@/lib/http-status";

export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
