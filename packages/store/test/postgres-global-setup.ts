// Starts a throwaway PostgreSQL cluster for the suites that run against real PostgreSQL.
import type { TestProject } from "vitest/node";
import { startThrowawayPostgres } from "../../../scripts/throwaway-postgres.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export { findPostgresBinDir } from "../../../scripts/throwaway-postgres.mjs";

export default function setup(project: TestProject) {
  const cluster = startThrowawayPostgres({ prefix: "seed-store-pg-" });
  project.provide("postgresUrl", cluster.url);
  return () => cluster.stop();
}
