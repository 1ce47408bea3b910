import { methodNotAllowed } from "@/lib/http-status";
import { getAuth } from "@/server/auth-instance";
import { observability } from "@/server/observability";
import { getStore } from "@/server/store";

export const dynamic = "force-dynamic";

/**
 * For load balancers: 200 once this instance has opened its database, run the store's and
 * better-auth's migrations and reached the database just now; 503 otherwise. The answer says ready
 * or not and nothing else (no engine, host or error): anyone may ask. Why it is not ready goes to
 * the server log. /api/health only says the process is up.
 */
export async function GET() {
  const headers = { "Cache-Control": "no-store" };
  try {
    await getAuth();
    const store = await getStore();
    await store.ping();
    return Response.json({ status: "ready" }, { headers });
  } catch (error) {
    observability().logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "not ready: the database cannot be reached or is not migrated yet",
    );
    return Response.json({ status: "unavailable" }, { status: 503, headers });
  }
}

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
