// Starts a throwaway PostgreSQL cluster for the suites that run against real PostgreSQL.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl; throws with a fix if none. */
export function findPostgresBinDir(postgresRoot = "/usr/lib/postgresql"): string {
  const versions = existsSync(postgresRoot)
    ? readdirSync(postgresRoot)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const binDir = path.join(postgresRoot, version, "bin");
    if (existsSync(path.join(binDir, "initdb")) && existsSync(path.join(binDir, "pg_ctl"))) {
      return binDir;
    }
  }
  throw new Error(
    `PostgreSQL server binaries (initdb, pg_ctl) were not found under ${postgresRoot}/<version>/bin. ` +
      "Install them with `bash scripts/bootstrap.sh --for-tests` (Debian's postgresql package); the store's PostgreSQL tests never skip.",
  );
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

async function findFreePort(first: number, last: number): Promise<number> {
  for (let port = first; port <= last; port++) {
    if (await isPortFree(port)) return port;
  }
  throw new Error(`No free port for PostgreSQL between ${first} and ${last}.`);
}

export default async function setup(project: TestProject) {
  const binDir = findPostgresBinDir();
  // PostgreSQL refuses to run as root, so as root the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const file = path.join(binDir, command);
    execFileSync(
      asRoot ? "runuser" : file,
      asRoot ? ["-u", "postgres", "--", file, ...args] : args,
      {
        stdio: "pipe",
      },
    );
  };
  const dir = mkdtempSync(path.join(tmpdir(), "seed-store-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const dataDir = path.join(dir, "data");
  run("initdb", [
    "-D",
    dataDir,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
  ]);
  const port = await findFreePort(55432, 55499);
  const serverOptions = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    // Durability is pointless for a throwaway test cluster; turning it off makes tests faster.
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
  ].join(" ");
  const logFile = path.join(dir, "server.log");
  try {
    run("pg_ctl", ["-D", dataDir, "-o", serverOptions, "-l", logFile, "-w", "start"]);
  } catch (error) {
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "(no server log)";
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start on port ${port}:\n${log}`, { cause: error });
  }
  project.provide("postgresUrl", `postgresql://postgres@127.0.0.1:${port}/postgres`);

  return () => {
    try {
      run("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
