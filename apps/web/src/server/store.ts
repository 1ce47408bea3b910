import "server-only";
import type { Store } from "@seed/store";
import { observability } from "./observability";
import { observeStoreQueries, processStore } from "./process-store.mjs";

const engine = process.env.DATABASE_URL ? "postgres" : "sqlite";
observeStoreQueries("metrics", ({ seconds, ok }) =>
  observability().queryDuration.observe({ engine, outcome: ok ? "ok" : "error" }, seconds),
);

/** The one Store of this process: SQLite in SEED_DATA_DIR (default ./data), or DATABASE_URL's PostgreSQL. */
export function getStore(): Promise<Store> {
  return processStore();
}
