import type { SourceSslMode } from "@seed/model";
import { ValidationError } from "@seed/model";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";

// One small pg pool per live source per process; every query in a read-only transaction with the
// source's statement timeout. Failures become one readable sentence, never the connection string.

// biome-ignore lint/suspicious/noExplicitAny: remote tables are outside the store's schema type.
export type RemoteExecutor = Kysely<any>;

export interface SourceConnection {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  sslMode: SourceSslMode;
}

/** Connections a source's pool keeps open at most, per process. */
const poolSize = 2;
const connectTimeoutMs = 5_000;

export function clientConfig(connection: SourceConnection): pg.ClientConfig {
  return {
    host: connection.host,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    password: connection.password,
    ssl:
      connection.sslMode === "disable"
        ? false
        : connection.sslMode === "require"
          ? { rejectUnauthorized: false }
          : true,
    connectionTimeoutMillis: connectTimeoutMs,
    application_name: "seed-charts",
  };
}

/** A remote failure as the tile and the form show it: field "source" and the form error. */
export function sourceFailure(reason: string): ValidationError {
  return new ValidationError({ fieldErrors: { source: [reason] }, formError: reason });
}

/** One sentence for a failed remote connection or query; no password, no connection string. */
export function describeRemoteError(
  error: unknown,
  where: { host: string; port: number; statementTimeoutMs?: number },
): string {
  const code =
    typeof error === "object" && error !== null && "code" in error
      ? String((error as { code: unknown }).code)
      : "";
  const message = error instanceof Error ? error.message : String(error);
  const at = `${where.host}:${where.port}`;
  switch (code) {
    case "57014":
      return where.statementTimeoutMs === undefined
        ? "The live source cancelled the query."
        : `The live source did not answer within its statement timeout (${where.statementTimeoutMs.toLocaleString("en-US")} ms).`;
    case "28P01":
    case "28000":
      return "The live source refused the sign-in: check the user name and password.";
    case "3D000":
      return "The live source has no database of that name.";
    case "42P01":
    case "42703":
      return "The live source's table or column no longer exists: add the dataset again.";
    case "42501":
      return "The live source's user may not read this table (permission denied).";
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EHOSTUNREACH":
    case "ETIMEDOUT":
      return `The live source at ${at} could not be reached.`;
    default:
      if (/timeout/i.test(message)) return `The live source at ${at} did not answer in time.`;
      if (/ssl/i.test(message)) return `The live source at ${at} refused the SSL setting.`;
      return `The live source failed${code ? ` (code ${code})` : ""}.`;
  }
}

interface PooledSource {
  version: number;
  db: RemoteExecutor;
}

export class SourcePools {
  readonly #pools = new Map<string, PooledSource>();

  /** The source's pool, opened anew when the source changed since (its version). */
  async executorOf(
    id: string,
    version: number,
    connection: SourceConnection,
  ): Promise<RemoteExecutor> {
    const pooled = this.#pools.get(id);
    if (pooled?.version === version) return pooled.db;
    if (pooled) await this.release(id);
    const pool = new pg.Pool({
      ...clientConfig(connection),
      max: poolSize,
      idleTimeoutMillis: 30_000,
    });
    // A remote server closing an idle connection must not crash the process.
    pool.on("error", () => undefined);
    const db: RemoteExecutor = new Kysely({
      dialect: new PostgresDialect({ pool }),
    });
    this.#pools.set(id, { version, db });
    return db;
  }

  /** Closes a source's pool (after it changed or was deleted). */
  async release(id: string): Promise<void> {
    const pooled = this.#pools.get(id);
    this.#pools.delete(id);
    await pooled?.db.destroy().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#pools.keys()].map((id) => this.release(id)));
  }
}

/** Runs `work` in a read-only transaction whose statements stop after `statementTimeoutMs`. */
export function readOnlyRemote<T>(
  db: RemoteExecutor,
  statementTimeoutMs: number,
  work: (trx: RemoteExecutor) => Promise<T>,
): Promise<T> {
  return db
    .transaction()
    .setAccessMode("read only")
    .execute(async (trx) => {
      await sql`select set_config('statement_timeout', ${String(statementTimeoutMs)}, true)`.execute(
        trx,
      );
      return work(trx);
    });
}
