import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createThrowawayDatabase } from "../../../scripts/throwaway-postgres.mjs";
import { appDir, startNextInstance } from "../scripts/next-instance.mjs";
import { randomPassword } from "./support";

const run = promisify(execFile);

/** A `next start` of the test build on its own port and fresh data folder, started by a test. */
export interface ServerProcess {
  url: string;
  dataDir: string;
  /** Its own fresh PostgreSQL database when the suite runs on PostgreSQL, else "" (SQLite). */
  databaseUrl: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the first match of `pattern` in the output, waiting for it if need be. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

export async function startServer(
  port: number,
  options: { dataDir?: string; databaseUrl?: string; env?: Record<string, string> } = {},
): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "seed-web-e2e-own-"));
  const databaseUrl = options.databaseUrl ?? freshDatabaseUrl();
  const instance = await startNextInstance({
    port,
    env: {
      SEED_DATA_DIR: dataDir,
      BETTER_AUTH_URL: `http://localhost:${port}`,
      DATABASE_URL: databaseUrl,
      BETTER_AUTH_SECRET: "",
      ...options.env,
    },
  });
  return {
    url: instance.url,
    dataDir,
    databaseUrl,
    output: instance.output,
    waitForOutput: instance.waitForOutput,
    stop: instance.stop,
  };
}

/** A fresh database on the run's PostgreSQL cluster, or "" when the suite runs on SQLite. */
function freshDatabaseUrl(): string {
  const adminUrl = process.env.SEED_E2E_PG_ADMIN_URL;
  return adminUrl ? createThrowawayDatabase(adminUrl, "e2e_own") : "";
}

/** The CLI that makes an admin (scripts/create-admin.mjs), against a server's data folder and database. */
export async function createAdminWithCli(
  server: { dataDir: string; databaseUrl: string },
  account: { email: string; name: string; password: string },
): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ["scripts/create-admin.mjs", "--email", account.email, "--name", account.name],
    {
      cwd: appDir,
      env: {
        ...process.env,
        SEED_DATA_DIR: server.dataDir,
        SEED_ADMIN_PASSWORD: account.password,
        DATABASE_URL: server.databaseUrl,
        BETTER_AUTH_SECRET: "",
      },
    },
  );
  return stdout;
}

/** A fresh server whose first admin the CLI made (nothing has called its HTTP API yet). */
export async function startServerWithAdmin(
  port: number,
  options: Parameters<typeof startServer>[1] = {},
): Promise<{ server: ServerProcess; admin: { email: string; name: string; password: string } }> {
  const admin = {
    email: `admin-${port}@e2e.seed-charts.test`,
    name: "Admin",
    password: randomPassword(),
  };
  const server = await startServer(port, options);
  await createAdminWithCli(server, admin);
  return { server, admin };
}
