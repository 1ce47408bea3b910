import type { Job, JobQueue, Mailer, Store } from "@seed/store";
import { startTicker } from "../ticker";
import { sendReport } from "./send-report";

// The scheduled reports' clock: every tick, each due report gets one job for its run (keyed by the
// report and the instant it is due, so instances ticking together add it once) and is moved on
// to its next instant. A job sends the run through the job queue (pg-boss on PostgreSQL, shared
// by every instance; the jobs table on SQLite), marking each recipient before the next: a job
// retried after a crash or a failure sends only to whoever was not reached.

export const reportQueue = "reports";

export type ReportJobData = { reportId: string; dueAt: string };

/** The job key of one run of one report. */
export function reportJobKey(reportId: string, dueAt: string): string {
  return `report:${reportId}@${dueAt}`;
}

/** Enqueues every due report's run and moves the report on; returns the runs this call added. */
export async function enqueueDueReports(
  store: Store,
  queue: JobQueue,
  now: () => Date = () => new Date(),
): Promise<number> {
  let added = 0;
  for (const { reportId, dueAt } of await store.dueReports()) {
    // The job first, then the move: a crash between them leaves the report due, and the next
    // tick's enqueue of the same key adds nothing while the job waits or runs. A run already
    // done is skipped recipient by recipient by its marks.
    const data: ReportJobData = { reportId, dueAt };
    // Due now by the store's clock; the queue's own clock (PostgreSQL's) need not agree with it.
    const runAt = new Date(Math.min(Date.parse(dueAt), now().getTime(), Date.now()));
    if (
      await queue.enqueue({ queue: reportQueue, key: reportJobKey(reportId, dueAt), runAt, data })
    ) {
      added += 1;
    }
    await store.advanceReport(reportId, dueAt);
  }
  return added;
}

export interface ReportRunSettings {
  mailer: Mailer;
  /** The app's public address, for links back and unsubscribe links. */
  baseUrl: string;
  now?: () => Date;
}

/** The unsubscribe page of one recipient's token. */
export function unsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/unsubscribe/${encodeURIComponent(token)}`;
}

/**
 * Sends one run of a report. Throws (so the queue tries again later, with backoff) when a
 * recipient failed in a way a retry may mend; a refusal or a permanent failure is recorded and
 * not retried.
 */
export async function runReportJob(
  store: Store,
  settings: ReportRunSettings,
  data: ReportJobData,
): Promise<void> {
  const plan = await store.reportRunPlan(data.reportId, data.dueAt);
  if (!plan) return; // deleted since it was due
  // A second job of a run already sent in full (an instance enqueued it just after the first
  // finished) has nothing to do, and records nothing.
  if (plan.report.lastDueAt === data.dueAt && plan.report.lastStatus === "sent") return;
  if (plan.refusal !== null) {
    await store.finishReportRun(data.reportId, data.dueAt, {
      sent: [],
      failed: [],
      refusal: plan.refusal,
    });
    return;
  }
  const keyOf = new Map(plan.recipients.map((recipient) => [recipient.address, recipient]));
  const result = await sendReport(store, settings.mailer, {
    dashboardSlug: plan.dashboardSlug,
    filterQuery: plan.report.filterQuery,
    recipients: plan.recipients.map((recipient) => recipient.address),
    scheduleText: plan.report.scheduleText,
    baseUrl: settings.baseUrl,
    unsubscribeUrl: (address) =>
      unsubscribeUrl(settings.baseUrl, keyOf.get(address)?.unsubscribeToken ?? ""),
    alreadySent: new Set(
      plan.recipients
        .filter((recipient) => plan.alreadySent.has(recipient.key))
        .map((recipient) => recipient.address),
    ),
    onSent: async (address, messageId) => {
      const key = keyOf.get(address)?.key;
      if (key) await store.markReportSent(data.reportId, data.dueAt, key, messageId);
    },
    now: settings.now?.(),
  });
  await store.finishReportRun(data.reportId, data.dueAt, {
    sent: result.sent,
    failed: result.failed.map((one) => ({ address: one.recipient, reason: one.outcome.reason })),
    refusal: result.missing,
  });
  const retryable = result.failed.filter((one) => one.outcome.retry);
  if (retryable.length > 0) {
    throw new Error(
      `Not sent yet to ${retryable.map((one) => one.recipient).join(", ")}: ${retryable[0]?.outcome.reason}`,
    );
  }
}

export interface ReportScheduler {
  /** Enqueues what is due now (the timer does this every `tickMs`). */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

/** Works the report queue in this process and ticks every `tickMs` (default 30 s). */
export async function startReportScheduler(
  store: Store,
  queue: JobQueue,
  settings: ReportRunSettings & { tickMs?: number; onError?: (error: unknown) => void },
): Promise<ReportScheduler> {
  await queue.work(reportQueue, (job: Job) =>
    runReportJob(store, settings, job.data as unknown as ReportJobData),
  );
  const ticker = startTicker(
    () => enqueueDueReports(store, queue, settings.now),
    settings.tickMs ?? 30_000,
    settings.onError,
  );
  return {
    tick: ticker.tick,
    async stop() {
      await ticker.stop();
      await queue.stop();
    },
  };
}
