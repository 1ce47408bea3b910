"use client";

import { type ReportSchedule, reportLimits, weekdays } from "@seed/model";
import { useActionState, useState } from "react";
import { deleteReport, saveReport, sendReportNow } from "@/app/admin/reports/actions";
import { ConfirmDialogButton } from "@/components/admin/confirm-dialog";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { FormMessages, SelectField, TextAreaField } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { FormField } from "@/components/form-field";
import { recipientErrors } from "./recipient-lines";

export interface ReportFormValues {
  id: string;
  version: number;
  name: string;
  dashboardId: string;
  filterQuery: string;
  schedule: ReportSchedule;
  recipients: string[];
  enabled: boolean;
}

export interface ReportDashboardChoice {
  id: string;
  title: string;
  timeZone: string;
}

const everyLabels = { day: "Every day", week: "Every week", month: "Every month" } as const;

/** The store's messages for `prefix` and anything under it ("schedule", "schedule.time"). */
function messagesUnder(errors: Record<string, string[] | undefined>, prefix: string): string[] {
  return Object.entries(errors)
    .filter(([key]) => key === prefix || key.startsWith(`${prefix}.`))
    .flatMap(([, messages]) => messages ?? []);
}

/** New or edit: a published dashboard, its filters, when, and to whom. */
export function ReportForm({
  report,
  dashboards,
  allowedDomains,
}: {
  report?: ReportFormValues;
  dashboards: readonly ReportDashboardChoice[];
  allowedDomains: readonly string[];
}) {
  const { state, pending, submit } = useContentForm(saveReport);
  const [every, setEvery] = useState<ReportSchedule["every"]>(report?.schedule.every ?? "week");
  const [typed, setTyped] = useState(report?.recipients.join("\n") ?? "");
  const errors = state.fieldErrors ?? {};
  const schedule = report?.schedule;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit(new FormData(event.currentTarget));
      }}
      className="form"
      noValidate
      aria-label={report ? `Edit report ${report.name}` : "New report"}
    >
      {report ? (
        <>
          <input type="hidden" name="reportId" value={report.id} />
          <input type="hidden" name="version" value={report.version} />
        </>
      ) : null}
      <FormMessages state={state} />
      <FormField
        name="name"
        label="Name"
        id="report-name"
        required
        maxLength={reportLimits.name}
        defaultValue={report?.name}
        errors={errors.name}
      />
      <SelectField
        id="report-dashboard"
        name="dashboardId"
        label="Dashboard"
        defaultValue={report?.dashboardId ?? dashboards[0]?.id ?? ""}
        hint="A published dashboard. The time below is in the dashboard's time zone."
        errors={errors.dashboardId}
      >
        {dashboards.map((dashboard) => (
          <option key={dashboard.id} value={dashboard.id}>
            {dashboard.title} ({dashboard.timeZone})
          </option>
        ))}
      </SelectField>
      <FormField
        name="filterQuery"
        label="Filters (optional)"
        id="report-filters"
        maxLength={reportLimits.filterQuery}
        defaultValue={report?.filterQuery}
        hint="The part after ? in the dashboard's link with its filters set, e.g. range=last-30-days&region=North."
        errors={errors.filterQuery}
      />
      <SelectField
        id="report-every"
        name="every"
        label="How often"
        value={every}
        onChange={(event) => setEvery(event.currentTarget.value as ReportSchedule["every"])}
        errors={errors.schedule ?? errors["schedule.every"]}
      >
        {(["day", "week", "month"] as const).map((choice) => (
          <option key={choice} value={choice}>
            {everyLabels[choice]}
          </option>
        ))}
      </SelectField>
      {every === "week" ? (
        <SelectField
          id="report-weekday"
          name="weekday"
          label="On"
          defaultValue={String(schedule?.every === "week" ? schedule.weekday : 1)}
          errors={errors["schedule.weekday"]}
        >
          {weekdays.map((weekday, index) => (
            <option key={weekday} value={index + 1}>
              {weekday}
            </option>
          ))}
        </SelectField>
      ) : null}
      {every === "month" ? (
        <FormField
          name="dayOfMonth"
          label="Day of the month"
          id="report-day"
          type="number"
          inputMode="numeric"
          min={1}
          max={31}
          defaultValue={schedule?.every === "month" ? schedule.dayOfMonth : 1}
          hint="29, 30 or 31 is sent on a shorter month's last day."
          errors={errors["schedule.dayOfMonth"]}
        />
      ) : null}
      <FormField
        name="time"
        label="At"
        id="report-time"
        type="time"
        required
        defaultValue={schedule?.time ?? "08:00"}
        errors={errors["schedule.time"]}
      />
      <TextAreaField
        id="report-recipients"
        name="recipients"
        label="Recipients"
        rows={4}
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        hint={`One address per line, at most ${reportLimits.recipients}: users of this app${
          allowedDomains.length > 0 ? ` or anyone at ${allowedDomains.join(", ")}` : ""
        }. Each gets their own message and unsubscribe link.`}
        errors={recipientErrors(errors, typed)}
      />
      <div className="field">
        <label>
          <input type="checkbox" name="enabled" defaultChecked={report?.enabled ?? true} /> Send on
          schedule (clear to pause)
        </label>
      </div>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : report ? "Save report" : "Create report"}
        </button>
      </div>
    </form>
  );
}

export function DeleteReportButton({ id, name }: { id: string; name: string }) {
  const [state, formAction, pending] = useActionState<ContentFormState, FormData>(deleteReport, {});
  return (
    <form action={formAction}>
      <input type="hidden" name="reportId" value={id} />
      <ConfirmDialogButton
        label={`Delete ${name}`}
        question={`Delete the report "${name}"? Nobody gets it from now on.`}
        yes={`Yes, delete ${name}`}
        disabled={pending}
      />
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}

export function SendReportNowButton({ id, name }: { id: string; name: string }) {
  const [state, formAction, pending] = useActionState<ContentFormState, FormData>(
    sendReportNow,
    {},
  );
  return (
    <form action={formAction}>
      <input type="hidden" name="reportId" value={id} />
      <button
        type="submit"
        className="button button-secondary"
        disabled={pending}
        aria-label={`Send now: ${name}`}
      >
        {pending ? "Sending…" : "Send now"}
      </button>
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}

export function AllowedDomainsForm({
  action,
  domains,
}: {
  action: (state: ContentFormState, form: FormData) => Promise<ContentFormState>;
  domains: readonly string[];
}) {
  const { state, pending, onSubmit } = useContentForm(action);
  return (
    <form onSubmit={onSubmit} className="form" noValidate aria-label="Allowed mail domains">
      <FormMessages state={state} />
      <TextAreaField
        id="allowed-domains"
        name="domains"
        label="Domains reports and alerts may go to"
        rows={3}
        defaultValue={domains.join("\n")}
        hint="One per line, e.g. example.com. Leave empty to send to the app's users only."
        errors={messagesUnder(state.fieldErrors ?? {}, "domains")}
      />
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : "Save domains"}
        </button>
      </div>
    </form>
  );
}
