import type { AlertDeliveryStatus } from "@seed/model";
import { minuteText } from "@/lib/minute-text";

/** A value an alert saw, as its pages show it. */
export function alertNumber(value: number | null): string {
  return value === null ? "no value" : value.toLocaleString("en", { maximumFractionDigits: 6 });
}

/** "Firing", "OK", "Off", with a snooze's end when there is one. */
export function alertStateText(
  alert: { enabled: boolean; state: "ok" | "firing"; snoozedUntil: string | null },
  nowMs: number,
): string {
  const state = !alert.enabled ? "Off" : alert.state === "firing" ? "Firing" : "OK";
  return alert.snoozedUntil !== null && Date.parse(alert.snoozedUntil) > nowMs
    ? `${state}, snoozed until ${minuteText(alert.snoozedUntil, "—")}`
    : state;
}

export const deliveryWords: Record<AlertDeliveryStatus, string> = {
  pending: "Being sent",
  sent: "Sent",
  partial: "Partly sent",
  failed: "Failed",
  quiet: "Not told (snoozed)",
};
