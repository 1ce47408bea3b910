import { sql } from "kysely";
import { z } from "zod";
import { type EntityType, ValidationError } from "./errors.js";
import type { AuditAction, StoreContext } from "./internal.js";
import { parseInput, parseJson } from "./internal.js";

export interface AuditEvent {
  id: string;
  at: string;
  actor: { id: string; email: string };
  action: AuditAction;
  entityType: EntityType;
  entityId: string;
  detail: Record<string, unknown>;
}

export interface AuditEventFilter {
  actorId?: string;
  entityType?: EntityType;
  action?: AuditAction;
  /** Inclusive lower bound. */
  since?: Date | string;
  /** Exclusive upper bound. */
  until?: Date | string;
  /** 1-200, default 50. */
  limit?: number;
  /** The nextCursor of the previous page. */
  cursor?: string | null;
}

export interface AuditEventPage {
  events: AuditEvent[];
  /** Pass back as cursor for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

const instant = z
  .union([z.date(), z.string()])
  .transform((value, ctx) => {
    const date = value instanceof Date ? value : new Date(value);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: "custom", message: "Use an ISO 8601 date or date-time." });
      return z.NEVER;
    }
    return date.toISOString();
  })
  .optional();

const filterSchema = z.object({
  actorId: z.string().min(1).optional(),
  entityType: z
    .enum(["dataset", "chart", "dashboard"], {
      error: "Entity type must be dataset, chart or dashboard.",
    })
    .optional(),
  action: z.string().min(1).optional(),
  since: instant,
  until: instant,
  limit: z
    .number()
    .int("The limit must be a whole number.")
    .min(1, "The limit must be at least 1.")
    .max(200, "The limit can be at most 200.")
    .default(50),
  cursor: z.string().nullable().optional(),
});

const cursorSchema = z.tuple([z.string(), z.string()]);

function encodeCursor(event: { at: string; id: string }): string {
  return Buffer.from(JSON.stringify([event.at, event.id]), "utf8").toString("base64url");
}

function decodeCursor(cursor: string): [string, string] | null {
  try {
    const parsed = cursorSchema.safeParse(
      JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Newest first, keyset-paginated on (at, id) so pages stay stable while new events arrive. */
export async function listAuditEvents(
  ctx: StoreContext,
  filter: AuditEventFilter = {},
): Promise<AuditEventPage> {
  const parsed = parseInput(filterSchema, filter);
  let query = ctx.db.selectFrom("audit_events").selectAll();
  if (parsed.actorId !== undefined) query = query.where("actor_id", "=", parsed.actorId);
  if (parsed.entityType !== undefined) query = query.where("entity_type", "=", parsed.entityType);
  if (parsed.action !== undefined) query = query.where("action", "=", parsed.action);
  if (parsed.since !== undefined) query = query.where("at", ">=", parsed.since);
  if (parsed.until !== undefined) query = query.where("at", "<", parsed.until);
  if (parsed.cursor) {
    const cursor = decodeCursor(parsed.cursor);
    if (!cursor) {
      throw new ValidationError({ fieldErrors: { cursor: ["This page link is not valid."] } });
    }
    const [at, id] = cursor;
    query = query.where((eb) =>
      eb.or([eb("at", "<", at), eb.and([eb("at", "=", at), eb("id", "<", id)])]),
    );
  }
  const rows = await query
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .limit(parsed.limit + 1)
    .execute();
  const page = rows.slice(0, parsed.limit);
  const events = page.map(
    (row): AuditEvent => ({
      id: row.id,
      at: row.at,
      actor: { id: row.actor_id, email: row.actor_email },
      action: row.action as AuditAction,
      entityType: row.entity_type as EntityType,
      entityId: row.entity_id,
      detail: parseJson<Record<string, unknown>>(row.detail_json),
    }),
  );
  const last = events[events.length - 1];
  return { events, nextCursor: rows.length > parsed.limit && last ? encodeCursor(last) : null };
}

export interface OverviewCounts {
  datasets: number;
  charts: number;
  dashboards: number;
  publishedDashboards: number;
  draftDashboards: number;
  auditEvents: number;
  /** Users in better-auth's "user" table; null until better-auth's migrations have run. */
  users: number | null;
}

export async function getOverviewCounts(
  ctx: StoreContext,
  dialect: "sqlite" | "postgres",
): Promise<OverviewCounts> {
  const count = async (
    table: "datasets" | "charts" | "dashboards" | "audit_events",
    status?: string,
  ) => {
    let query = ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as("n"));
    if (status !== undefined) query = query.where(sql.ref("status"), "=", status);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const [datasets, charts, dashboards, publishedDashboards, auditEvents, users] = await Promise.all(
    [
      count("datasets"),
      count("charts"),
      count("dashboards"),
      count("dashboards", "published"),
      count("audit_events"),
      countUsers(ctx, dialect),
    ],
  );
  return {
    datasets,
    charts,
    dashboards,
    publishedDashboards,
    draftDashboards: dashboards - publishedDashboards,
    auditEvents,
    users,
  };
}

async function countUsers(
  ctx: StoreContext,
  dialect: "sqlite" | "postgres",
): Promise<number | null> {
  const exists =
    dialect === "sqlite"
      ? await sql<{
          n: number;
        }>`select count(*) as n from sqlite_master where type = 'table' and name = 'user'`.execute(
          ctx.db,
        )
      : await sql<{
          n: string;
        }>`select count(*) as n from information_schema.tables where table_schema = current_schema() and table_name = 'user'`.execute(
          ctx.db,
        );
  if (Number(exists.rows[0]?.n ?? 0) === 0) return null;
  const users = await sql<{
    n: string | number;
  }>`select count(*) as n from ${sql.table("user")}`.execute(ctx.db);
  return Number(users.rows[0]?.n ?? 0);
}
