// The one Store of this process, shared by the app's server code (src/server/store.ts) and the
// page cache handler (src/server/page-cache-handler.mjs), which Next.js loads outside the app's
// bundle: both reach it through globalThis, so the process opens one pool or one SQLite file.
import { openStore } from "@seed/store";
import { resolveDataDir } from "./auth-options.mjs";

/**
 * @typedef {import("@seed/store").Store} Store
 * @typedef {(event: { seconds: number; ok: boolean }) => void} QueryObserver
 */

const processGlobal = /** @type {typeof globalThis & {
 *   __seedStore?: Promise<Store>;
 *   __seedQueryObservers?: Map<string, QueryObserver>;
 * }} */ (globalThis);

function queryObservers() {
  processGlobal.__seedQueryObservers ??= new Map();
  return processGlobal.__seedQueryObservers;
}

/**
 * Adds (or replaces, by name) a listener for every query's duration and outcome.
 * @param {string} name
 * @param {QueryObserver} observer
 */
export function observeStoreQueries(name, observer) {
  queryObservers().set(name, observer);
}

/**
 * The Store: SQLite in SEED_DATA_DIR (default ./data), or DATABASE_URL's PostgreSQL.
 * A failed open is not kept, so the next caller tries again.
 * @returns {Promise<Store>}
 */
export function processStore() {
  if (!processGlobal.__seedStore) {
    const opening = openStore({
      databaseUrl: process.env.DATABASE_URL ?? null,
      dataDir: resolveDataDir(),
      observeQuery: (event) => {
        for (const observer of queryObservers().values()) observer(event);
      },
    });
    opening.catch(() => {
      if (processGlobal.__seedStore === opening) processGlobal.__seedStore = undefined;
    });
    processGlobal.__seedStore = opening;
  }
  return processGlobal.__seedStore;
}
