import { actorOf } from "@/components/admin/store-errors";
import { errorResponse, methodNotAllowed } from "@/lib/http-status";
import { auditFilterSchema, findAuditEvents } from "@/server/audit-log";
import { withPermission } from "@/server/auth";

export const dynamic = "force-dynamic";

/** The audit log as JSON with the audit page's filters; every admin-area role may read it. */
export const GET = withPermission("audit.read", async (request, session) => {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = auditFilterSchema.safeParse(params);
  if (!parsed.success) {
    return errorResponse(400, parsed.error.issues.map((issue) => issue.message).join(" "));
  }
  const page = await findAuditEvents(parsed.data, actorOf(session));
  return Response.json(page, { headers: { "Cache-Control": "no-store" } });
});

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
