import {
  type AlertCondition,
  type AlertDeliveryStatus,
  type AlertInput,
  type AlertReading,
  type AlertState,
  type AlertTarget,
  alertConditionSchema,
  alertHolds,
  alertInputSchema,
  alertLimits,
  alertStep,
  alertTargetSchema,
  describeAlertCondition,
  describeCheckEvery,
  type ParsedAlertInput,
  ValidationError,
  type WebhookFormat,
} from "@seed/model";
import { sql } from "kysely";
import { z } from "zod";
import { type Actor, authorize, can } from "../access/policy.js";
import { type Executor, newId, parseInput, type StoreContext, writeAudit } from "../context.js";
import type { AlertEventsTable, AlertsTable } from "../db/schema.js";
import { measureSeries } from "../engine/result.js";
import { tileError } from "../engine/tile-error.js";
import { getChartIn } from "./charts.js";
import {
  readable,
  recordVisible,
  type SeenBy,
  seenCollections,
  seenWhere,
  visibilityOf,
} from "./collections.js";
import { listTilesIn } from "./dashboards/records.js";
import {
  deleteRecipients,
  deliveryVerdict,
  ownerReader,
  ownerRefusal,
  recipientsOf,
  refuseRecipients,
  schedulerActor,
  writeRecipients,
} from "./recipients.js";
import { resolveDatasetTarget } from "./sources/target.js";

// Alerts: one number (a stat tile's value, or a chart measure's latest point) or its dataset's
// freshness, watched against a condition. A check reads the number as the page would, and the
// state kept here makes an alert fire once when its condition starts to hold and resolve once
// when it stops, whichever instance checks (the change of state is a conditional update). Each
// firing and resolving is kept with the value seen; delivering it (mail, webhooks) is the web
// app's, with a mark per event and destination so a retry reaches nobody twice.

export interface AlertRecipient {
  address: string;
  unsubscribed: boolean;
}

export interface AlertWebhook {
  id: string;
  /** The address with its path left out: a Slack or Teams address is a secret itself. */
  shownUrl: string;
  format: WebhookFormat;
}

export interface Alert {
  id: string;
  name: string;
  ownerId: string;
  ownerEmail: string;
  target: AlertTarget;
  /** "Revenue on Sales", "Revenue by month: revenue"; what the target was, if it is gone. */
  targetText: string;
  condition: AlertCondition;
  /** "above 1,000". */
  conditionText: string;
  checkEveryMinutes: number;
  /** "every hour". */
  checkEveryText: string;
  recipients: AlertRecipient[];
  webhooks: AlertWebhook[];
  enabled: boolean;
  state: AlertState;
  snoozedUntil: string | null;
  nextCheckAt: string | null;
  lastCheckedAt: string | null;
  lastValue: number | null;
  /** Why the last check could not tell (the tile is gone, the query failed). */
  lastError: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface AlertEvent {
  id: string;
  alertId: string;
  kind: "fired" | "resolved";
  value: number | null;
  previous: number | null;
  at: string;
  /** False while snoozed: kept, nobody told. */
  notify: boolean;
  deliveryStatus: AlertDeliveryStatus;
  deliveryError: string | null;
}

/** What alerts can watch, for the form: stat tiles by dashboard, and charts' measures. */
export interface AlertTargetChoices {
  statTiles: { dashboardId: string; dashboardTitle: string; tileId: string; label: string }[];
  chartMeasures: { chartId: string; chartTitle: string; series: string; label: string }[];
}

/** What one check did: the event it recorded (if the state changed) and what it saw. */
export interface AlertCheck {
  alertId: string;
  event: AlertEvent | null;
  value: number | null;
  error: string | null;
}

/** What a delivery of one event needs, or why it cannot go out. */
export interface AlertDeliveryPlan {
  alert: Alert;
  event: AlertEvent;
  /** Why nothing can be sent (the owner's account gone or blocked, nobody left to tell). */
  refusal: string | null;
  recipients: { address: string; key: string; unsubscribeToken: string }[];
  /** The webhooks with their whole addresses, for the sender only. */
  webhooks: { id: string; url: string; format: WebhookFormat }[];
  /** Destinations ("mail:<key>", "webhook:<id>") an earlier try already reached. */
  alreadySent: Set<string>;
}

export interface AlertDeliveryOutcome {
  sent: string[];
  failed: { destination: string; reason: string }[];
  refusal: string | null;
}

const alertIdSchema = z.string().min(1).max(100);
const eventsShown = 50;

function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname === "/" && !parsed.search ? parsed.origin : `${parsed.origin}/…`;
  } catch {
    return "…";
  }
}

/**
 * Each alert's target in words, from what its dashboards and charts are now, as the reader sees
 * them: one moved since into a collection the reader does not see is named no more than a
 * deleted one (its title, tiles and measures stay unsaid).
 */
async function targetTexts(
  db: Executor,
  targets: readonly AlertTarget[],
  reader: SeenBy,
): Promise<string[]> {
  const sees = reader.seenBy === undefined ? null : await visibilityOf(db, reader.seenBy);
  const visible = async (entityType: "dashboard" | "chart", id: string) =>
    sees === null || (await recordVisible(db, sees, entityType, id));
  const dashboards = new Map<string, { title: string; tiles: Map<string, string> } | null>();
  const charts = new Map<string, { title: string; series: Map<string, string> } | null>();
  for (const target of targets) {
    if (target.kind === "stat" && !dashboards.has(target.dashboardId)) {
      const found = await db
        .selectFrom("dashboards")
        .select("title")
        .where("id", "=", target.dashboardId)
        .executeTakeFirst();
      const row = found && (await visible("dashboard", target.dashboardId)) ? found : undefined;
      const tiles = row ? await listTilesIn(db, target.dashboardId) : [];
      dashboards.set(
        target.dashboardId,
        row
          ? {
              title: row.title,
              tiles: new Map(
                tiles.flatMap((tile) => (tile.kind === "stat" ? [[tile.id, tile.label]] : [])),
              ),
            }
          : null,
      );
    }
    if (target.kind === "chart" && !charts.has(target.chartId)) {
      const found = await getChartIn(db, target.chartId);
      const chart = found && (await visible("chart", target.chartId)) ? found : null;
      charts.set(
        target.chartId,
        chart
          ? {
              title: chart.title,
              series: new Map(measureSeries(chart.query).map((one) => [one.key, one.label])),
            }
          : null,
      );
    }
  }
  return targets.map((target) => {
    if (target.kind === "stat") {
      const dashboard = dashboards.get(target.dashboardId);
      const label = dashboard?.tiles.get(target.tileId);
      if (!dashboard) return "a stat tile of a dashboard deleted, or not yours to see";
      return label ? `${label} on ${dashboard.title}` : `a removed tile of ${dashboard.title}`;
    }
    const chart = charts.get(target.chartId);
    if (!chart) return "a measure of a chart deleted, or not yours to see";
    return `${chart.title}: ${chart.series.get(target.series) ?? target.series}`;
  });
}

/** Alerts as their reader sees them (see targetTexts); the scheduler's reader is each owner. */
async function alertsFrom(db: Executor, rows: AlertsTable[], reader: SeenBy): Promise<Alert[]> {
  if (rows.length === 0) return [];
  const targets = rows.map((row) => alertTargetSchema.parse(JSON.parse(row.target_json)));
  const texts = await targetTexts(db, targets, reader);
  const ids = rows.map((row) => row.id);
  const recipients = await recipientsOf(db, "alert", ids);
  const webhooks = await db
    .selectFrom("alert_webhooks")
    .selectAll()
    .where("alert_id", "in", ids)
    .orderBy("position")
    .execute();
  return rows.map((row, index) => {
    const condition = alertConditionSchema.parse(JSON.parse(row.condition_json));
    return {
      id: row.id,
      name: row.name,
      ownerId: row.owner_id,
      ownerEmail: row.owner_email,
      target: targets[index] as AlertTarget,
      targetText: texts[index] ?? "",
      condition,
      conditionText: describeAlertCondition(condition),
      checkEveryMinutes: row.check_every_minutes,
      checkEveryText: describeCheckEvery(row.check_every_minutes),
      recipients: (recipients.get(row.id) ?? []).map((recipient) => ({
        address: recipient.address,
        unsubscribed: recipient.unsubscribed_at !== null,
      })),
      webhooks: webhooks
        .filter((webhook) => webhook.alert_id === row.id)
        .map((webhook) => ({
          id: webhook.id,
          shownUrl: shownUrl(webhook.url),
          format: webhook.format as WebhookFormat,
        })),
      enabled: row.enabled === 1,
      state: row.state as AlertState,
      snoozedUntil: row.snoozed_until,
      nextCheckAt: row.next_check_at,
      lastCheckedAt: row.last_checked_at,
      lastValue: row.last_value === null ? null : Number(row.last_value),
      lastError: row.last_error,
      version: row.version,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  });
}

function toEvent(row: AlertEventsTable): AlertEvent {
  return {
    id: row.id,
    alertId: row.alert_id,
    kind: row.kind as AlertEvent["kind"],
    value: row.value === null ? null : Number(row.value),
    previous: row.previous === null ? null : Number(row.previous),
    at: row.at,
    notify: row.notify === 1,
    deliveryStatus: row.delivery_status as AlertDeliveryStatus,
    deliveryError: row.delivery_error,
  };
}

/** An alert the actor may see and change: their own, or any for an admin; else "not found". */
async function ownAlertRow(db: Executor, id: string, actor: Actor): Promise<AlertsTable> {
  const row = alertIdSchema.safeParse(id).success
    ? await db.selectFrom("alerts").selectAll().where("id", "=", id).executeTakeFirst()
    : undefined;
  if (!row || (row.owner_id !== actor.id && !can(actor, "settings.manage"))) {
    throw new ValidationError({ fieldErrors: { alertId: ["No such alert."] } });
  }
  return row;
}

/** Why a target cannot be read, at the form field that chose it. */
class TargetError extends ValidationError {
  constructor(field: string, message: string) {
    super({ fieldErrors: { [field]: [message] } });
  }
}

function lastTwo(values: readonly unknown[]): [number | null, number | null] {
  const numbers = values.filter(
    (value): value is number => typeof value === "number" && Number.isFinite(value),
  );
  return [numbers.at(-1) ?? null, numbers.at(-2) ?? null];
}

/** When the dataset's rows last came in; null for a live or question dataset (not known here). */
async function rowsAddedAt(db: Executor, datasetId: string): Promise<number | null> {
  const row = await db
    .selectFrom("datasets")
    .select(["rows_added_at", "created_at", "source_id", "question_sql"])
    .where("id", "=", datasetId)
    .executeTakeFirst();
  if (!row || row.source_id !== null || row.question_sql !== null) return null;
  return Date.parse(row.rows_added_at ?? row.created_at);
}

/**
 * Reads what the alert watches, as the page shows it (a stat tile in its dashboard's time zone,
 * without a viewer's filters; a chart's measure at its latest point and the point before).
 */
async function readTarget(
  ctx: StoreContext,
  target: AlertTarget,
  reader: SeenBy,
): Promise<{ reading: AlertReading; datasetId: string }> {
  const now = ctx.now();
  if (target.kind === "stat") {
    const dashboard = await ctx.db
      .selectFrom("dashboards")
      .select(["id", "time_zone"])
      .where("id", "=", target.dashboardId)
      .executeTakeFirst();
    if (!dashboard || !(await readable(ctx.db, reader, "dashboard", dashboard.id))) {
      throw new TargetError("target.dashboardId", "The dashboard no longer exists.");
    }
    const tile = (await listTilesIn(ctx.db, dashboard.id)).find((one) => one.id === target.tileId);
    if (tile?.kind !== "stat" || !(await readable(ctx.db, reader, "dataset", tile.datasetId))) {
      throw new TargetError("target.tileId", "The dashboard no longer has this stat tile.");
    }
    const found = await resolveDatasetTarget(ctx, ctx.db, tile.datasetId, reader);
    if (!found) throw new TargetError("target.tileId", "The tile's dataset no longer exists.");
    const stat = await found.stat(tile, {
      timeZone: dashboard.time_zone ?? "UTC",
      now,
      observe: ctx.observeQuery,
    });
    return {
      datasetId: tile.datasetId,
      reading: {
        value: stat.value,
        previous: stat.previous,
        rowsChangedAt: await rowsAddedAt(ctx.db, tile.datasetId),
      },
    };
  }
  const chart = await getChartIn(ctx.db, target.chartId);
  if (
    !chart ||
    !(await readable(ctx.db, reader, "chart", chart.id)) ||
    !(await readable(ctx.db, reader, "dataset", chart.datasetId))
  ) {
    throw new TargetError("target.chartId", "The chart no longer exists.");
  }
  const found = await resolveDatasetTarget(ctx, ctx.db, chart.datasetId, reader);
  if (!found) throw new TargetError("target.chartId", "The chart's dataset no longer exists.");
  const result = await found.query(chart.query, {
    timeZone: "UTC",
    now,
    observe: ctx.observeQuery,
  });
  if (!result.series.some((series) => series.key === target.series)) {
    const shown = result.series.map((series) => series.label).join(", ");
    throw new TargetError(
      "target.series",
      `The chart has no such measure now${shown ? ` (it shows ${shown})` : ""}.`,
    );
  }
  const [value, previous] = lastTwo(result.rows.map((row) => row[target.series]));
  return {
    datasetId: chart.datasetId,
    reading: { value, previous, rowsChangedAt: await rowsAddedAt(ctx.db, chart.datasetId) },
  };
}

/** A check's failure as one sentence for the alert's page. */
function checkError(error: unknown): string {
  try {
    return tileError(error);
  } catch {
    return `The check failed: ${error instanceof Error ? error.message : String(error)}`.slice(
      0,
      1_000,
    );
  }
}

interface CheckedAlertInput {
  parsed: ParsedAlertInput;
  datasetId: string;
  webhooks: { id: string; url: string; format: WebhookFormat }[];
}

/** The input read, its target found, each recipient and webhook checked; nothing written. */
async function checkedInput(
  ctx: StoreContext,
  input: AlertInput,
  owner: Actor,
  existingId: string | null,
  writer: Actor,
): Promise<CheckedAlertInput> {
  const parsed = parseInput(alertInputSchema, input);
  // The target as the one saving reads it: another collection's chart is none, and names nothing.
  const { datasetId } = await readTarget(ctx, parsed.target, { seenBy: writer }).catch(
    (error: unknown) => {
      if (error instanceof TargetError) throw error;
      throw new ValidationError({ fieldErrors: { target: [checkError(error)] } });
    },
  );
  await refuseRecipients(
    ctx.db,
    parsed.recipients.map((recipient) => recipient.key),
    input.recipients,
    owner,
  );
  const stored = existingId
    ? await ctx.db
        .selectFrom("alert_webhooks")
        .selectAll()
        .where("alert_id", "=", existingId)
        .execute()
    : [];
  const fieldErrors: Record<string, string[]> = {};
  const webhooks = parsed.webhooks.flatMap((webhook, index) => {
    const before = webhook.id ? stored.find((one) => one.id === webhook.id) : undefined;
    if (webhook.id && !before) {
      fieldErrors[`webhooks.${index}.url`] = ["This webhook was removed; add it again."];
      return [];
    }
    const url = webhook.url ?? before?.url;
    if (!url) {
      fieldErrors[`webhooks.${index}.url`] = ["Enter the webhook's address."];
      return [];
    }
    // A new webhook, or a new address, gets a new id and so a new signing secret.
    const id = before && before.url === url ? before.id : newId();
    return [{ id, url, format: webhook.format }];
  });
  if (Object.keys(fieldErrors).length > 0) throw new ValidationError({ fieldErrors });
  return { parsed, datasetId, webhooks };
}

async function writeWebhooks(
  trx: Executor,
  alertId: string,
  webhooks: CheckedAlertInput["webhooks"],
): Promise<void> {
  await trx.deleteFrom("alert_webhooks").where("alert_id", "=", alertId).execute();
  for (const [position, webhook] of webhooks.entries()) {
    await trx
      .insertInto("alert_webhooks")
      .values({ ...webhook, alert_id: alertId, position })
      .execute();
  }
}

function firstCheck(parsed: ParsedAlertInput, nowMs: number): string | null {
  return parsed.enabled ? new Date(nowMs + parsed.checkEveryMinutes * 60_000).toISOString() : null;
}

/** What the store answers a save with: the alert, and the ids of webhooks new to it (their secrets are shown once). */
export interface SavedAlert {
  alert: Alert;
  newWebhookIds: string[];
}

/** Makes an alert owned by the actor; its target is read once, so a broken one is refused. */
export async function createAlert(
  ctx: StoreContext,
  input: AlertInput,
  actor: Actor,
): Promise<SavedAlert> {
  const owner = authorize(actor, "content.write") as Actor;
  const checked = await checkedInput(ctx, input, owner, null, owner);
  return ctx.db.transaction().execute(async (trx) => {
    const owned = await trx
      .selectFrom("alerts")
      .select(sql<number | string>`count(*)`.as("n"))
      .where("owner_id", "=", owner.id)
      .executeTakeFirst();
    if (Number(owned?.n ?? 0) >= alertLimits.perOwner) {
      throw new ValidationError({
        fieldErrors: {},
        formError: `An account owns at most ${alertLimits.perOwner} alerts; delete one first.`,
      });
    }
    const now = ctx.now();
    const stamp = now.toISOString();
    const { parsed } = checked;
    const row: AlertsTable = {
      id: newId(),
      name: parsed.name,
      owner_id: owner.id,
      owner_email: owner.email,
      target_json: JSON.stringify(parsed.target),
      dataset_id: checked.datasetId,
      condition_json: JSON.stringify(parsed.condition),
      check_every_minutes: parsed.checkEveryMinutes,
      enabled: parsed.enabled ? 1 : 0,
      state: "ok",
      snoozed_until: null,
      next_check_at: firstCheck(parsed, now.getTime()),
      last_checked_at: null,
      last_value: null,
      last_error: null,
      version: 1,
      created_at: stamp,
      updated_at: stamp,
    };
    await trx.insertInto("alerts").values(row).execute();
    await writeRecipients(trx, "alert", row.id, parsed.recipients);
    await writeWebhooks(trx, row.id, checked.webhooks);
    await writeAudit(trx, ctx, owner, "alert.create", "alert", row.id, {
      name: row.name,
      target: parsed.target,
      condition: parsed.condition,
      recipients: parsed.recipients.length,
      webhooks: checked.webhooks.length,
    });
    return {
      alert: (await alertsFrom(trx, [row], { seenBy: owner }))[0] as Alert,
      newWebhookIds: checked.webhooks.map((webhook) => webhook.id),
    };
  });
}

/**
 * Changes an alert read at `expectedVersion`. A new target or condition starts from "ok" again
 * (its history is kept); the rest keeps the state it is in.
 */
export async function updateAlert(
  ctx: StoreContext,
  alertId: string,
  input: AlertInput & { expectedVersion?: number },
  actor: Actor,
): Promise<SavedAlert> {
  const checkedActor = authorize(actor, "content.write") as Actor;
  const existing = await ownAlertRow(ctx.db, alertId, checkedActor);
  // Recipients are checked against the owner's account, whoever edits.
  const owner: Actor = { id: existing.owner_id, email: existing.owner_email, role: "editor" };
  const checked = await checkedInput(ctx, input, owner, existing.id, checkedActor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await ownAlertRow(trx, alertId, checkedActor);
    if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
      throw new ValidationError({
        fieldErrors: {},
        formError: `The alert was changed by someone else (you edited version ${input.expectedVersion}, it is now version ${current.version}). Reload and apply your change again.`,
      });
    }
    const { parsed } = checked;
    const now = ctx.now();
    const targetJson = JSON.stringify(parsed.target);
    const conditionJson = JSON.stringify(parsed.condition);
    const rewatch = targetJson !== current.target_json || conditionJson !== current.condition_json;
    const values = {
      name: parsed.name,
      target_json: targetJson,
      dataset_id: checked.datasetId,
      condition_json: conditionJson,
      check_every_minutes: parsed.checkEveryMinutes,
      enabled: parsed.enabled ? 1 : 0,
      next_check_at: firstCheck(parsed, now.getTime()),
      ...(rewatch ? { state: "ok", last_value: null, last_error: null } : {}),
      version: current.version + 1,
      updated_at: now.toISOString(),
    };
    await trx.updateTable("alerts").set(values).where("id", "=", current.id).execute();
    await writeRecipients(trx, "alert", current.id, parsed.recipients);
    const before = new Set(
      (
        await trx
          .selectFrom("alert_webhooks")
          .select("id")
          .where("alert_id", "=", current.id)
          .execute()
      ).map((one) => one.id),
    );
    await writeWebhooks(trx, current.id, checked.webhooks);
    await writeAudit(trx, ctx, checkedActor, "alert.update", "alert", current.id, {
      name: parsed.name,
      target: parsed.target,
      condition: parsed.condition,
      enabled: parsed.enabled,
      recipients: parsed.recipients.length,
      webhooks: checked.webhooks.length,
    });
    return {
      alert: (
        await alertsFrom(trx, [{ ...current, ...values }], { seenBy: checkedActor })
      )[0] as Alert,
      newWebhookIds: checked.webhooks.map((one) => one.id).filter((id) => !before.has(id)),
    };
  });
}

export async function deleteAlert(ctx: StoreContext, alertId: string, actor: Actor): Promise<void> {
  const checked = authorize(actor, "content.write") as Actor;
  await ctx.db.transaction().execute(async (trx) => {
    const existing = await ownAlertRow(trx, alertId, checked);
    const events = trx.selectFrom("alert_events").select("id").where("alert_id", "=", existing.id);
    await trx.deleteFrom("alert_deliveries").where("event_id", "in", events).execute();
    await trx.deleteFrom("alert_events").where("alert_id", "=", existing.id).execute();
    await trx.deleteFrom("alert_webhooks").where("alert_id", "=", existing.id).execute();
    await deleteRecipients(trx, "alert", existing.id);
    await trx.deleteFrom("alerts").where("id", "=", existing.id).execute();
    await writeAudit(trx, ctx, checked, "alert.delete", "alert", existing.id, {
      name: existing.name,
    });
  });
}

const snoozeSchema = z.object({
  hours: z
    .number({ error: "Enter a number of hours." })
    .int("Enter a whole number of hours.")
    .min(0, "Enter 0 to end the snooze, or more.")
    .max(
      alertLimits.maxSnoozeHours,
      `Snooze for at most ${alertLimits.maxSnoozeHours} hours (30 days).`,
    ),
});

/** Keeps the alert quiet for `hours` from now (0 ends a snooze): checked and recorded, not told. */
export async function snoozeAlert(
  ctx: StoreContext,
  alertId: string,
  input: { hours: number },
  actor: Actor,
): Promise<Alert> {
  const checked = authorize(actor, "content.write") as Actor;
  const { hours } = parseInput(snoozeSchema, input);
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await ownAlertRow(trx, alertId, checked);
    const until =
      hours === 0 ? null : new Date(ctx.now().getTime() + hours * 3_600_000).toISOString();
    await trx
      .updateTable("alerts")
      .set({ snoozed_until: until })
      .where("id", "=", existing.id)
      .execute();
    await writeAudit(trx, ctx, checked, "alert.snooze", "alert", existing.id, {
      name: existing.name,
      until,
    });
    return (
      await alertsFrom(trx, [{ ...existing, snoozed_until: until }], { seenBy: checked })
    )[0] as Alert;
  });
}

/** The actor's own alerts, or every alert for an admin; newest first. */
export async function listAlerts(ctx: StoreContext, actor: Actor): Promise<Alert[]> {
  const checked = authorize(actor, "content.write") as Actor;
  let query = ctx.db.selectFrom("alerts").selectAll();
  if (!can(checked, "settings.manage")) query = query.where("owner_id", "=", checked.id);
  const rows = await query.orderBy("created_at", "desc").orderBy("id").limit(500).execute();
  return alertsFrom(ctx.db, rows, { seenBy: checked });
}

/** An alert with its latest history (newest first), or null when the actor may not see it. */
export async function getAlert(
  ctx: StoreContext,
  alertId: string,
  actor: Actor,
): Promise<{ alert: Alert; events: AlertEvent[] } | null> {
  const checked = authorize(actor, "content.write") as Actor;
  let row: AlertsTable;
  try {
    row = await ownAlertRow(ctx.db, alertId, checked);
  } catch (error) {
    if (error instanceof ValidationError) return null;
    throw error;
  }
  const events = await ctx.db
    .selectFrom("alert_events")
    .selectAll()
    .where("alert_id", "=", row.id)
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .limit(eventsShown)
    .execute();
  return {
    alert: (await alertsFrom(ctx.db, [row], { seenBy: checked }))[0] as Alert,
    events: events.map(toEvent),
  };
}

/** Stat tiles and chart measures an alert can watch (anyone who makes alerts sees them all). */
export async function alertTargetChoices(
  ctx: StoreContext,
  actor: Actor,
): Promise<AlertTargetChoices> {
  const checked = authorize(actor, "content.write") as Actor;
  // Only what the account sees: dashboards, charts and their datasets in its collections.
  const seen = await seenCollections(ctx.db, { seenBy: checked });
  const sees = await visibilityOf(ctx.db, checked);
  const tiles = await ctx.db
    .selectFrom("dashboard_tiles")
    .innerJoin("dashboards", "dashboards.id", "dashboard_tiles.dashboard_id")
    .where(seenWhere("dashboards.collection_id", seen))
    .select([
      "dashboards.id as dashboardId",
      "dashboards.title as dashboardTitle",
      "dashboard_tiles.id as tileId",
      "dashboard_tiles.kind as kind",
      "dashboard_tiles.position as position",
    ])
    .where("dashboard_tiles.kind", "=", "stat")
    .orderBy("dashboards.title")
    .orderBy("dashboard_tiles.position")
    .limit(2_000)
    .execute();
  const statTiles: AlertTargetChoices["statTiles"] = [];
  for (const dashboardId of [...new Set(tiles.map((tile) => tile.dashboardId))]) {
    for (const tile of await listTilesIn(ctx.db, dashboardId)) {
      if (tile.kind !== "stat") continue;
      if (!(await recordVisible(ctx.db, sees, "dataset", tile.datasetId))) continue;
      const title = tiles.find((one) => one.dashboardId === dashboardId)?.dashboardTitle ?? "";
      statTiles.push({ dashboardId, dashboardTitle: title, tileId: tile.id, label: tile.label });
    }
  }
  const chartIds = await ctx.db
    .selectFrom("charts")
    .select("id")
    .where(seenWhere("collection_id", seen))
    .orderBy("title")
    .limit(2_000)
    .execute();
  const chartMeasures: AlertTargetChoices["chartMeasures"] = [];
  for (const { id } of chartIds) {
    const chart = await getChartIn(ctx.db, id);
    if (!chart || chart.type === "pie") continue;
    if (!(await recordVisible(ctx.db, sees, "dataset", chart.datasetId))) continue;
    for (const series of measureSeries(chart.query)) {
      chartMeasures.push({
        chartId: chart.id,
        chartTitle: chart.title,
        series: series.key,
        label: series.label,
      });
    }
  }
  return { statTiles, chartMeasures };
}

// The checker's side: no actor, since it acts for each alert's owner, checked per check.

/** Alerts whose scheduled check is due by now (at most `limit`), with the instant each is due. */
export async function dueAlerts(
  ctx: StoreContext,
  limit = 100,
): Promise<{ alertId: string; dueAt: string }[]> {
  const rows = await ctx.db
    .selectFrom("alerts")
    .select(["id", "next_check_at"])
    .where("enabled", "=", 1)
    .where("next_check_at", "<=", ctx.now().toISOString())
    .orderBy("next_check_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ alertId: row.id, dueAt: row.next_check_at as string }));
}

/** Moves an alert's next check past `dueAt` (one interval on, or from now if that is past); true for the one caller that did. */
export async function advanceAlert(
  ctx: StoreContext,
  alertId: string,
  dueAt: string,
): Promise<boolean> {
  const row = await ctx.db
    .selectFrom("alerts")
    .select(["check_every_minutes", "next_check_at"])
    .where("id", "=", alertId)
    .executeTakeFirst();
  if (!row || row.next_check_at !== dueAt) return false;
  const every = row.check_every_minutes * 60_000;
  const nowMs = ctx.now().getTime();
  const following = Date.parse(dueAt) + every;
  const next = new Date(following > nowMs ? following : nowMs + every).toISOString();
  const result = await ctx.db
    .updateTable("alerts")
    .set({ next_check_at: next })
    .where("id", "=", alertId)
    .where("next_check_at", "=", dueAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The alerts on in the dataset whose rows just changed: each is checked right away. */
export async function alertsOnDataset(ctx: StoreContext, datasetId: string): Promise<string[]> {
  const rows = await ctx.db
    .selectFrom("alerts")
    .select("id")
    .where("dataset_id", "=", datasetId)
    .where("enabled", "=", 1)
    .orderBy("id")
    .limit(1_000)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Checks one alert now: reads its number, and when its condition starts or stops to hold,
 * records the event once (a conditional change of state: of any number of instances checking
 * at once, one records it). A value that cannot be read is kept as the alert's error and changes
 * nothing. Off alerts, and alerts whose owner is gone or blocked, are not checked.
 */
export async function checkAlert(ctx: StoreContext, alertId: string): Promise<AlertCheck | null> {
  const row = await ctx.db
    .selectFrom("alerts")
    .selectAll()
    .where("id", "=", alertId)
    .executeTakeFirst();
  if (row?.enabled !== 1) return null;
  const stamp = ctx.now().toISOString();
  const failed = async (error: string): Promise<AlertCheck> => {
    await ctx.db
      .updateTable("alerts")
      .set({ last_checked_at: stamp, last_error: error.slice(0, 1_000) })
      .where("id", "=", alertId)
      .execute();
    return { alertId, event: null, value: null, error };
  };
  const refusal = await ownerRefusal(ctx.db, row.owner_id, "alert");
  if (refusal) return failed(refusal);
  let reading: AlertReading;
  let datasetId: string;
  try {
    // Read as its owner reads it: an owner whose group sees only some rows is told of those.
    ({ reading, datasetId } = await readTarget(
      ctx,
      alertTargetSchema.parse(JSON.parse(row.target_json)),
      await ownerReader(ctx.db, row.owner_id),
    ));
  } catch (error) {
    return failed(checkError(error));
  }
  const condition = alertConditionSchema.parse(JSON.parse(row.condition_json));
  const nowMs = ctx.now().getTime();
  const holds = alertHolds(condition, reading, nowMs);
  const snoozedUntil = row.snoozed_until === null ? null : Date.parse(row.snoozed_until);
  const step = alertStep(row.state as AlertState, holds, snoozedUntil, nowMs);
  const value = condition.kind === "stale" ? null : reading.value;
  return ctx.db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable("alerts")
      .set({
        state: step.state,
        dataset_id: datasetId,
        last_checked_at: stamp,
        last_value: value,
        last_error:
          holds === null && condition.kind !== "stale" && reading.value === null
            ? "The watched number has no value now."
            : null,
      })
      .where("id", "=", alertId)
      .where("state", "=", row.state)
      .executeTakeFirst();
    if (!step.event || Number(changed.numUpdatedRows) !== 1) {
      return { alertId, event: null, value, error: null };
    }
    const event: AlertEvent = {
      id: newId(),
      alertId,
      kind: step.event,
      value,
      previous: condition.kind === "change" ? reading.previous : null,
      at: stamp,
      notify: step.notify,
      deliveryStatus: step.notify ? "pending" : "quiet",
      deliveryError: null,
    };
    await trx
      .insertInto("alert_events")
      .values({
        id: event.id,
        alert_id: alertId,
        kind: event.kind,
        value: event.value,
        previous: event.previous,
        at: stamp,
        notify: event.notify ? 1 : 0,
        delivery_status: event.deliveryStatus,
        delivery_error: null,
      })
      .execute();
    await writeAudit(
      trx,
      ctx,
      schedulerActor,
      event.kind === "fired" ? "alert.fire" : "alert.resolve",
      "alert",
      alertId,
      { name: row.name, value, previous: event.previous, notify: event.notify },
    );
    return { alertId, event, value, error: null };
  });
}

/** What delivering an event needs: the alert, whom to tell, whom a try already told. */
export async function alertDeliveryPlan(
  ctx: StoreContext,
  eventId: string,
): Promise<AlertDeliveryPlan | null> {
  const eventRow = await ctx.db
    .selectFrom("alert_events")
    .selectAll()
    .where("id", "=", eventId)
    .executeTakeFirst();
  if (!eventRow) return null;
  const row = await ctx.db
    .selectFrom("alerts")
    .selectAll()
    .where("id", "=", eventRow.alert_id)
    .executeTakeFirst();
  if (!row) return null;
  // Told as its owner sees the target: recipients learn no more of it than the owner may.
  const alert = (
    await alertsFrom(ctx.db, [row], await ownerReader(ctx.db, row.owner_id))
  )[0] as Alert;
  const recipients = ((await recipientsOf(ctx.db, "alert", [row.id])).get(row.id) ?? []).filter(
    (recipient) => recipient.unsubscribed_at === null,
  );
  const webhooks = await ctx.db
    .selectFrom("alert_webhooks")
    .select(["id", "url", "format"])
    .where("alert_id", "=", row.id)
    .orderBy("position")
    .execute();
  const sent = await ctx.db
    .selectFrom("alert_deliveries")
    .select("destination")
    .where("event_id", "=", eventId)
    .execute();
  const refusal =
    recipients.length === 0 && webhooks.length === 0
      ? "Every recipient has unsubscribed and no webhook is set."
      : await ownerRefusal(ctx.db, row.owner_id, "alert");
  return {
    alert,
    event: toEvent(eventRow),
    refusal,
    recipients: recipients.map((recipient) => ({
      address: recipient.address,
      key: recipient.address_key,
      unsubscribeToken: recipient.unsubscribe_token,
    })),
    webhooks: webhooks.map((webhook) => ({ ...webhook, format: webhook.format as WebhookFormat })),
    alreadySent: new Set(sent.map((one) => one.destination)),
  };
}

/** Marks one destination of one event as reached, before the next is tried; again is no change. */
export async function markAlertDelivered(
  ctx: StoreContext,
  eventId: string,
  destination: string,
): Promise<void> {
  await ctx.db
    .insertInto("alert_deliveries")
    .values({ event_id: eventId, destination, sent_at: ctx.now().toISOString() })
    .onConflict((conflict) => conflict.columns(["event_id", "destination"]).doNothing())
    .execute();
}

/** Records how a try of an event's delivery ended: sent (every destination), partial or failed. */
export async function finishAlertDelivery(
  ctx: StoreContext,
  eventId: string,
  outcome: AlertDeliveryOutcome,
): Promise<AlertDeliveryStatus | null> {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await trx
      .selectFrom("alert_events")
      .innerJoin("alerts", "alerts.id", "alert_events.alert_id")
      .select(["alert_events.id", "alert_events.alert_id", "alert_events.kind", "alerts.name"])
      .where("alert_events.id", "=", eventId)
      .executeTakeFirst();
    if (!event) return null;
    const reached = await trx
      .selectFrom("alert_deliveries")
      .select(sql<number | string>`count(*)`.as("n"))
      .where("event_id", "=", eventId)
      .executeTakeFirst();
    const { status, error } = deliveryVerdict({
      anySent: Number(reached?.n ?? 0) > 0,
      failed: outcome.failed.map((one) => ({ to: one.destination, reason: one.reason })),
      refusal: outcome.refusal,
    });
    await trx
      .updateTable("alert_events")
      .set({
        delivery_status: status,
        delivery_error: error,
      })
      .where("id", "=", eventId)
      .execute();
    await writeAudit(
      trx,
      ctx,
      schedulerActor,
      status === "sent" ? "alert.send" : "alert.fail",
      "alert",
      event.alert_id,
      {
        name: event.name,
        event: event.kind,
        status,
        sent: outcome.sent.length,
        failed: outcome.failed,
        ...(outcome.refusal ? { refusal: outcome.refusal } : {}),
      },
    );
    return status;
  });
}

export const alertOperations = {
  createAlert,
  updateAlert,
  deleteAlert,
  snoozeAlert,
  listAlerts,
  getAlert,
  alertTargetChoices,
  /** For the checker: alerts due now, each with its due instant. */
  dueAlerts,
  advanceAlert,
  alertsOnDataset,
  checkAlert,
  alertDeliveryPlan,
  markAlertDelivered,
  finishAlertDelivery,
};
