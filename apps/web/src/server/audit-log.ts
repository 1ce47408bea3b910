import "server-only";
import { auditEntityTypes, can, type Role } from "@seed/model";
import { type Actor, type AuditEvent, tokenActorPrefix } from "@seed/store";
import { z } from "zod";
import { getAuth } from "./auth-instance";
import { getStore } from "./store";

const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Use a date like 2026-01-31." })
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), {
    error: "Use a real calendar date.",
  });

/** The audit page's query string: every field optional, bad values reported per field. */
export const auditFilterSchema = z
  .object({
    actor: z.string().max(200).optional(),
    entityType: z.enum(auditEntityTypes, { error: "Pick one of the listed types." }).optional(),
    action: z
      .string()
      .regex(/^[a-z-]+\.[a-z-]+$/, { error: "Pick one of the listed actions." })
      .optional(),
    from: dateSchema.optional(),
    to: dateSchema.optional(),
    cursor: z.string().max(500).optional(),
    after: z.string().max(500).optional(),
  })
  .refine((filter) => !filter.from || !filter.to || filter.from <= filter.to, {
    path: ["to"],
    error: "The To date must be on or after the From date.",
  });

export type AuditFilter = z.infer<typeof auditFilterSchema>;

function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

/** Who did it, as the reader may see it: everyone sees names; only admins see emails. */
export interface AuditActorView {
  id: string;
  name: string;
  email?: string;
}

export interface AuditEventView extends Omit<AuditEvent, "actor" | "detail"> {
  actor: AuditActorView;
  /** The record's current name and admin page, or null when it no longer exists (or is a user
   * the reader may not see). */
  entity: { name: string; href: string | null } | null;
  /** null where the reader may not see it: a user record's contents, for non-admins. */
  detail: Record<string, unknown> | null;
}

export interface AuditEventViewPage {
  events: AuditEventView[];
  nextCursor: string | null;
  previousCursor: string | null;
  total: number;
}

const entityPaths = { dataset: "datasets", chart: "charts", dashboard: "dashboards" } as const;

/**
 * Current names of the records these events touch, as the reader sees them (deleted ones are
 * absent), and the records that exist but are in collections the reader's groups are not
 * granted: those events show neither a name nor their detail.
 */
async function entityNames(
  events: readonly AuditEvent[],
  reader: Actor,
): Promise<{
  names: Map<string, { name: string; href: string | null }>;
  hidden: Set<string>;
  partial: Set<string>;
}> {
  const role = reader.role;
  const store = await getStore();
  const wanted = new Set(events.map((event) => event.entityType));
  const names = new Map<string, { name: string; href: string | null }>();
  const seen = { seenBy: reader };
  const [datasets, charts, dashboards] = await Promise.all([
    wanted.has("dataset") ? store.listDatasets(seen) : [],
    wanted.has("chart") ? store.listCharts(seen) : [],
    wanted.has("dashboard") ? store.listDashboards(seen) : [],
  ]);
  const hidden = new Set<string>();
  if (role !== "admin") {
    const [allDatasets, allCharts, allDashboards, access] = await Promise.all([
      wanted.has("dataset") ? store.listDatasets() : [],
      wanted.has("chart") ? store.listCharts() : [],
      wanted.has("dashboard") ? store.listDashboards() : [],
      store.collectionAccess(reader),
    ]);
    const seenIds = new Set([...datasets, ...charts, ...dashboards].map((record) => record.id));
    for (const [kind, list] of [
      ["dataset", allDatasets],
      ["chart", allCharts],
      ["dashboard", allDashboards],
    ] as const) {
      for (const record of list) {
        if (!seenIds.has(record.id)) hidden.add(`${kind}:${record.id}`);
      }
    }
    for (const event of events) {
      if (event.entityType === "collection" && !access.byCollection.has(event.entityId)) {
        hidden.add(`collection:${event.entityId}`);
      }
    }
  }
  // A dataset the reader sees only some rows of (a row limit of a group of theirs): its events
  // are named, but their details are of the whole dataset (row counts, imports, other groups'
  // limits), so they show none.
  const partial = new Set<string>();
  if (role !== "admin") {
    const seenDatasets = new Set(datasets.map((dataset) => dataset.id));
    const ids = [
      ...new Set(
        events
          .filter((event) => event.entityType === "dataset" && seenDatasets.has(event.entityId))
          .map((event) => event.entityId),
      ),
    ];
    const places = await Promise.all(
      ids.map((id) => store.placeOf(reader, { entityType: "dataset", id })),
    );
    ids.forEach((id, index) => {
      if (places[index]?.rowLimit != null) partial.add(`dataset:${id}`);
    });
  }
  for (const dataset of datasets) {
    names.set(`dataset:${dataset.id}`, {
      name: dataset.name,
      href: `/admin/${entityPaths.dataset}/${dataset.id}`,
    });
  }
  for (const chart of charts) {
    names.set(`chart:${chart.id}`, {
      name: chart.title,
      href: `/admin/${entityPaths.chart}/${chart.id}`,
    });
  }
  for (const dashboard of dashboards) {
    names.set(`dashboard:${dashboard.id}`, {
      name: dashboard.title,
      href: `/admin/${entityPaths.dashboard}/${dashboard.id}`,
    });
  }
  // Report, alert, group and collection events carry the name at the time (their pages are
  // where they are kept); a group's, who is in it, is for those who manage accounts.
  for (const event of events) {
    if (
      (event.entityType === "report" ||
        event.entityType === "alert" ||
        (event.entityType === "collection" && !hidden.has(`collection:${event.entityId}`)) ||
        (event.entityType === "group" && canSeeUserRecords(role))) &&
      typeof event.detail.name === "string"
    ) {
      names.set(`${event.entityType}:${event.entityId}`, { name: event.detail.name, href: null });
    }
  }
  const userIds = events
    .filter((event) => event.entityType === "user")
    .map((event) => event.entityId);
  if (userIds.length > 0 && canSeeUserRecords(role)) {
    for (const [id, name] of await actorNames(userIds)) {
      if (name !== "Former user") names.set(`user:${id}`, { name, href: "/admin/users" });
    }
  }
  return { names, hidden, partial };
}

// Actors that are not accounts: the CLI and the store's own seeding.
const builtInActorNames: Record<string, string> = {
  cli: "Command line",
  system: "System",
  scheduler: "Scheduler",
};

/** Display names of the accounts behind these actor ids; deleted accounts read "Former user". */
async function actorNames(ids: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const accountIds = [...new Set(ids)].filter(
    (id) => !(id in builtInActorNames) && !id.startsWith(tokenActorPrefix),
  );
  if (accountIds.length > 0) {
    const context = await (await getAuth()).$context;
    const users = await context.adapter.findMany<{ id: string; name: string }>({
      model: "user",
      where: [{ field: "id", operator: "in", value: accountIds }],
    });
    for (const user of users) names.set(user.id, user.name);
  }
  for (const id of ids) {
    const builtIn = id.startsWith(tokenActorPrefix) ? "API token" : builtInActorNames[id];
    names.set(id, builtIn ?? names.get(id) ?? "Former user");
  }
  return names;
}

const personalEntityTypes = new Set<string>(["user", "report", "alert", "group"]);

/** Emails and user records are who the accounts are: for those who manage them. */
export function canSeeUserRecords(role: Role): boolean {
  return can(role, "users.manage");
}

/** Newest first, one page (50 by default, at most 200), shaped for the reader's role. */
export async function findAuditEvents(
  filter: AuditFilter,
  reader: Actor,
  limit = 50,
): Promise<AuditEventViewPage> {
  const role = reader.role;
  const store = await getStore();
  const page = await store.listAuditEvents({
    actorId: filter.actor,
    entityType: filter.entityType,
    action: filter.action,
    since: filter.from ? `${filter.from}T00:00:00.000Z` : undefined,
    until: filter.to ? dayAfter(filter.to) : undefined,
    cursor: filter.cursor ?? null,
    after: filter.after ?? null,
    limit,
  });
  const [names, { names: entities, hidden, partial }] = await Promise.all([
    actorNames(page.events.map((event) => event.actor.id)),
    entityNames(page.events, reader),
  ]);
  const full = canSeeUserRecords(role);
  return {
    events: page.events.map((event) => ({
      ...event,
      entity: entities.get(`${event.entityType}:${event.entityId}`) ?? null,
      actor: {
        id: event.actor.id,
        name: names.get(event.actor.id) ?? "Former user",
        ...(full ? { email: event.actor.email } : {}),
      },
      // User events and reports' (recipients' addresses) are for those who manage accounts;
      // a record's in a collection the reader does not see, for nobody but its groups; a
      // dataset's the reader sees only some rows of, for nobody limited there.
      detail:
        !hidden.has(`${event.entityType}:${event.entityId}`) &&
        !partial.has(`${event.entityType}:${event.entityId}`) &&
        (full || !personalEntityTypes.has(event.entityType))
          ? event.detail
          : null,
    })),
    nextCursor: page.nextCursor,
    previousCursor: page.previousCursor,
    total: page.total,
  };
}

/** Who and what appears in the log, for the filter menus, shaped for the reader's role. */
export async function auditFilterChoices(role: Role): Promise<{
  actors: AuditActorView[];
  actions: string[];
}> {
  const store = await getStore();
  const choices = await store.listAuditFilterChoices();
  const names = await actorNames(choices.actors.map((actor) => actor.id));
  const full = canSeeUserRecords(role);
  return {
    actors: choices.actors.map((actor) => ({
      id: actor.id,
      name: names.get(actor.id) ?? "Former user",
      ...(full ? { email: actor.email } : {}),
    })),
    actions: choices.actions,
  };
}
