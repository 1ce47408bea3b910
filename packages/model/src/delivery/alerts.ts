import { z } from "zod";

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
} as const;

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
