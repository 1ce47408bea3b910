import "server-only";
import { watch } from "node:fs";
import path from "node:path";
import type { ProvisionReport } from "@seed/store";
import { observability } from "./observability";
import { expireContentNow } from "./revalidate";
import { getStore } from "./store";

// The dashboards folder (SEED_DASHBOARDS_DIR): its files are applied at start and again on each
// change, by every instance (an unchanged file writes nothing, so instances agree).

/** Waits this long after a change for the rest of a save or a `git pull` to land. */
const settleMs = 500;

function logReport(report: ProvisionReport): boolean {
  const { logger } = observability();
  let changed = report.released.length > 0;
  for (const entry of report.files) {
    if (entry.outcome === "failed") {
      logger.error({ file: entry.file, problems: entry.problems }, "Dashboard file not applied");
    } else if (entry.outcome !== "unchanged") {
      changed = true;
      logger.info(
        { file: entry.file, slug: entry.slug, outcome: entry.outcome },
        "Dashboard file applied",
      );
    }
  }
  for (const slug of report.released) {
    logger.warn({ slug }, "Dashboard file removed: the dashboard is kept and editable again");
  }
  return changed;
}

/** Applies the folder now and on each change; runs never overlap (a change mid-run runs once more). */
export function startProvisioning(): void {
  const configured = process.env.SEED_DASHBOARDS_DIR;
  if (!configured) return;
  const folder = path.resolve(configured);
  const { logger } = observability();
  let running: Promise<void> | null = null;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          const report = await (await getStore()).provisionDashboards(folder);
          // Public pages are cached: a changed dashboard must be served new from every instance.
          if (logReport(report)) await expireContentNow();
        } catch (error) {
          logger.error(
            { folder, err: error instanceof Error ? error.message : String(error) },
            "Could not read the dashboards folder",
          );
        }
      } while (again);
    })();
    await running;
    running = null;
  };
  void run();
  let timer: NodeJS.Timeout | undefined;
  try {
    watch(folder, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(() => void run(), settleMs);
    }).unref();
  } catch (error) {
    logger.error(
      { folder, err: error instanceof Error ? error.message : String(error) },
      "Cannot watch the dashboards folder; its files apply at start only",
    );
  }
}
