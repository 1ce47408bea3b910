import "server-only";
import {
  createMailer,
  describeMailSettings,
  type JobQueue,
  type MailSettings,
  mailSettingsFromEnv,
} from "@seed/store";
import { configuredOrigins } from "@/lib/same-origin.mjs";
import { observability } from "./observability";
import { reportJobKey, reportQueue, startReportScheduler } from "./reports/scheduler";
import { getStore } from "./store";

// Starts this instance's part of sending scheduled reports: every instance ticks and works the
// queue (pg-boss shares the jobs between them; on SQLite the one process does it all). Without
// mail settings (SEED_SMTP_URL) nothing is sent and reports stay due: once mail is set up, a run
// missed meanwhile goes out once.

const started = globalThis as typeof globalThis & {
  __seedReportDelivery?: Promise<void>;
  /** This process's report queue, once delivery is on. */
  __seedReportQueue?: JobQueue;
};

/** Starts once per process; a start that failed (the database was down) is tried again later. */
export function startReportDelivery(): Promise<void> {
  started.__seedReportDelivery ??= start().catch((error) => {
    started.__seedReportDelivery = undefined;
    setTimeout(() => void startReportDelivery().catch(() => undefined), 30_000).unref();
    throw error;
  });
  return started.__seedReportDelivery;
}

export type MailStatus =
  | { state: "on"; settings: MailSettings; text: string }
  | { state: "off" }
  | { state: "invalid"; reason: string };

/** Whether mail is set up, in words an admin page may show (never the password). */
export function mailStatus(): MailStatus {
  try {
    const settings = mailSettingsFromEnv(process.env);
    return settings
      ? { state: "on", settings, text: describeMailSettings(settings) }
      : { state: "off" };
  } catch (error) {
    return { state: "invalid", reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * How often this instance looks for due reports: SEED_REPORT_TICK_SECONDS (1 to 300), default 30.
 * A run goes out within this long after its time.
 */
export function reportTickMs(env: Record<string, string | undefined> = process.env): number {
  const text = env.SEED_REPORT_TICK_SECONDS?.trim();
  if (!text) return 30_000;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 300) {
    throw new Error("SEED_REPORT_TICK_SECONDS must be a whole number of seconds from 1 to 300.");
  }
  return seconds * 1_000;
}

/** Links in a report must reach the app from a mailbox: the configured public address. */
export function reportBaseUrl(): string {
  return configuredOrigins()[0] ?? `http://localhost:${process.env.PORT ?? "3000"}`;
}

async function start(): Promise<void> {
  const { logger } = observability();
  const status = mailStatus();
  if (status.state === "invalid") {
    logger.error(
      { err: status.reason },
      "Mail settings are not valid; scheduled reports are not sent",
    );
    return;
  }
  if (status.state === "off") {
    logger.info("Mail is not set up (SEED_SMTP_URL); scheduled reports wait until it is");
    return;
  }
  const { settings } = status;
  const baseUrl = reportBaseUrl();
  const tickMs = reportTickMs();
  const store = await getStore();
  const queue = await store.openJobQueue();
  started.__seedReportQueue = queue;
  const scheduler = await startReportScheduler(store, queue, {
    mailer: createMailer(settings),
    baseUrl,
    tickMs,
    onError: (error) =>
      logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        "Could not check for due reports",
      ),
  });
  logger.info({ mail: status.text, baseUrl }, "Scheduled reports are on");
  await scheduler.tick();
}

/** Queues a run asked for now (the store checked and audited the request); false while mail is off. */
export async function enqueueReportRun(run: { reportId: string; dueAt: string }): Promise<boolean> {
  const queue = started.__seedReportQueue;
  if (!queue) return false;
  await queue.enqueue({
    queue: reportQueue,
    key: reportJobKey(run.reportId, run.dueAt),
    runAt: new Date(),
    data: run,
  });
  return true;
}
