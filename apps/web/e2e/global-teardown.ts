import { stopThrowawayPostgres } from "../../../scripts/throwaway-postgres.mjs";
import { stopSmtpSink } from "./smtp-sink.mjs";

/** Stops the run's PostgreSQL cluster (if the suite ran on PostgreSQL) and its SMTP sink. */
export default function globalTeardown() {
  const dir = process.env.SEED_E2E_PG_DIR;
  if (dir) stopThrowawayPostgres(dir);
  const smtp = process.env.SEED_E2E_SMTP_DIR;
  if (smtp) stopSmtpSink(smtp);
}
