import "server-only";
import { openStore, type Store } from "@seed/store";
import { resolveDataDir } from "./auth-options.mjs";
import { observability } from "./observability";

const processGlobal = globalThis as typeof globalThis & { __seedStore?: Promise<Store> };

/** The one Store of this process: SQLite in SEED_DATA_DIR (default ./data), or DATABASE_URL's PostgreSQL. */
export function getStore(): Promise<Store> {
  if (!processGlobal.__seedStore) {
    const { queryDuration } = observability();
    const opening = openStore({
      databaseUrl: process.env.DATABASE_URL ?? null,
      dataDir: resolveDataDir(),
      observeQuery: ({ seconds, ok }) =>
        queryDuration.observe(
          {
            engine: process.env.DATABASE_URL ? "postgres" : "sqlite",
            outcome: ok ? "ok" : "error",
          },
          seconds,
        ),
    });
    // A failed open is not cached, so the next request tries again.
    opening.catch(() => {
      if (processGlobal.__seedStore === opening) processGlobal.__seedStore = undefined;
    });
    processGlobal.__seedStore = opening;
  }
  return processGlobal.__seedStore;
}
