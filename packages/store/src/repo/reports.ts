import {
  allowedMailDomainsSchema,
  describeSchedule,
  nextScheduledRun,
  type ParsedReportInput,
  type ReportInput,
  type ReportRunStatus,
  type ReportSchedule,
  reportInputSchema,
  reportLimits,
  reportScheduleSchema,
  ValidationError,
} from "@seed/model";
import { sql } from "kysely";
import { z } from "zod";
import { type Actor, authorize, can } from "../access/policy.js";
import { type Executor, newId, parseInput, type StoreContext, writeAudit } from "../context.js";
import type { ReportsTable } from "../db/schema.js";
import { readable, type SeenBy } from "./collections.js";
import {
  allowedDomainsIn,
  allowedDomainsKey,
  deleteRecipients,
  deliveryVerdict,
  ownerRefusal,
  recipientsOf,
  refuseRecipients,
  schedulerActor,
  writeRecipients,
} from "./recipients.js";
import { writeSetting } from "./settings.js";

// Scheduled reports: a published dashboard, read with the report's filters, mailed on a schedule
// in the dashboard's time zone. The store keeps each report, who it goes to (each recipient with
// their own unsubscribe token), when it is due next and a mark per recipient and run, so the
// sender (the web app's scheduler) can retry a run without mailing anyone twice. Recipients are
// the app's users or addresses in the domains an admin allows: the app is no relay.

export interface ReportRecipient {
  address: string;
  /** The recipient followed their unsubscribe link: nothing is sent to them until re-added by them. */
  unsubscribed: boolean;
}

export interface Report {
  id: string;
  name: string;
  ownerId: string;
  ownerEmail: string;
  dashboardId: string;
  /** The dashboard as it is now; null once it is deleted, or when the reader does not see it. */
  dashboard: { slug: string; title: string; published: boolean } | null;
  /** The dashboard's zone the schedule is read in (UTC when it has none). */
  timeZone: string;
  filterQuery: string;
  schedule: ReportSchedule;
  /** "Every Monday at 08:00 (Europe/Paris)". */
  scheduleText: string;
  recipients: ReportRecipient[];
  enabled: boolean;
  nextRunAt: string | null;
  lastDueAt: string | null;
  lastRunAt: string | null;
  lastStatus: ReportRunStatus | null;
  lastError: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** What one run of a report needs: where to read, whom to send to, whom it already reached. */
export type ReportRunPlan = ReportRunTarget & {
  report: Report;
  /** Recipients still subscribed, each with their unsubscribe token. */
  recipients: { address: string; key: string; unsubscribeToken: string }[];
  /** Keys of the recipients an earlier try of this run sent to. */
  alreadySent: Set<string>;
};

/**
 * The published dashboard a run reads, or why the run cannot send at all (the dashboard is gone
 * or unpublished, every recipient unsubscribed, the owner's account gone or blocked).
 */
export type ReportRunTarget =
  | { refusal: null; dashboardSlug: string }
  | { refusal: string; dashboardSlug: null };

export interface ReportRunOutcome {
  sent: string[];
  failed: { address: string; reason: string }[];
  /** Why nothing could be sent, when nothing could. */
  refusal: string | null;
}

interface DashboardFacts {
  id: string;
  slug: string;
  title: string;
  status: string;
  time_zone: string | null;
}

const reportIdSchema = z.string().min(1).max(100);

function zoneOf(dashboard: DashboardFacts | undefined): string {
  return dashboard?.time_zone ?? "UTC";
}

async function dashboardFacts(db: Executor, id: string): Promise<DashboardFacts | undefined> {
  return db
    .selectFrom("dashboards")
    .select(["id", "slug", "title", "status", "time_zone"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** Reports as the reader is shown them: a dashboard the reader does not see is named as none. */
async function reportsFrom(
  db: Executor,
  rows: ReportsTable[],
  reader: SeenBy = {},
): Promise<Report[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const recipients = await recipientsOf(db, "report", ids);
  const found = await db
    .selectFrom("dashboards")
    .select(["id", "slug", "title", "status", "time_zone"])
    .where("id", "in", [...new Set(rows.map((row) => row.dashboard_id))])
    .execute();
  const seen = await Promise.all(
    found.map((dashboard) => readable(db, reader, "dashboard", dashboard.id)),
  );
  const dashboards = found.filter((_dashboard, index) => seen[index]);
  return rows.map((row) => {
    const dashboard = dashboards.find((one) => one.id === row.dashboard_id);
    const schedule = reportScheduleSchema.parse(JSON.parse(row.schedule_json));
    const timeZone = zoneOf(dashboard);
    return {
      id: row.id,
      name: row.name,
      ownerId: row.owner_id,
      ownerEmail: row.owner_email,
      dashboardId: row.dashboard_id,
      dashboard: dashboard
        ? {
            slug: dashboard.slug,
            title: dashboard.title,
            published: dashboard.status === "published",
          }
        : null,
      timeZone,
      filterQuery: row.filter_query,
      schedule,
      scheduleText: describeSchedule(schedule, timeZone),
      recipients: (recipients.get(row.id) ?? []).map((recipient) => ({
        address: recipient.address,
        unsubscribed: recipient.unsubscribed_at !== null,
      })),
      enabled: row.enabled === 1,
      nextRunAt: row.next_run_at,
      lastDueAt: row.last_due_at,
      lastRunAt: row.last_run_at,
      lastStatus: row.last_status as ReportRunStatus | null,
      lastError: row.last_error,
      version: row.version,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  });
}

/** A report the actor may see and change: their own, or any for an admin; else "not found". */
async function ownReportRow(db: Executor, id: string, actor: Actor): Promise<ReportsTable> {
  const row = reportIdSchema.safeParse(id).success
    ? await db.selectFrom("reports").selectAll().where("id", "=", id).executeTakeFirst()
    : undefined;
  if (!row || (row.owner_id !== actor.id && !can(actor, "settings.manage"))) {
    throw new ValidationError({ fieldErrors: { reportId: ["No such report."] } });
  }
  return row;
}

async function checkedInput(
  db: Executor,
  input: ReportInput,
  owner: Actor,
  writer: Actor,
): Promise<{ parsed: ParsedReportInput; dashboard: DashboardFacts }> {
  const parsed = parseInput(reportInputSchema, input);
  const dashboard = await dashboardFacts(db, parsed.dashboardId);
  // Only a dashboard the one saving reads (a published one is everyone's): another collection's
  // is none, and names nothing.
  if (!dashboard || !(await readable(db, { seenBy: writer }, "dashboard", dashboard.id))) {
    throw new ValidationError({ fieldErrors: { dashboardId: ["Choose a dashboard."] } });
  }
  await refuseRecipients(
    db,
    parsed.recipients.map((recipient) => recipient.key),
    input.recipients,
    owner,
  );
  return { parsed, dashboard };
}

function nextRun(parsed: ParsedReportInput, dashboard: DashboardFacts, nowMs: number) {
  return parsed.enabled
    ? new Date(nextScheduledRun(parsed.schedule, zoneOf(dashboard), nowMs)).toISOString()
    : null;
}

/** Makes a report owned by the actor; every recipient is checked, none kept on any refusal. */
export async function createReport(
  ctx: StoreContext,
  input: ReportInput,
  actor: Actor,
): Promise<Report> {
  const owner = authorize(actor, "content.write") as Actor;
  return ctx.db.transaction().execute(async (trx) => {
    const { parsed, dashboard } = await checkedInput(trx, input, owner, owner);
    const owned = await trx
      .selectFrom("reports")
      .select(sql<number | string>`count(*)`.as("n"))
      .where("owner_id", "=", owner.id)
      .executeTakeFirst();
    if (Number(owned?.n ?? 0) >= reportLimits.perOwner) {
      throw new ValidationError({
        fieldErrors: {},
        formError: `An account owns at most ${reportLimits.perOwner} reports; delete one first.`,
      });
    }
    const now = ctx.now();
    const stamp = now.toISOString();
    const row: ReportsTable = {
      id: newId(),
      name: parsed.name,
      owner_id: owner.id,
      owner_email: owner.email,
      dashboard_id: dashboard.id,
      filter_query: parsed.filterQuery,
      schedule_json: JSON.stringify(parsed.schedule),
      enabled: parsed.enabled ? 1 : 0,
      next_run_at: nextRun(parsed, dashboard, now.getTime()),
      last_due_at: null,
      last_run_at: null,
      last_status: null,
      last_error: null,
      version: 1,
      created_at: stamp,
      updated_at: stamp,
    };
    await trx.insertInto("reports").values(row).execute();
    await writeRecipients(trx, "report", row.id, parsed.recipients);
    await writeAudit(trx, ctx, owner, "report.create", "report", row.id, {
      name: row.name,
      dashboardId: row.dashboard_id,
      schedule: parsed.schedule,
      recipients: parsed.recipients.length,
    });
    return (await reportsFrom(trx, [row], { seenBy: owner }))[0] as Report;
  });
}

/** Changes a report read at `expectedVersion`; the next run is worked out again from now. */
export async function updateReport(
  ctx: StoreContext,
  reportId: string,
  input: ReportInput & { expectedVersion?: number },
  actor: Actor,
): Promise<Report> {
  const checked = authorize(actor, "content.write") as Actor;
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await ownReportRow(trx, reportId, checked);
    if (input.expectedVersion !== undefined && input.expectedVersion !== existing.version) {
      throw new ValidationError({
        fieldErrors: {},
        formError: `The report was changed by someone else (you edited version ${input.expectedVersion}, it is now version ${existing.version}). Reload and apply your change again.`,
      });
    }
    // Recipients are checked against the owner's account, whoever edits.
    const owner: Actor = { id: existing.owner_id, email: existing.owner_email, role: "editor" };
    const { parsed, dashboard } = await checkedInput(trx, input, owner, checked);
    const now = ctx.now();
    const values = {
      name: parsed.name,
      dashboard_id: dashboard.id,
      filter_query: parsed.filterQuery,
      schedule_json: JSON.stringify(parsed.schedule),
      enabled: parsed.enabled ? 1 : 0,
      next_run_at: nextRun(parsed, dashboard, now.getTime()),
      version: existing.version + 1,
      updated_at: now.toISOString(),
    };
    await trx.updateTable("reports").set(values).where("id", "=", existing.id).execute();
    await writeRecipients(trx, "report", existing.id, parsed.recipients);
    await writeAudit(trx, ctx, checked, "report.update", "report", existing.id, {
      name: parsed.name,
      dashboardId: dashboard.id,
      schedule: parsed.schedule,
      enabled: parsed.enabled,
      recipients: parsed.recipients.length,
    });
    return (await reportsFrom(trx, [{ ...existing, ...values }], { seenBy: checked }))[0] as Report;
  });
}

export async function deleteReport(
  ctx: StoreContext,
  reportId: string,
  actor: Actor,
): Promise<void> {
  const checked = authorize(actor, "content.write") as Actor;
  await ctx.db.transaction().execute(async (trx) => {
    const existing = await ownReportRow(trx, reportId, checked);
    await trx.deleteFrom("report_sends").where("report_id", "=", existing.id).execute();
    await deleteRecipients(trx, "report", existing.id);
    await trx.deleteFrom("reports").where("id", "=", existing.id).execute();
    await writeAudit(trx, ctx, checked, "report.delete", "report", existing.id, {
      name: existing.name,
    });
  });
}

/**
 * Asks for a run of the report now, outside its schedule (to try it out): checked like an edit
 * and audited; the caller enqueues the returned run like a scheduled one. Paused reports too.
 */
export async function requestReportRun(
  ctx: StoreContext,
  reportId: string,
  actor: Actor,
): Promise<{ reportId: string; dueAt: string }> {
  const checked = authorize(actor, "content.write") as Actor;
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await ownReportRow(trx, reportId, checked);
    const dueAt = ctx.now().toISOString();
    await writeAudit(trx, ctx, checked, "report.run-now", "report", existing.id, {
      name: existing.name,
      dueAt,
    });
    return { reportId: existing.id, dueAt };
  });
}

/** The actor's own reports, or every report for an admin; newest first. */
export async function listReports(ctx: StoreContext, actor: Actor): Promise<Report[]> {
  const checked = authorize(actor, "content.write") as Actor;
  let query = ctx.db.selectFrom("reports").selectAll();
  if (!can(checked, "settings.manage")) query = query.where("owner_id", "=", checked.id);
  const rows = await query.orderBy("created_at", "desc").orderBy("id").limit(500).execute();
  return reportsFrom(ctx.db, rows, { seenBy: checked });
}

export async function getReport(
  ctx: StoreContext,
  reportId: string,
  actor: Actor,
): Promise<Report | null> {
  const checked = authorize(actor, "content.write") as Actor;
  try {
    const row = await ownReportRow(ctx.db, reportId, checked);
    return (await reportsFrom(ctx.db, [row], { seenBy: checked }))[0] ?? null;
  } catch (error) {
    if (error instanceof ValidationError) return null;
    throw error;
  }
}

/** The domains outside the app's users that reports may go to (anyone who makes reports may read them). */
export async function getAllowedMailDomains(ctx: StoreContext, actor: Actor): Promise<string[]> {
  authorize(actor, "content.write");
  return allowedDomainsIn(ctx.db);
}

/** Sets the allowed domains (an admin's setting), each in its normal form; audited. */
export async function setAllowedMailDomains(
  ctx: StoreContext,
  actor: Actor,
  input: { domains: string[] },
): Promise<string[]> {
  const checked = authorize(actor, "settings.manage");
  const { domains } = parseInput(z.object({ domains: allowedMailDomainsSchema }), input);
  await ctx.db.transaction().execute(async (trx) => {
    const before = await allowedDomainsIn(trx);
    await writeSetting(trx, ctx, checked, allowedDomainsKey, JSON.stringify(domains), {
      added: domains.filter((domain) => !before.includes(domain)),
      removed: before.filter((domain) => !domains.includes(domain)),
    });
  });
  return domains;
}

// The scheduler's side: no actor, since it acts for each report's owner, checked per run.

/** Reports due by now (at most `limit`, the longest overdue first), with the instant each is due. */
export async function dueReports(
  ctx: StoreContext,
  limit = 100,
): Promise<{ reportId: string; dueAt: string }[]> {
  const rows = await ctx.db
    .selectFrom("reports")
    .select(["id", "next_run_at"])
    .where("enabled", "=", 1)
    .where("next_run_at", "<=", ctx.now().toISOString())
    .orderBy("next_run_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ reportId: row.id, dueAt: row.next_run_at as string }));
}

/**
 * Moves a report past the run due at `dueAt`, to its first scheduled instant after now (a run
 * missed while no instance was up is not sent once per missed day). Only the caller that finds
 * the report still due at `dueAt` moves it: true for that one caller.
 */
export async function advanceReport(
  ctx: StoreContext,
  reportId: string,
  dueAt: string,
): Promise<boolean> {
  const row = await ctx.db
    .selectFrom("reports")
    .selectAll()
    .where("id", "=", reportId)
    .executeTakeFirst();
  if (!row || row.next_run_at !== dueAt) return false;
  const dashboard = await dashboardFacts(ctx.db, row.dashboard_id);
  const schedule = reportScheduleSchema.parse(JSON.parse(row.schedule_json));
  const after = Math.max(ctx.now().getTime(), Date.parse(dueAt));
  const next = new Date(nextScheduledRun(schedule, zoneOf(dashboard), after)).toISOString();
  const result = await ctx.db
    .updateTable("reports")
    .set({ next_run_at: next })
    .where("id", "=", reportId)
    .where("next_run_at", "=", dueAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What a run of the report due at `dueAt` sends, and to whom it already has; null if deleted. */
export async function reportRunPlan(
  ctx: StoreContext,
  reportId: string,
  dueAt: string,
): Promise<ReportRunPlan | null> {
  const row = await ctx.db
    .selectFrom("reports")
    .selectAll()
    .where("id", "=", reportId)
    .executeTakeFirst();
  if (!row) return null;
  const report = (await reportsFrom(ctx.db, [row]))[0] as Report;
  const recipients = await ctx.db
    .selectFrom("report_recipients")
    .select(["address", "address_key", "unsubscribe_token"])
    .where("report_id", "=", reportId)
    .where("unsubscribed_at", "is", null)
    .orderBy("address_key")
    .execute();
  const sent = await ctx.db
    .selectFrom("report_sends")
    .select("address_key")
    .where("report_id", "=", reportId)
    .where("due_at", "=", dueAt)
    .execute();
  const refusal = !report.dashboard
    ? "The dashboard was deleted."
    : !report.dashboard.published
      ? `The dashboard ${report.dashboard.slug} is not published.`
      : recipients.length === 0
        ? "Every recipient has unsubscribed."
        : await ownerRefusal(ctx.db, row.owner_id, "report");
  const target: ReportRunTarget =
    refusal === null && report.dashboard
      ? { refusal: null, dashboardSlug: report.dashboard.slug }
      : { refusal: refusal as string, dashboardSlug: null };
  return {
    report,
    ...target,
    recipients: recipients.map((recipient) => ({
      address: recipient.address,
      key: recipient.address_key,
      unsubscribeToken: recipient.unsubscribe_token,
    })),
    alreadySent: new Set(sent.map((one) => one.address_key)),
  };
}

/** Marks one recipient of one run as sent, before the next is tried; a second mark is no change. */
export async function markReportSent(
  ctx: StoreContext,
  reportId: string,
  dueAt: string,
  addressKey: string,
  messageId: string | null,
): Promise<void> {
  await ctx.db
    .insertInto("report_sends")
    .values({
      report_id: reportId,
      due_at: dueAt,
      address_key: addressKey,
      sent_at: ctx.now().toISOString(),
      message_id: messageId,
    })
    .onConflict((conflict) => conflict.columns(["report_id", "due_at", "address_key"]).doNothing())
    .execute();
}

/**
 * Records how a try of a run ended, for the admin page and the audit log. A run whose every
 * recipient was sent (now or by an earlier try) is "sent"; some, "partial"; none, "failed".
 */
export async function finishReportRun(
  ctx: StoreContext,
  reportId: string,
  dueAt: string,
  outcome: ReportRunOutcome,
): Promise<ReportRunStatus | null> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("reports")
      .select(["id", "name"])
      .where("id", "=", reportId)
      .executeTakeFirst();
    if (!row) return null;
    const sentBefore = await trx
      .selectFrom("report_sends")
      .select(sql<number | string>`count(*)`.as("n"))
      .where("report_id", "=", reportId)
      .where("due_at", "=", dueAt)
      .executeTakeFirst();
    const { status, error } = deliveryVerdict({
      anySent: Number(sentBefore?.n ?? 0) > 0,
      failed: outcome.failed.map((one) => ({ to: one.address, reason: one.reason })),
      refusal: outcome.refusal,
    });
    const stamp = ctx.now().toISOString();
    await trx
      .updateTable("reports")
      .set({
        last_due_at: dueAt,
        last_run_at: stamp,
        last_status: status,
        last_error: error,
      })
      .where("id", "=", reportId)
      .execute();
    await writeAudit(
      trx,
      ctx,
      schedulerActor,
      status === "sent" ? "report.send" : "report.fail",
      "report",
      reportId,
      {
        name: row.name,
        dueAt,
        status,
        sent: outcome.sent.length,
        failed: outcome.failed,
        ...(outcome.refusal ? { refusal: outcome.refusal } : {}),
      },
    );
    return status;
  });
}

export const reportOperations = {
  createReport,
  updateReport,
  deleteReport,
  listReports,
  getReport,
  requestReportRun,
  getAllowedMailDomains,
  setAllowedMailDomains,
  /** For the scheduler: reports due now, each with its due instant. */
  dueReports,
  advanceReport,
  reportRunPlan,
  markReportSent,
  finishReportRun,
};
