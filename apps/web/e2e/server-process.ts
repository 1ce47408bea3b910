import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createThrowawayDatabase } from "../../../scripts/throwaway-postgres.mjs";
import { randomPassword } from "./support";

const appDir = path.resolve(import.meta.dirname, "..");
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
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(
    path.join(appDir, "node_modules/.bin/next"),
    ["start", "-p", String(port)],
    {
      cwd: appDir,
      env: {
        ...process.env,
        NODE_ENV: "production",
        SEED_E2E_BUILD: "1",
        SEED_DATA_DIR: dataDir,
        BETTER_AUTH_URL: url,
        DATABASE_URL: databaseUrl,
        BETTER_AUTH_SECRET: "",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let printed = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    printed += chunk.toString("utf8");
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const waitForOutput = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = printed.match(pattern);
        if (!match) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(match);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`The server never printed ${pattern}. It printed:\n${printed}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });

  const server: ServerProcess = {
    url,
    dataDir,
    databaseUrl,
    output: () => printed,
    waitForOutput,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
  try {
    await waitForOutput(/Ready in|✓ Ready/, 60_000);
    await waitUntilHealthy(url);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function waitUntilHealthy(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url}/api/health never answered 200.`);
    await new Promise((resolve) => setImmediate(resolve));
  }
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
