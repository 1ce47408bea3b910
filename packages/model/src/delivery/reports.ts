import { z } from "zod";
import { recipientListSchema } from "./recipients.js";
import { reportScheduleSchema } from "./schedule.js";

// What a scheduled report is made of, as its form sends it and the store checks it: a published
// dashboard, the filters it is read with, when it goes out and to whom. Whether each recipient
// may be sent to (a user, or an allowed domain) is the store's to decide; this reads the shape.

export const reportLimits = {
  name: 100,
  recipients: 50,
  /** A dashboard link's filter part ("range=last-30-days&region=North"). */
  filterQuery: 2_000,
  /** Reports one account owns. */
  perOwner: 50,
} as const;

export const reportInputSchema = z.object({
  name: z
    .string({ error: "Enter a name." })
    .trim()
    .min(1, "Enter a name.")
    .max(reportLimits.name, `Keep the name under ${reportLimits.name + 1} characters.`),
  dashboardId: z.string({ error: "Choose a dashboard." }).trim().min(1, "Choose a dashboard."),
  filterQuery: z
    .string()
    .trim()
    .max(reportLimits.filterQuery, "The filters are too long for one report.")
    .transform((query) => query.replace(/^\?/, ""))
    .default(""),
  schedule: reportScheduleSchema,
  recipients: recipientListSchema({ min: 1, max: reportLimits.recipients, what: "A report" }),
  enabled: z.boolean({ error: "Say whether the report is on." }).default(true),
});

export type ReportInput = z.input<typeof reportInputSchema>;
export type ParsedReportInput = z.output<typeof reportInputSchema>;

/** How a report's last run ended: every recipient sent, some, or none. */
export const reportRunStatuses = ["sent", "partial", "failed"] as const;
export type ReportRunStatus = (typeof reportRunStatuses)[number];
