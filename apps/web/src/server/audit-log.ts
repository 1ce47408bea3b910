import "server-only";
import type { AuditEvent, AuditEventPage } from "@seed/store";
import { z } from "zod";
import { getStore } from "./store";

export const auditEntityTypes = ["dataset", "chart", "dashboard", "user"] as const;

const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Use a date like 2026-01-31." })
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), {
    error: "Use a real calendar date.",
  });

/** The audit page's query string: every field optional, bad values reported per field. */
export const auditFilterSchema = z.object({
  actor: z.string().max(200).optional(),
  entityType: z.enum(auditEntityTypes, { error: "Pick one of the listed types." }).optional(),
  action: z
    .string()
    .regex(/^[a-z-]+\.[a-z-]+$/, { error: "Pick one of the listed actions." })
    .optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  cursor: z.string().max(500).optional(),
});

export type AuditFilter = z.infer<typeof auditFilterSchema>;

function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

/** Newest first, one page of 50. */
export async function findAuditEvents(filter: AuditFilter): Promise<AuditEventPage> {
  const store = await getStore();
  const since = filter.from ? `${filter.from}T00:00:00.000Z` : undefined;
  const until = filter.to ? dayAfter(filter.to) : undefined;
  if (filter.entityType !== "user") {
    return store.listAuditEvents({
      actorId: filter.actor,
      entityType: filter.entityType,
      action: filter.action as AuditEvent["action"] | undefined,
      since,
      until,
      cursor: filter.cursor ?? null,
      limit: 50,
    });
  }
  // The Store's filter knows only its own entity types; user events are written by this app.
  let query = store.db.selectFrom("audit_events").selectAll().where("entity_type", "=", "user");
  if (filter.actor) query = query.where("actor_id", "=", filter.actor);
  if (filter.action) query = query.where("action", "=", filter.action);
  if (since) query = query.where("at", ">=", since);
  if (until) query = query.where("at", "<", until);
  const rows = await query.orderBy("at", "desc").orderBy("id", "desc").limit(50).execute();
  return {
    events: rows.map((row) => ({
      id: row.id,
      at: row.at,
      actor: { id: row.actor_id, email: row.actor_email },
      action: row.action as AuditEvent["action"],
      entityType: row.entity_type as AuditEvent["entityType"],
      entityId: row.entity_id,
      detail: JSON.parse(row.detail_json) as Record<string, unknown>,
    })),
    nextCursor: null,
  };
}

/** Who and what appears in the log, for the filter menus. */
export async function auditFilterChoices(): Promise<{
  actors: { id: string; email: string }[];
  actions: string[];
}> {
  const store = await getStore();
  const [actors, actions] = await Promise.all([
    store.db
      .selectFrom("audit_events")
      .select(["actor_id", "actor_email"])
      .distinct()
      .orderBy("actor_email")
      .execute(),
    store.db.selectFrom("audit_events").select("action").distinct().orderBy("action").execute(),
  ]);
  return {
    actors: actors.map((row) => ({ id: row.actor_id, email: row.actor_email })),
    actions: actions.map((row) => row.action),
  };
}
