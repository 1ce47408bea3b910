import { createHash, timingSafeEqual } from "node:crypto";
import { errorResponse, methodNotAllowed } from "@/lib/http-status";
import { observability } from "@/server/observability";

export const dynamic = "force-dynamic";

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * Prometheus metrics: request counts and durations by route, chart query durations, imports,
 * and the process's own. Off (404) unless SEED_METRICS_TOKEN is set; then only
 * `Authorization: Bearer <token>` reads them.
 */
export async function GET(request: Request) {
  const token = process.env.SEED_METRICS_TOKEN?.trim();
  if (!token) return errorResponse(404, "Metrics are off; set SEED_METRICS_TOKEN to turn them on.");
  const sent = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!timingSafeEqual(digest(sent), digest(token))) {
    return errorResponse(401, "Send the metrics token as a Bearer token.", {
      headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
    });
  }
  const { registry } = observability();
  return new Response(await registry.metrics(), {
    headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
  });
}

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
