import { type SourceSslMode, ValidationError } from "@seed/model";
import { Kysely, PostgresDialect, type PostgresPool, sql } from "kysely";
import pg from "pg";
import type { SecretBinding } from "../../access/secret-binding.js";

// One small pg pool per live source per process; every query in a read-only transaction with the
// source's statement timeout. Failures become one readable sentence, never the connection string;
// every failure to connect or sign in is the same sentence.

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

/** Where a source connects: every setting its saved password is bound to. */
export type SourceEndpoint = Omit<SourceConnection, "password">;

export function endpointOf(connection: SourceEndpoint): SourceEndpoint {
  return {
    host: connection.host,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    sslMode: connection.sslMode,
  };
}

const sslStrength: Record<SourceSslMode, number> = { disable: 0, require: 1, "verify-full": 2 };

/** Exact host, port, database and user as parsed ("LOCALHOST", "127.1" ask again); SSL never weaker, or it travels in clear. */
export const sourcePasswordBinding: SecretBinding<SourceEndpoint> = {
  host: { label: "host" },
  port: { label: "port" },
  database: { label: "database" },
  user: { label: "user" },
  sslMode: {
    label: "SSL setting",
    keeps: (saved, requested) => sslStrength[requested] >= sslStrength[saved],
  },
};

/** Every failure before a signed-in session reads the same, so the form cannot tell ports or servers apart. */
export const sourceConnectFailed =
  "Could not connect and sign in to the live source with these settings: check the host, port, database, user, password and SSL setting (the server log says why).";

/** A failure while connecting or signing in, before any query ran. */
export class SourceConnectFailure extends Error {
  override name = "SourceConnectFailure";
  constructor(cause: unknown) {
    super("Could not connect to the live source.", { cause });
  }
}

/** What went wrong, for the server log only: never shown, it would tell ports and servers apart. */
export interface RemoteFailureDetail {
  stage: "connect" | "session";
  /** pg's or the system's error code (SQLSTATE, ECONNREFUSED...), or null. */
  code: string | null;
  message: string;
}

const maxDetailLength = 300;

/** The failure's code and message, with `secret` blanked out should a server echo it. */
export function remoteFailureDetail(error: unknown, secret: string): RemoteFailureDetail {
  const stage = error instanceof SourceConnectFailure ? "connect" : "session";
  const cause = error instanceof SourceConnectFailure ? error.cause : error;
  const code =
    typeof cause === "object" && cause !== null && "code" in cause
      ? String((cause as { code: unknown }).code).slice(0, 40)
      : null;
  const text = cause instanceof Error ? cause.message : String(cause);
  const message = (secret === "" ? text : text.replaceAll(secret, "[password]")).slice(
    0,
    maxDetailLength,
  );
  return { stage, code, message };
}

/** One sentence for a failed remote connection or query; no host, password or connection string. */
export function describeRemoteError(
  error: unknown,
  where: { statementTimeoutMs?: number },
): string {
  if (error instanceof SourceConnectFailure) return sourceConnectFailed;
  const code =
    typeof error === "object" && error !== null && "code" in error
      ? String((error as { code: unknown }).code)
      : "";
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case "57014":
      return where.statementTimeoutMs === undefined
        ? "The live source cancelled the query."
        : `The live source did not answer within its statement timeout (${where.statementTimeoutMs.toLocaleString("en-US")} ms).`;
    case "42P01":
    case "42703":
      return "The live source's table or column no longer exists: add the dataset again.";
    case "42501":
      return "The live source's user may not read this table (permission denied).";
    default:
      if (/timeout/i.test(message)) return "The live source did not answer in time.";
      return `The live source failed${/^[0-9A-Z]{5}$/.test(code) ? ` (code ${code})` : ""}.`;
  }
}

/** Connects a client with `config`; any failure before the session is ready is a SourceConnectFailure. */
export async function connectClient(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client(config);
  // A remote server closing the connection must not crash the process.
  client.on("error", () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new SourceConnectFailure(error);
  }
}

/** The pool as Kysely sees it: a failed checkout (a new connection's sign-in) is a SourceConnectFailure. */
function connectFailuresMarked(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => {
      try {
        return await pool.connect();
      } catch (error) {
        throw new SourceConnectFailure(error);
      }
    },
    end: () => pool.end(),
  };
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
      dialect: new PostgresDialect({ pool: connectFailuresMarked(pool) }),
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
