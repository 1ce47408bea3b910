import "server-only";
import pino, { type Logger } from "pino";
import client from "prom-client";

/**
 * One logger and one metrics registry per process, whichever server bundle asks (pino and
 * prom-client are external packages, and the instance lives on globalThis): JSON log lines on
 * stdout, Prometheus metrics at /api/metrics.
 */
export interface Observability {
  logger: Logger;
  registry: client.Registry;
  requestDuration: client.Histogram<"method" | "route" | "status">;
  queryDuration: client.Histogram<"engine" | "outcome">;
  imports: client.Counter<"kind" | "outcome">;
}

const processGlobal = globalThis as typeof globalThis & { __seedObservability?: Observability };

function create(): Observability {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "seed_" });
  return {
    logger: pino({
      base: { service: "seed-web", pid: process.pid },
      level: process.env.SEED_LOG_LEVEL || "info",
      timestamp: pino.stdTimeFunctions.isoTime,
    }),
    registry,
    requestDuration: new client.Histogram({
      name: "seed_http_request_duration_seconds",
      help: "Time from request to response end, by method, route and status.",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    queryDuration: new client.Histogram({
      name: "seed_chart_query_duration_seconds",
      help: "Time a chart or stat query took in the database, by engine and outcome.",
      labelNames: ["engine", "outcome"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    imports: new client.Counter({
      name: "seed_dataset_imports_total",
      help: "CSV imports into datasets (new, append, replace) and push API writes (push), by outcome.",
      labelNames: ["kind", "outcome"],
      registers: [registry],
    }),
  };
}

export function observability(): Observability {
  processGlobal.__seedObservability ??= create();
  return processGlobal.__seedObservability;
}
