import "server-only";
import {
  type AllowedNetworks,
  createMailer,
  describeMailSettings,
  type JobQueue,
  type MailSettings,
  mailSettingsFromEnv,
  parseAllowedNetworks,
} from "@seed/store";
import { configuredOrigins } from "@/lib/same-origin.mjs";
import { type AlertChecker, startAlertChecker } from "./alerts/alert-jobs";
import { loadAuthSecret, resolveDataDir } from "./auth-options.mjs";
import { observability } from "./observability";
import { reportJobKey, reportQueue, startReportScheduler } from "./reports/scheduler";
import { getStore } from "./store";

// Starts this instance's part of what leaves the app on its own: alert checks and deliveries, and
// scheduled reports. Every instance ticks and works the job queue (pg-boss shares the jobs
// between them; on SQLite the one process does it all). Alerts are always checked, and their
// webhooks called; without mail settings (SEED_SMTP_URL) nothing is mailed, and reports stay
// due: once mail is set up, a run missed meanwhile goes out once.

const started = globalThis as typeof globalThis & {
  __seedDelivery?: Promise<void>;
  /** This process's report queue, once reports are on. */
  __seedReportQueue?: JobQueue;
  __seedAlertChecker?: AlertChecker;
};

/** Starts once per process; a start that failed (the database was down) is tried again later. */
export function startDelivery(): Promise<void> {
  started.__seedDelivery ??= start().catch((error) => {
    started.__seedDelivery = undefined;
    setTimeout(() => void startDelivery().catch(() => undefined), 30_000).unref();
    throw error;
  });
  return started.__seedDelivery;
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

/**
 * How long a job may run before another instance takes it over (the first is taken for dead):
 * SEED_JOB_LEASE_SECONDS (10 to 3600), default 900. A job that outlives its lease may run twice;
 * its marks keep anyone from being told twice but the one it was telling.
 */
export function jobLeaseMs(env: Record<string, string | undefined> = process.env): number {
  const text = env.SEED_JOB_LEASE_SECONDS?.trim();
  if (!text) return 15 * 60_000;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 10 || seconds > 3600) {
    throw new Error("SEED_JOB_LEASE_SECONDS must be a whole number of seconds from 10 to 3600.");
  }
  return seconds * 1_000;
}

/**
 * Networks webhooks may call besides public addresses: SEED_WEBHOOK_ALLOW_NETWORKS, a comma list
 * of networks or addresses ("10.0.0.0/8, 192.168.1.20"), for receivers on an intranet. None by
 * default: a webhook pointed at this server, its network or a metadata service is not called.
 */
export function webhookAllowedNetworks(
  env: Record<string, string | undefined> = process.env,
): AllowedNetworks {
  try {
    return parseAllowedNetworks(env.SEED_WEBHOOK_ALLOW_NETWORKS ?? "");
  } catch (error) {
    throw new Error(`SEED_WEBHOOK_ALLOW_NETWORKS: ${(error as Error).message}`);
  }
}

/**
 * How long a failed job waits before its first retry, doubled at each next one:
 * SEED_JOB_RETRY_SECONDS (1 to 3600), default 60.
 */
export function jobRetryDelayMs(env: Record<string, string | undefined> = process.env): number {
  const text = env.SEED_JOB_RETRY_SECONDS?.trim();
  if (!text) return 60_000;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
    throw new Error("SEED_JOB_RETRY_SECONDS must be a whole number of seconds from 1 to 3600.");
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
  const baseUrl = reportBaseUrl();
  const tickMs = reportTickMs();
  const store = await getStore();
  const queue = await store.openJobQueue({
    leaseMs: jobLeaseMs(),
    retryDelayMs: jobRetryDelayMs(),
  });
  const mailer = status.state === "on" ? createMailer(status.settings) : null;
  const onError = (what: string) => (error: unknown) =>
    logger.error({ err: error instanceof Error ? error.message : String(error) }, what);
  const checker = await startAlertChecker(store, queue, {
    mailer,
    baseUrl,
    serverSecret: loadAuthSecret(resolveDataDir()),
    allowedNetworks: webhookAllowedNetworks(),
    tickMs,
    onError: onError("Could not check for due alerts"),
  });
  started.__seedAlertChecker = checker;
  if (status.state === "invalid") {
    logger.error(
      { err: status.reason },
      "Mail settings are not valid; scheduled reports and alert mail are not sent",
    );
  } else if (status.state === "off") {
    logger.info(
      "Mail is not set up (SEED_SMTP_URL); scheduled reports wait until it is, alerts call webhooks only",
    );
  } else if (mailer) {
    const scheduler = await startReportScheduler(store, queue, {
      mailer,
      baseUrl,
      tickMs,
      onError: onError("Could not check for due reports"),
    });
    started.__seedReportQueue = queue;
    logger.info({ mail: status.text, baseUrl }, "Scheduled reports are on");
    await scheduler.tick();
  }
  await checker.tick();
}

/**
 * After rows of a dataset were written (an import, a push, an edit): its alerts are checked now.
 * Never throws: the write is done, and a check that could not be queued runs on its schedule.
 */
export async function checkAlertsAfterWrite(datasetId: string): Promise<void> {
  const checker = started.__seedAlertChecker;
  if (!checker) return;
  await checker
    .afterWrite(datasetId)
    .catch((error) =>
      observability().logger.error(
        { err: error instanceof Error ? error.message : String(error), datasetId },
        "Could not queue the alert checks after a write",
      ),
    );
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
