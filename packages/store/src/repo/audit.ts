import {
  type AuditEntityType,
  auditEntityTypes,
  jsonInputLimits,
  readBoundedJson,
  ValidationError,
} from "@seed/model";
import { sql } from "kysely";
import { z } from "zod";
import { type Actor, auditEventPermissionFor, authorize, checkActor } from "../access/policy.js";
import {
  type AuditAction,
  parseInput,
  parseJson,
  type RecordedActor,
  type StoreContext,
  type WrittenAuditEvent,
  writeAudit,
} from "../context.js";
import { dialectOf } from "../db/dialect.js";

export type AuditEvent = WrittenAuditEvent;

export interface AuditEventFilter {
  actorId?: string;
  entityType?: AuditEntityType;
  /** An AuditAction such as "dashboard.publish"; any text is accepted and simply matches nothing. */
  action?: string;
  /** Inclusive lower bound. */
  since?: Date | string;
  /** Exclusive upper bound. */
  until?: Date | string;
  /** 1-200, default 50. */
  limit?: number;
  /** The nextCursor of the previous page: events older than it. */
  cursor?: string | null;
  /** The previousCursor of a page: events newer than it (only one of cursor and after). */
  after?: string | null;
}

export interface AuditEventPage {
  events: AuditEvent[];
  /** Pass back as cursor for the next (older) page; null on the last page. */
  nextCursor: string | null;
  /** Pass back as after for the page before (newer); null on the first page. */
  previousCursor: string | null;
  /** Events matching the filter, all pages together. */
  total: number;
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

// Query strings send "" for an unused filter; treat it as no filter rather than an error.
const blankAsUnset = <Schema extends z.ZodType>(schema: Schema) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema);

const filterSchema = z.object({
  actorId: blankAsUnset(z.string().optional()),
  entityType: blankAsUnset(
    z
      .enum(auditEntityTypes, {
        error: `Entity type must be one of ${auditEntityTypes.join(", ")}.`,
      })
      .optional(),
  ),
  action: blankAsUnset(z.string().optional()),
  since: blankAsUnset(instant),
  until: blankAsUnset(instant),
  limit: z
    .number({ error: "The limit must be a number." })
    .int("The limit must be a whole number.")
    .min(1, "The limit must be at least 1.")
    .max(200, "The limit can be at most 200.")
    .default(50),
  cursor: blankAsUnset(z.string().nullable().optional()),
  after: blankAsUnset(z.string().nullable().optional()),
});

const cursorSchema = z.tuple([z.string(), z.string()]);

function encodeCursor(event: { at: string; id: string }): string {
  return Buffer.from(JSON.stringify([event.at, event.id]), "utf8").toString("base64url");
}

function decodeCursor(cursor: string): [string, string] | null {
  const read = readBoundedJson(
    Buffer.from(cursor, "base64url").toString("utf8"),
    jsonInputLimits.auditCursor,
  );
  const parsed = read.ok ? cursorSchema.safeParse(read.value) : null;
  return parsed?.success ? parsed.data : null;
}

/** Newest first, keyset-paginated on (at, id) so pages stay stable while new events arrive. */
export async function listAuditEvents(
  ctx: StoreContext,
  filter: AuditEventFilter = {},
): Promise<AuditEventPage> {
  const parsed = parseInput(filterSchema, filter);
  if (parsed.cursor && parsed.after) {
    throw new ValidationError({ fieldErrors: { after: ["Give either cursor or after."] } });
  }
  let filtered = ctx.db.selectFrom("audit_events");
  if (parsed.actorId !== undefined) filtered = filtered.where("actor_id", "=", parsed.actorId);
  if (parsed.entityType !== undefined) {
    filtered = filtered.where("entity_type", "=", parsed.entityType);
  }
  if (parsed.action !== undefined) filtered = filtered.where("action", "=", parsed.action);
  if (parsed.since !== undefined) filtered = filtered.where("at", ">=", parsed.since);
  if (parsed.until !== undefined) filtered = filtered.where("at", "<", parsed.until);
  const cursorOf = (text: string, field: "cursor" | "after") => {
    const cursor = decodeCursor(text);
    if (!cursor) {
      throw new ValidationError({ fieldErrors: { [field]: ["This page link is not valid."] } });
    }
    return cursor;
  };
  let query = filtered.selectAll();
  const newer = Boolean(parsed.after);
  if (parsed.cursor) {
    const [at, id] = cursorOf(parsed.cursor, "cursor");
    query = query.where((eb) =>
      eb.or([eb("at", "<", at), eb.and([eb("at", "=", at), eb("id", "<", id)])]),
    );
  } else if (parsed.after) {
    const [at, id] = cursorOf(parsed.after, "after");
    query = query.where((eb) =>
      eb.or([eb("at", ">", at), eb.and([eb("at", "=", at), eb("id", ">", id)])]),
    );
  }
  const direction = newer ? "asc" : "desc";
  const [rows, counted] = await Promise.all([
    query
      .orderBy("at", direction)
      .orderBy("id", direction)
      .limit(parsed.limit + 1)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirst(),
  ]);
  const more = rows.length > parsed.limit;
  const page = rows.slice(0, parsed.limit);
  if (newer) page.reverse();
  const events = page.map(
    (row): AuditEvent => ({
      id: row.id,
      at: row.at,
      actor: { id: row.actor_id, email: row.actor_email },
      action: row.action as AuditAction,
      entityType: row.entity_type as AuditEntityType,
      entityId: row.entity_id,
      detail: parseJson<Record<string, unknown>>(row.detail_json),
    }),
  );
  const first = events[0];
  const last = events[events.length - 1];
  // Going newer, older pages exist (the caller came from one); going older, newer ones do.
  const hasOlder = newer ? events.length > 0 : more;
  const hasNewer = newer ? more : Boolean(parsed.cursor) && events.length > 0;
  return {
    events,
    nextCursor: hasOlder && last ? encodeCursor(last) : null,
    previousCursor: hasNewer && first ? encodeCursor(first) : null,
    total: Number(counted?.n ?? 0),
  };
}

export interface AuditEventInput {
  actor: Actor;
  /** "<entity type>.<verb>", e.g. "user.set-role". */
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string;
  detail?: Record<string, unknown>;
}

const auditEventInputSchema = z
  .object({
    action: z
      .string({ error: "Give the action." })
      .regex(
        /^[a-z]+\.[a-z]+(?:-[a-z]+)*$/,
        'Write the action as "<entity>.<verb>", e.g. user.set-role.',
      ),
    entityType: z.enum(auditEntityTypes, {
      error: `Entity type must be one of ${auditEntityTypes.join(", ")}.`,
    }),
    entityId: z.string({ error: "Give the entity id." }).min(1, "Give the entity id."),
    detail: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((event, ctx) => {
    if (!event.action.startsWith(`${event.entityType}.`)) {
      ctx.addIssue({
        code: "custom",
        path: ["action"],
        message: `A ${event.entityType} event's action starts with "${event.entityType}.".`,
      });
    }
  });

/**
 * Records an event the store did not write itself (e.g. a user's role changed in better-auth),
 * in the same log, order and shape as the store's own events.
 */
export async function recordAuditEvent(
  ctx: StoreContext,
  input: AuditEventInput,
): Promise<AuditEvent> {
  const checked = checkActor(input.actor);
  const event = parseInput(auditEventInputSchema, {
    action: input.action,
    entityType: input.entityType,
    entityId: input.entityId,
    detail: input.detail,
  });
  const actor = authorize(checked, auditEventPermissionFor(event, checked.id));
  return ctx.db
    .transaction()
    .execute((trx) =>
      writeAudit(
        trx,
        ctx,
        actor,
        event.action as AuditAction,
        event.entityType,
        event.entityId,
        event.detail,
      ),
    );
}

/** Everyone who appears in the log and every action used, for filter menus. */
export async function listAuditFilterChoices(
  ctx: StoreContext,
): Promise<{ actors: RecordedActor[]; actions: AuditAction[] }> {
  const [actors, actions] = await Promise.all([
    ctx.db
      .selectFrom("audit_events")
      .select(["actor_id", "actor_email"])
      .distinct()
      .orderBy("actor_email")
      .orderBy("actor_id")
      .execute(),
    ctx.db.selectFrom("audit_events").select("action").distinct().orderBy("action").execute(),
  ]);
  return {
    actors: actors.map((row) => ({ id: row.actor_id, email: row.actor_email })),
    actions: actions.map((row) => row.action as AuditAction),
  };
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

export async function getOverviewCounts(ctx: StoreContext): Promise<OverviewCounts> {
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
      countUsers(ctx),
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

async function countUsers(ctx: StoreContext): Promise<number | null> {
  if (!(await dialectOf(ctx.db).tableExists(ctx.db, "user"))) return null;
  const users = await sql<{
    n: string | number;
  }>`select count(*) as n from ${sql.table("user")}`.execute(ctx.db);
  return Number(users.rows[0]?.n ?? 0);
}

/** The newest events, for the admin overview. */
export async function listRecentActivity(ctx: StoreContext, limit = 10): Promise<AuditEvent[]> {
  return (await listAuditEvents(ctx, { limit })).events;
}

export const auditOperations = {
  listAuditEvents,
  listRecentActivity,
  /** Logs an event the store did not make itself, e.g. a better-auth user's role change. */
  recordAuditEvent,
  /** Distinct actors and actions in the log, for filter menus. */
  listAuditFilterChoices,
  getOverviewCounts,
};
