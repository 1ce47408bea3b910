// @ts-check
// A throwaway PostgreSQL cluster for tests: Debian's server binaries, a temp folder, trust auth on
// 127.0.0.1, durability off. Used by the store's suites and by the web app's e2e run on PostgreSQL.
// Synchronous on purpose: Playwright's config must know the URL before it starts the app servers.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl; throws with a fix if none.
 * @param {string} [postgresRoot]
 */
export function findPostgresBinDir(postgresRoot = "/usr/lib/postgresql") {
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
      "Install them with `bash scripts/bootstrap.sh --for-tests` (Debian's postgresql package); the PostgreSQL tests never skip.",
  );
}

/**
 * @typedef {{ url: string; dir: string; port: number; stop: () => void; restart: () => void }} ThrowawayPostgres
 */

/**
 * Starts a cluster on the first free port in [firstPort, lastPort] and returns its admin URL.
 * @param {{ firstPort?: number; lastPort?: number; prefix?: string }} [options]
 * @returns {ThrowawayPostgres}
 */
export function startThrowawayPostgres({
  firstPort = 55432,
  lastPort = 55499,
  prefix = "seed-pg-",
} = {}) {
  const binDir = findPostgresBinDir();
  // PostgreSQL refuses to run as root, so as root the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0;
  /** @param {string} command @param {string[]} args */
  const run = (command, args) => {
    const file = path.join(binDir, command);
    execFileSync(
      asRoot ? "runuser" : file,
      asRoot ? ["-u", "postgres", "--", file, ...args] : args,
      {
        stdio: "pipe",
      },
    );
  };
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
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
  const logFile = path.join(dir, "server.log");
  const stop = () => {
    try {
      run("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  for (let port = firstPort; port <= lastPort; port += 1) {
    const serverOptions = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${dir}`,
      // Durability is pointless for a throwaway test cluster; turning it off makes tests faster.
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=300",
    ].join(" ");
    try {
      run("pg_ctl", ["-D", dataDir, "-o", serverOptions, "-l", logFile, "-w", "start"]);
      // Drops every connection (as a crash or an upgrade would) and comes back on the same port.
      const restart = () =>
        run("pg_ctl", [
          "-D",
          dataDir,
          "-o",
          serverOptions,
          "-l",
          logFile,
          "-m",
          "fast",
          "-w",
          "restart",
        ]);
      return { url: `postgresql://postgres@127.0.0.1:${port}/postgres`, dir, port, stop, restart };
    } catch {
      // Most likely the port is taken: the log says "could not bind"; try the next one.
      const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
      if (!/could not bind|Address already in use/i.test(log)) {
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`PostgreSQL did not start on port ${port}:\n${log || "(no server log)"}`);
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`No free port for PostgreSQL between ${firstPort} and ${lastPort}.`);
}

/**
 * Stops a cluster started by startThrowawayPostgres in another process, by its folder.
 * @param {string} dir
 */
export function stopThrowawayPostgres(dir) {
  const binDir = findPostgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const file = path.join(binDir, "pg_ctl");
  const args = ["-D", path.join(dir, "data"), "-m", "fast", "-w", "stop"];
  try {
    execFileSync(
      asRoot ? "runuser" : file,
      asRoot ? ["-u", "postgres", "--", file, ...args] : args,
      {
        stdio: "pipe",
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A new, empty database on the cluster at `adminUrl` (through psql, synchronously); its URL.
 * @param {string} adminUrl
 * @param {string} prefix
 */
export function createThrowawayDatabase(adminUrl, prefix) {
  const name = `${prefix}_${randomUUID().replaceAll("-", "")}`;
  execFileSync(
    "psql",
    [adminUrl, "-v", "ON_ERROR_STOP=1", "-q", "-c", `CREATE DATABASE ${name} TEMPLATE template0`],
    {
      stdio: "pipe",
    },
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The URL of the cluster's SQL questions reader on the database at `databaseUrl`: a plain login
 * role (trust auth, so no password), made once per cluster through psql.
 * @param {string} databaseUrl
 */
export function throwawaySqlReaderUrl(databaseUrl) {
  const role = "seed_sql_reader";
  execFileSync(
    "psql",
    [
      databaseUrl,
      "-v",
      "ON_ERROR_STOP=1",
      "-q",
      "-c",
      `DO $$ BEGIN CREATE ROLE ${role} LOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
    ],
    { stdio: "pipe" },
  );
  const url = new URL(databaseUrl);
  url.username = role;
  url.password = "";
  return url.toString();
}
