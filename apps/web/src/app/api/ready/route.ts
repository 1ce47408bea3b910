import { methodNotAllowed } from "@/lib/http-status";
import { getAuth } from "@/server/auth-instance";
import { getStore } from "@/server/store";

export const dynamic = "force-dynamic";

/**
 * For load balancers: 200 once this instance has opened its database, run the store's and
 * better-auth's migrations and reached the database just now; 503 otherwise (with a reason that
 * names no host or credential). /api/health only says the process is up.
 */
export async function GET() {
  const headers = { "Cache-Control": "no-store" };
  try {
    await getAuth();
    const store = await getStore();
    await store.ping();
    return Response.json({ status: "ready", database: store.dialect }, { headers });
  } catch {
    return Response.json(
      { status: "unavailable", reason: "The database cannot be reached or is not migrated yet." },
      { status: 503, headers },
    );
  }
}

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
