import Papa from "papaparse";
import { actorOf } from "@/components/admin/store-errors";
import { errorResponse, methodNotAllowed } from "@/lib/http-status";
import {
  type AuditEventView,
  auditFilterSchema,
  canSeeUserRecords,
  findAuditEvents,
} from "@/server/audit-log";
import { withPermission } from "@/server/auth";

export const dynamic = "force-dynamic";

/** Most events one export holds; the filter narrows a larger log. */
const maxExportEvents = 50_000;

function rowOf(event: AuditEventView) {
  return {
    at: event.at,
    actor: event.actor.name,
    actor_email: event.actor.email ?? "",
    action: event.action,
    entity_type: event.entityType,
    entity_id: event.entityId,
    entity_name: event.entity?.name ?? "",
    // Shaped like the page: a user record's contents only for admins.
    detail: event.detail ? JSON.stringify(event.detail) : "",
  };
}

/**
 * The audit events matching the audit page's filters as CSV, newest first, shaped for the
 * reader's role exactly as the page shows them (emails and user details only for admins).
 */
export const GET = withPermission("audit.read", async (request, session) => {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = auditFilterSchema.safeParse({ ...params, cursor: undefined, after: undefined });
  if (!parsed.success) {
    return errorResponse(400, parsed.error.issues.map((issue) => issue.message).join(" "));
  }
  const rows: ReturnType<typeof rowOf>[] = [];
  let cursor: string | undefined;
  do {
    const page = await findAuditEvents({ ...parsed.data, cursor }, actorOf(session), 200);
    rows.push(...page.events.map(rowOf));
    cursor = page.nextCursor ?? undefined;
  } while (cursor && rows.length < maxExportEvents);
  const columns = [
    "at",
    "actor",
    "actor_email",
    "action",
    "entity_type",
    "entity_id",
    "entity_name",
    "detail",
  ];
  const visible = canSeeUserRecords(session.user.role)
    ? columns
    : columns.filter((name) => name !== "actor_email");
  // A leading = + - @ would start a formula in a spreadsheet: such cells are quoted with a '.
  const csv = Papa.unparse(rows.slice(0, maxExportEvents), {
    columns: visible,
    escapeFormulae: true,
    newline: "\n",
  });
  return new Response(`${csv}\n`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="audit-log.csv"',
      "Cache-Control": "no-store",
    },
  });
});

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
