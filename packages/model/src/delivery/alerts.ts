import { z } from "zod";
import { recipientListSchema } from "./recipients.js";
import { webhookFormats, webhookUrlSchema } from "./webhook.js";

// When an alert holds, and what a check does with it: an alert watches one number (a stat tile's
// value, or a chart measure's latest point) or its dataset's freshness, fires once when its
// condition starts to hold and resolves once when it stops, never repeating while nothing
// changes. A snoozed alert still keeps its history; it only stays quiet.

const finite = (what: string) =>
  z
    .number({ error: `Enter ${what} as a number.` })
    .refine(Number.isFinite, `Enter ${what} as a number.`);

export const alertLimits = {
  /** A change alert's threshold, in percent. */
  maxPercent: 1_000_000,
  /** A freshness alert's window: up to 90 days. */
  maxStaleHours: 90 * 24,
  maxSnoozeHours: 30 * 24,
  name: 100,
  recipients: 50,
  webhooks: 5,
  /** Alerts one account owns. */
  perOwner: 100,
} as const;

/** How often an alert is checked besides right after each import or push to its dataset. */
export const alertCheckMinutes = [5, 15, 60, 360, 1440] as const;

/** "every 15 minutes", "every hour", "every day". */
export function describeCheckEvery(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? "every day" : `every ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? "every hour" : `every ${minutes / 60} hours`;
  return `every ${minutes} minutes`;
}

export const alertConditionSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("above"), value: finite("the threshold") }),
    z.object({ kind: z.literal("below"), value: finite("the threshold") }),
    z.object({
      kind: z.literal("change"),
      percent: finite("the change")
        .refine((percent) => percent > 0, "The change is more than 0 %.")
        .refine(
          (percent) => percent <= alertLimits.maxPercent,
          `The change is at most ${alertLimits.maxPercent.toLocaleString("en")} %.`,
        ),
      direction: z.enum(["up", "down", "either"], { error: "Choose up, down or either." }),
    }),
    z.object({
      kind: z.literal("stale"),
      hours: z
        .number({ error: "Enter a number of hours." })
        .int("Enter a whole number of hours.")
        .min(1, "At least 1 hour.")
        .max(alertLimits.maxStaleHours, `At most ${alertLimits.maxStaleHours} hours (90 days).`),
    }),
  ],
  { error: "Choose above, below, a change or no new rows." },
);
export type AlertCondition = z.infer<typeof alertConditionSchema>;

/** What one check saw. */
export interface AlertReading {
  /** The watched number now; null when there is none (no rows, no numbers). */
  value: number | null;
  /** The same number for the period before (a change alert compares with it). */
  previous: number | null;
  /** When the dataset's rows last changed (ms); a freshness alert reads only this. */
  rowsChangedAt: number | null;
}

/**
 * Whether the condition holds for what was seen at `nowMs`; null when it cannot be told (no
 * value, or no previous value to compare with, or a change from zero), which changes nothing.
 */
export function alertHolds(
  condition: AlertCondition,
  reading: AlertReading,
  nowMs: number,
): boolean | null {
  switch (condition.kind) {
    case "above":
      return reading.value === null ? null : reading.value > condition.value;
    case "below":
      return reading.value === null ? null : reading.value < condition.value;
    case "change": {
      const { value, previous } = reading;
      if (value === null || previous === null || previous === 0) return null;
      const change = ((value - previous) / Math.abs(previous)) * 100;
      if (!Number.isFinite(change)) return null;
      if (condition.direction === "up") return change > condition.percent;
      if (condition.direction === "down") return -change > condition.percent;
      return Math.abs(change) > condition.percent;
    }
    case "stale":
      return reading.rowsChangedAt === null
        ? null
        : nowMs - reading.rowsChangedAt > condition.hours * 3_600_000;
  }
}

export type AlertState = "ok" | "firing";

export interface AlertStep {
  state: AlertState;
  /** What the check records in the alert's history: it started or stopped holding. */
  event: "fired" | "resolved" | null;
  /** Whether anyone is told (not while snoozed). */
  notify: boolean;
}

/**
 * One check's effect: a change of state is recorded once, and told unless snoozed; the same state
 * again, or an answer that cannot be told, records and tells nothing.
 */
export function alertStep(
  current: AlertState,
  holds: boolean | null,
  snoozedUntilMs: number | null,
  nowMs: number,
): AlertStep {
  const next: AlertState = holds === null ? current : holds ? "firing" : "ok";
  if (next === current) return { state: current, event: null, notify: false };
  const snoozed = snoozedUntilMs !== null && nowMs < snoozedUntilMs;
  return { state: next, event: next === "firing" ? "fired" : "resolved", notify: !snoozed };
}

/** "above 1,000", "changes by more than 10 % (down)", "no new rows for 24 hours". */
export function describeAlertCondition(condition: AlertCondition): string {
  const number = (value: number) => value.toLocaleString("en", { maximumFractionDigits: 6 });
  switch (condition.kind) {
    case "above":
      return `above ${number(condition.value)}`;
    case "below":
      return `below ${number(condition.value)}`;
    case "change":
      return `changes by more than ${number(condition.percent)} %${
        condition.direction === "either" ? "" : ` (${condition.direction})`
      } against the period before`;
    case "stale":
      return `no new rows for ${condition.hours} hour${condition.hours === 1 ? "" : "s"}`;
  }
}

const targetId = (what: string) =>
  z
    .string({ error: `Choose ${what}.` })
    .trim()
    .min(1, `Choose ${what}.`)
    .max(100);

/** What an alert watches: a stat tile's value, or one series of a chart (its latest point). */
export const alertTargetSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({
      kind: z.literal("stat"),
      dashboardId: targetId("a dashboard"),
      tileId: targetId("a stat tile"),
    }),
    z.object({
      kind: z.literal("chart"),
      chartId: targetId("a chart"),
      /** The result's series key (m0, m1, ... or a raw series column). */
      series: targetId("a measure"),
    }),
  ],
  { error: "Choose a stat tile or a chart's measure." },
);
export type AlertTarget = z.infer<typeof alertTargetSchema>;

export const alertWebhookInputSchema = z.object({
  /** Kept across edits, so the webhook keeps its signing secret (and its address, when none is sent). */
  id: z.string().trim().max(100).optional(),
  /** Left out to keep a kept webhook's address, which is never sent back. */
  url: webhookUrlSchema.optional(),
  format: z.enum(webhookFormats, { error: "Choose JSON, Slack or Teams." }).default("json"),
});

export const alertInputSchema = z
  .object({
    name: z
      .string({ error: "Enter a name." })
      .trim()
      .min(1, "Enter a name.")
      .max(alertLimits.name, `Keep the name under ${alertLimits.name + 1} characters.`),
    target: alertTargetSchema,
    condition: alertConditionSchema,
    recipients: recipientListSchema({ min: 0, max: alertLimits.recipients, what: "An alert" }),
    webhooks: z
      .array(alertWebhookInputSchema, { error: "List the webhooks." })
      .max(alertLimits.webhooks, `An alert calls at most ${alertLimits.webhooks} webhooks.`)
      .default([]),
    checkEveryMinutes: z
      .number({ error: "Choose how often the alert is checked." })
      .refine(
        (minutes) => (alertCheckMinutes as readonly number[]).includes(minutes),
        `Check every ${alertCheckMinutes.slice(0, -1).join(", ")} or ${alertCheckMinutes.at(-1)} minutes.`,
      )
      .default(60),
    enabled: z.boolean({ error: "Say whether the alert is on." }).default(true),
  })
  .superRefine((alert, context) => {
    if (alert.recipients.length === 0 && alert.webhooks.length === 0) {
      context.addIssue({
        code: "custom",
        path: ["recipients"],
        message: "Add a recipient or a webhook: an alert nobody hears is no alert.",
      });
    }
    const urls = new Set<string>();
    for (const [index, webhook] of alert.webhooks.entries()) {
      if (webhook.url === undefined) {
        if (!webhook.id) {
          context.addIssue({
            code: "custom",
            path: ["webhooks", index, "url"],
            message: "Enter the webhook's address.",
          });
        }
        continue;
      }
      if (urls.has(webhook.url)) {
        context.addIssue({
          code: "custom",
          path: ["webhooks", index, "url"],
          message: "This webhook is listed twice.",
        });
      }
      urls.add(webhook.url);
    }
  });
export type AlertInput = z.input<typeof alertInputSchema>;
export type ParsedAlertInput = z.output<typeof alertInputSchema>;

/** What one alert event's delivery came to. */
export const alertDeliveryStatuses = ["pending", "sent", "partial", "failed", "quiet"] as const;
export type AlertDeliveryStatus = (typeof alertDeliveryStatuses)[number];
