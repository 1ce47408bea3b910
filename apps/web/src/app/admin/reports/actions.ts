"use server";

import { emailLimits, type ReportInput, reportLimits } from "@seed/model";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { recipientLines } from "@/features/reports/recipient-lines";
import { formText } from "@/lib/form-state";
import { enqueueReportRun, mailStatus } from "@/server/delivery";
import { done, formAction, refuse, staleForm } from "@/server/form-action";

// The reports page's writes. The form sends text; the store's schema (@seed/model
// reportInputSchema) checks it, and each refused recipient comes back under its line.

function readReportForm(formData: FormData): ReportInput {
  const every = formText(formData, "every");
  const time = formText(formData, "time").slice(0, 10);
  const number = (name: string) => {
    const text = formText(formData, name).trim();
    return /^\d{1,2}$/.test(text) ? Number(text) : Number.NaN;
  };
  const schedule =
    every === "week"
      ? { every: "week" as const, weekday: number("weekday"), time }
      : every === "month"
        ? { every: "month" as const, dayOfMonth: number("dayOfMonth"), time }
        : { every: "day" as const, time };
  return {
    name: formText(formData, "name").slice(0, reportLimits.name + 1),
    dashboardId: formText(formData, "dashboardId").slice(0, 200),
    filterQuery: formText(formData, "filterQuery").slice(0, reportLimits.filterQuery + 1),
    schedule,
    recipients: recipientLines(formText(formData, "recipients")),
    enabled: formText(formData, "enabled") === "on",
  };
}

/** Creates a report, or changes the one named by reportId (at the version the form was read at). */
export const saveReport = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const input = readReportForm(formData);
    const reportId = formText(formData, "reportId").slice(0, 200);
    if (reportId) {
      const version = Number(formText(formData, "version"));
      if (!Number.isInteger(version) || version < 1) return refuse(staleForm);
      await store.updateReport(reportId, { ...input, expectedVersion: version }, actor);
      return done({
        redirectTo: "/admin/reports",
        revalidate: { adminPath: "/admin/reports" },
      });
    }
    await store.createReport(input, actor);
    return done({
      redirectTo: "/admin/reports",
      revalidate: { adminPath: "/admin/reports" },
    });
  },
);

/** Sends a report now, outside its schedule, to try it out. */
export const sendReportNow = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const reportId = formText(formData, "reportId").slice(0, 200);
    if (!reportId) return refuse(staleForm);
    if (mailStatus().state !== "on") {
      return refuse({ formError: "Mail is not set up here, so nothing can be sent." });
    }
    const run = await store.requestReportRun(reportId, actor);
    if (!(await enqueueReportRun(run))) {
      return refuse({ formError: "Sending is starting up; try again in a moment." });
    }
    return done({
      message: "Sending now. The last run column shows how it went.",
      revalidate: { adminPath: "/admin/reports" },
    });
  },
);

export const deleteReport = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const reportId = formText(formData, "reportId").slice(0, 200);
    if (!reportId) return refuse(staleForm);
    await store.deleteReport(reportId, actor);
    return done({ message: "Report deleted.", revalidate: { adminPath: "/admin/reports" } });
  },
);

/** The admin's list of domains, one per line, that reports may go to besides the app's users. */
export const saveAllowedMailDomains = formAction<ContentFormState>(
  "settings.manage",
  async ({ formData, store, actor }) => {
    const domains = formText(formData, "domains")
      .slice(0, (emailLimits.domains + 1) * (emailLimits.domain + 2))
      .split(/[\n,;\s]+/)
      .map((line) => line.trim())
      .filter((line) => line.length > 0);
    const saved = await store.setAllowedMailDomains(actor, { domains });
    return done({
      message:
        saved.length === 0
          ? "Reports now go to the app's users only."
          : `Reports may also go to ${saved.join(", ")}.`,
      revalidate: { adminPath: "/admin/reports" },
    });
  },
);
