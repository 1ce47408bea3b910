import "server-only";
import { createMailer, describeMailSettings, mailSettingsFromEnv } from "@seed/store";
import { configuredOrigins } from "@/lib/same-origin.mjs";
import { observability } from "./observability";
import { startReportScheduler } from "./reports/scheduler";
import { getStore } from "./store";

// Starts this instance's part of sending scheduled reports: every instance ticks and works the
// queue (pg-boss shares the jobs between them; on SQLite the one process does it all). Without
// mail settings (SEED_SMTP_URL) nothing is sent and reports stay due: once mail is set up, a run
// missed meanwhile goes out once.

const started = globalThis as typeof globalThis & { __seedReportDelivery?: Promise<void> };

/** Starts once per process; a start that failed (the database was down) is tried again later. */
export function startReportDelivery(): Promise<void> {
  started.__seedReportDelivery ??= start().catch((error) => {
    started.__seedReportDelivery = undefined;
    setTimeout(() => void startReportDelivery().catch(() => undefined), 30_000).unref();
    throw error;
  });
  return started.__seedReportDelivery;
}

async function start(): Promise<void> {
  const { logger } = observability();
  let settings: ReturnType<typeof mailSettingsFromEnv>;
  try {
    settings = mailSettingsFromEnv(process.env);
  } catch (error) {
    logger.error(
      { err: error instanceof Error ? error.message : String(error) },
      "Mail settings are not valid; scheduled reports are not sent",
    );
    return;
  }
  if (!settings) {
    logger.info("Mail is not set up (SEED_SMTP_URL); scheduled reports wait until it is");
    return;
  }
  // Links in a report must reach the app from a mailbox: the configured public address.
  const baseUrl = configuredOrigins()[0] ?? `http://localhost:${process.env.PORT ?? "3000"}`;
  const store = await getStore();
  const queue = await store.openJobQueue();
  const scheduler = await startReportScheduler(store, queue, {
    mailer: createMailer(settings),
    baseUrl,
    onError: (error) =>
      logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        "Could not check for due reports",
      ),
  });
  logger.info({ mail: describeMailSettings(settings), baseUrl }, "Scheduled reports are on");
  await scheduler.tick();
}
