import { stopThrowawayPostgres } from "../../../scripts/throwaway-postgres.mjs";

/** Stops the run's PostgreSQL cluster, if the suite ran on PostgreSQL. */
export default function globalTeardown() {
  const dir = process.env.SEED_E2E_PG_DIR;
  if (dir) stopThrowawayPostgres(dir);
}
