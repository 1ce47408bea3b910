"use client";

import {
  type AlertCondition,
  alertCheckMinutes,
  alertLimits,
  describeCheckEvery,
  type WebhookFormat,
  webhookFormats,
} from "@seed/model";
import Link from "next/link";
import { useActionState, useState } from "react";
import {
  type AlertFormState,
  deleteAlert,
  saveAlert,
  snoozeAlert,
} from "@/app/admin/alerts/actions";
import { ConfirmDialogButton } from "@/components/admin/confirm-dialog";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { FormMessages, SelectField, TextAreaField } from "@/components/admin/form-controls";
import { TokenSecret } from "@/components/admin/token-secret";
import { useContentForm } from "@/components/admin/use-content-form";
import { FormField } from "@/components/form-field";
import { recipientErrors } from "@/features/reports/recipient-lines";

export interface AlertFormValues {
  id: string;
  version: number;
  name: string;
  /** The target select's value: "stat:<dashboard>:<tile>" or "chart:<chart>:<measure>". */
  target: string;
  condition: AlertCondition;
  checkEveryMinutes: number;
  recipients: string[];
  webhooks: { id: string; shownUrl: string; format: WebhookFormat }[];
  enabled: boolean;
}

export interface AlertTargetOption {
  value: string;
  label: string;
}

export interface AlertTargetGroups {
  statTiles: AlertTargetOption[];
  chartMeasures: AlertTargetOption[];
}

const conditionLabels = {
  above: "Goes above",
  below: "Goes below",
  change: "Changes by more than a percentage",
  stale: "Gets no new rows for a time",
} as const;
type ConditionKind = keyof typeof conditionLabels;

const formatLabels: Record<WebhookFormat, string> = {
  json: "JSON, signed",
  slack: "Slack",
  teams: "Microsoft Teams",
};

/** The store's messages for `prefix` and anything under it ("condition", "condition.value"). */
function messagesUnder(
  errors: Record<string, string[] | undefined>,
  prefix: string,
): string[] | undefined {
  const found = Object.entries(errors)
    .filter(([key]) => key === prefix || key.startsWith(`${prefix}.`))
    .flatMap(([, messages]) => messages ?? []);
  return found.length > 0 ? found : undefined;
}

function NewSecrets({ json }: { json: string }) {
  let secrets: { shownUrl: string; format: WebhookFormat; secret: string }[] = [];
  try {
    secrets = JSON.parse(json);
  } catch {
    secrets = [];
  }
  return (
    <div className="stack">
      {secrets.map((one) => (
        <TokenSecret
          key={one.secret}
          secret={one.secret}
          name={`the webhook at ${one.shownUrl}`}
          usage={
            one.format === "json"
              ? "Each call carries a Seed-Signature header: t=<unix seconds>,v1=<hex HMAC-SHA256 of t, a dot and the body> under this secret. Check it, for example:"
              : "Slack and Teams do not check signatures; keep it in case you switch the format to JSON, for example:"
          }
          example={`expected = hmac_sha256("${one.secret}", t + "." + body)`}
        />
      ))}
    </div>
  );
}

/** New or edit: what the alert watches, when it fires, how often it is checked, and whom it tells. */
export function AlertForm({
  alert,
  targets,
  allowedDomains,
}: {
  alert?: AlertFormValues;
  targets: AlertTargetGroups;
  allowedDomains: readonly string[];
}) {
  const { state: contentState, pending, submit } = useContentForm(saveAlert);
  const state = contentState as AlertFormState;
  const condition = alert?.condition;
  const [kind, setKind] = useState<ConditionKind>(condition?.kind ?? "above");
  const [typed, setTyped] = useState(alert?.recipients.join("\n") ?? "");
  const errors = state.fieldErrors ?? {};
  const kept = alert?.webhooks ?? [];
  // The new webhook is sent after the kept ones, so its messages carry the next index.
  const newWebhookErrors = messagesUnder(errors, `webhooks.${kept.length}`);
  const firstTarget = targets.statTiles[0]?.value ?? targets.chartMeasures[0]?.value ?? "";
  return (
    <>
      {state.webhookSecrets ? (
        <section className="stack" aria-label="Webhook secrets">
          <p role="status">{state.message} Copy each new webhook&apos;s secret now.</p>
          <NewSecrets json={state.webhookSecrets} />
          {state.alertId ? (
            <p>
              <Link href={`/admin/alerts/${state.alertId}`}>Open the alert</Link>
            </p>
          ) : null}
        </section>
      ) : null}
      {/* Made: the secrets and a link stand in for the form, so it is not made twice. */}
      <form
        hidden={!alert && state.alertId !== undefined}
        onSubmit={(event) => {
          event.preventDefault();
          submit(new FormData(event.currentTarget));
        }}
        className="form"
        noValidate
        aria-label={alert ? `Edit alert ${alert.name}` : "New alert"}
      >
        {alert ? (
          <>
            <input type="hidden" name="alertId" value={alert.id} />
            <input type="hidden" name="version" value={alert.version} />
          </>
        ) : null}
        <FormMessages state={state} />
        <FormField
          name="name"
          label="Name"
          id="alert-name"
          required
          maxLength={alertLimits.name}
          defaultValue={alert?.name}
          errors={errors.name}
        />
        <SelectField
          id="alert-target"
          name="target"
          label="Watches"
          defaultValue={alert?.target ?? firstTarget}
          hint="A stat tile's value as its dashboard shows it, or a chart measure's latest point."
          errors={messagesUnder(errors, "target")}
        >
          {targets.statTiles.length > 0 ? (
            <optgroup label="Stat tiles">
              {targets.statTiles.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </optgroup>
          ) : null}
          {targets.chartMeasures.length > 0 ? (
            <optgroup label="Chart measures">
              {targets.chartMeasures.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </optgroup>
          ) : null}
        </SelectField>
        <SelectField
          id="alert-condition"
          name="conditionKind"
          label="Fires when the number"
          value={kind}
          onChange={(event) => setKind(event.currentTarget.value as ConditionKind)}
          errors={errors.condition ?? errors["condition.kind"]}
        >
          {(Object.keys(conditionLabels) as ConditionKind[]).map((choice) => (
            <option key={choice} value={choice}>
              {conditionLabels[choice]}
            </option>
          ))}
        </SelectField>
        {kind === "above" || kind === "below" ? (
          <FormField
            name="value"
            label="Threshold"
            id="alert-value"
            inputMode="decimal"
            required
            defaultValue={
              condition?.kind === "above" || condition?.kind === "below" ? condition.value : ""
            }
            errors={errors["condition.value"]}
          />
        ) : null}
        {kind === "change" ? (
          <>
            <FormField
              name="percent"
              label="By more than (%)"
              id="alert-percent"
              inputMode="decimal"
              required
              defaultValue={condition?.kind === "change" ? condition.percent : 10}
              hint="Against the period before: a stat tile's comparison, or a chart's point before."
              errors={errors["condition.percent"]}
            />
            <SelectField
              id="alert-direction"
              name="direction"
              label="Direction"
              defaultValue={condition?.kind === "change" ? condition.direction : "either"}
              errors={errors["condition.direction"]}
            >
              <option value="either">Up or down</option>
              <option value="up">Up</option>
              <option value="down">Down</option>
            </SelectField>
          </>
        ) : null}
        {kind === "stale" ? (
          <FormField
            name="hours"
            label="No new rows for (hours)"
            id="alert-hours"
            type="number"
            inputMode="numeric"
            min={1}
            max={alertLimits.maxStaleHours}
            required
            defaultValue={condition?.kind === "stale" ? condition.hours : 24}
            hint="Rows count as new when they are imported, appended or pushed."
            errors={errors["condition.hours"]}
          />
        ) : null}
        <SelectField
          id="alert-every"
          name="checkEveryMinutes"
          label="Also check"
          defaultValue={String(alert?.checkEveryMinutes ?? 60)}
          hint="Besides right after every import or push to its dataset."
          errors={errors.checkEveryMinutes}
        >
          {alertCheckMinutes.map((minutes) => (
            <option key={minutes} value={minutes}>
              {describeCheckEvery(minutes)}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          id="alert-recipients"
          name="recipients"
          label="Email recipients"
          rows={3}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          hint={`One address per line, at most ${alertLimits.recipients}: users of this app${
            allowedDomains.length > 0 ? ` or anyone at ${allowedDomains.join(", ")}` : ""
          }. Each gets their own message and unsubscribe link.`}
          errors={recipientErrors(errors, typed)}
        />
        <fieldset className="field">
          <legend>Webhooks</legend>
          {kept.length > 0 ? (
            <ul className="stack">
              {kept.map((webhook, index) => (
                <li key={webhook.id}>
                  <input
                    type="hidden"
                    name={`webhookFormat:${webhook.id}`}
                    value={webhook.format}
                  />
                  <label>
                    <input type="checkbox" name="keepWebhook" value={webhook.id} defaultChecked />{" "}
                    Keep {webhook.shownUrl} ({formatLabels[webhook.format]})
                  </label>
                  {messagesUnder(errors, `webhooks.${index}`)?.map((message) => (
                    <p key={message} className="field-error">
                      {message}
                    </p>
                  ))}
                </li>
              ))}
            </ul>
          ) : null}
          {kept.length < alertLimits.webhooks ? (
            <>
              <FormField
                name="newWebhookUrl"
                label={kept.length > 0 ? "Add a webhook (optional)" : "Webhook address (optional)"}
                id="alert-webhook-url"
                type="url"
                inputMode="url"
                maxLength={2048}
                hint="An https address that takes a POST; its signing secret is shown once when you save."
                errors={newWebhookErrors}
              />
              <SelectField
                id="alert-webhook-format"
                name="newWebhookFormat"
                label="Webhook body"
                defaultValue="json"
              >
                {webhookFormats.map((format) => (
                  <option key={format} value={format}>
                    {formatLabels[format]}
                  </option>
                ))}
              </SelectField>
            </>
          ) : null}
        </fieldset>
        <div className="field">
          <label>
            <input type="checkbox" name="enabled" defaultChecked={alert?.enabled ?? true} /> Check
            this alert (clear to turn it off)
          </label>
        </div>
        <div>
          <button type="submit" className="button" disabled={pending}>
            {pending ? "Saving…" : alert ? "Save alert" : "Create alert"}
          </button>
        </div>
      </form>
    </>
  );
}

export function DeleteAlertButton({ id, name }: { id: string; name: string }) {
  const [state, formAction, pending] = useActionState<ContentFormState, FormData>(deleteAlert, {});
  return (
    <form action={formAction}>
      <input type="hidden" name="alertId" value={id} />
      <ConfirmDialogButton
        label={`Delete ${name}`}
        question={`Delete the alert "${name}" and its history? Nobody is told from now on.`}
        yes={`Yes, delete ${name}`}
        disabled={pending}
      />
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}

const snoozeChoices = [
  { hours: 1, label: "1 hour" },
  { hours: 4, label: "4 hours" },
  { hours: 24, label: "1 day" },
  { hours: 168, label: "1 week" },
] as const;

export function SnoozeAlertForm({ id, snoozed }: { id: string; snoozed: boolean }) {
  const { state, pending, onSubmit } = useContentForm(snoozeAlert);
  return (
    <form onSubmit={onSubmit} className="form" noValidate aria-label="Snooze">
      <input type="hidden" name="alertId" value={id} />
      <FormMessages state={state} />
      <SelectField
        id="alert-snooze"
        name="hours"
        label="Snooze for"
        defaultValue="24"
        hint="Checks go on and the history keeps every change; nobody is told until it ends."
        errors={state.fieldErrors?.hours}
      >
        {snoozeChoices.map((choice) => (
          <option key={choice.hours} value={choice.hours}>
            {choice.label}
          </option>
        ))}
        {snoozed ? <option value="0">End the snooze now</option> : null}
      </SelectField>
      <div>
        <button type="submit" className="button button-secondary" disabled={pending}>
          {pending ? "Saving…" : "Snooze"}
        </button>
      </div>
    </form>
  );
}
