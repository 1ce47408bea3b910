"use server";

import { type AlertInput, alertLimits } from "@seed/model";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { recipientLines } from "@/features/reports/recipient-lines";
import { formText } from "@/lib/form-state";
import { webhookSecret } from "@/server/alerts/alert-jobs";
import { loadAuthSecret, resolveDataDir } from "@/server/auth-options.mjs";
import { done, formAction, refuse, staleForm } from "@/server/form-action";

// The alerts pages' writes. The form sends text; the store's schema (@seed/model
// alertInputSchema) checks it, and each refusal comes back under its field. A webhook's signing
// secret is derived, never kept: it is shown once, in the answer to the save that added it.

/** What the save answers: with new webhooks, their secrets (shown once) and the alert's id. */
export type AlertFormState = ContentFormState & { alertId?: string; webhookSecrets?: string };

/** A number as typed: an empty or unreadable field is "not a number", never 0. */
function numberField(formData: FormData, name: string): number {
  const text = formText(formData, name).trim().slice(0, 40);
  return text === "" ? Number.NaN : Number(text);
}

/** "stat:<dashboard id>:<tile id>" or "chart:<chart id>:<measure key>", as the select's options are. */
function readTarget(text: string): AlertInput["target"] {
  const [kind, first = "", ...rest] = text.slice(0, 400).split(":");
  const second = rest.join(":");
  if (kind === "chart") return { kind: "chart", chartId: first, series: second };
  return { kind: "stat", dashboardId: first, tileId: second };
}

function readCondition(formData: FormData): AlertInput["condition"] {
  const kind = formText(formData, "conditionKind");
  if (kind === "change") {
    return {
      kind: "change",
      percent: numberField(formData, "percent"),
      direction: formText(formData, "direction") as "up" | "down" | "either",
    };
  }
  if (kind === "stale") return { kind: "stale", hours: numberField(formData, "hours") };
  return { kind: kind === "below" ? "below" : "above", value: numberField(formData, "value") };
}

/** Kept webhooks by id (their addresses are never sent back), then a new one if one is typed. */
function readWebhooks(formData: FormData): NonNullable<AlertInput["webhooks"]> {
  const kept = formData
    .getAll("keepWebhook")
    .slice(0, alertLimits.webhooks + 1)
    .map((value) => String(value).slice(0, 200))
    .map((id) => ({
      id,
      format: formText(formData, `webhookFormat:${id}`) as "json" | "slack" | "teams",
    }));
  const url = formText(formData, "newWebhookUrl").trim().slice(0, 2_100);
  if (!url) return kept;
  return [...kept, { url, format: formText(formData, "newWebhookFormat") as "json" }];
}

function readAlertForm(formData: FormData): AlertInput {
  return {
    name: formText(formData, "name").slice(0, alertLimits.name + 1),
    target: readTarget(formText(formData, "target")),
    condition: readCondition(formData),
    checkEveryMinutes: numberField(formData, "checkEveryMinutes"),
    recipients: recipientLines(formText(formData, "recipients")),
    webhooks: readWebhooks(formData),
    enabled: formText(formData, "enabled") === "on",
  };
}

/** Creates an alert, or changes the one named by alertId (at the version the form was read at). */
export const saveAlert = formAction<AlertFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const input = readAlertForm(formData);
    const alertId = formText(formData, "alertId").slice(0, 200);
    let saved: Awaited<ReturnType<typeof store.createAlert>>;
    if (alertId) {
      const version = Number(formText(formData, "version"));
      if (!Number.isInteger(version) || version < 1) return refuse(staleForm);
      saved = await store.updateAlert(alertId, { ...input, expectedVersion: version }, actor);
    } else {
      saved = await store.createAlert(input, actor);
    }
    const { alert, newWebhookIds } = saved;
    if (newWebhookIds.length === 0) {
      return done({
        redirectTo: `/admin/alerts/${alert.id}`,
        revalidate: { adminPath: "/admin/alerts" },
      });
    }
    const serverSecret = loadAuthSecret(resolveDataDir());
    const secrets = alert.webhooks
      .filter((webhook) => newWebhookIds.includes(webhook.id))
      .map((webhook) => ({
        shownUrl: webhook.shownUrl,
        format: webhook.format,
        secret: webhookSecret(serverSecret, webhook.id),
      }));
    return done({
      message: `Alert “${alert.name}” saved.`,
      revalidate: { adminPath: "/admin/alerts" },
      extra: { alertId: alert.id, webhookSecrets: JSON.stringify(secrets) },
    });
  },
);

export const snoozeAlert = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const alertId = formText(formData, "alertId").slice(0, 200);
    if (!alertId) return refuse(staleForm);
    const hours = numberField(formData, "hours");
    const alert = await store.snoozeAlert(alertId, { hours }, actor);
    return done({
      message: alert.snoozedUntil
        ? "Snoozed: changes are kept in the history, nobody is told until then."
        : "Snooze ended.",
      revalidate: { adminPath: "/admin/alerts" },
    });
  },
);

export const deleteAlert = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const alertId = formText(formData, "alertId").slice(0, 200);
    if (!alertId) return refuse(staleForm);
    await store.deleteAlert(alertId, actor);
    return done({ redirectTo: "/admin/alerts", revalidate: { adminPath: "/admin/alerts" } });
  },
);
