// A real scale-out setup on one machine: a throwaway PostgreSQL server, N `next start` instances
// on it, and nginx in front with the repository's own config (deploy/nginx.conf, its ports and
// paths swapped in). Used by the cluster test (e2e-cluster/) and `pnpm bench:web`.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createThrowawayDatabase,
  startThrowawayPostgres,
} from "../../../scripts/throwaway-postgres.mjs";
import { appDir, startNextInstance } from "./next-instance.mjs";

const repoDir = path.resolve(appDir, "../..");
export const nginxConfigPath = path.join(repoDir, "deploy/nginx.conf");

/**
 * deploy/nginx.conf with this run's listening port, upstream ports and private paths.
 * @param {string} source
 * @param {{ port: number; upstreamPorts: number[]; dir: string }} options
 */
export function renderNginxConfig(source, { port, upstreamPorts, dir }) {
  const upstreamLine = /^(\s*)server 127\.0\.0\.1:\d+ (.*);$/m;
  const match = upstreamLine.exec(source);
  if (!match) throw new Error("deploy/nginx.conf has no `server 127.0.0.1:<port> ...;` line.");
  const [, indent, options] = match;
  const upstreams = upstreamPorts
    .map((upstreamPort) => `${indent}server 127.0.0.1:${upstreamPort} ${options};`)
    .join("\n");
  let config = source.replace(new RegExp(upstreamLine.source, "gm"), "");
  config = config.replace(/upstream seed_web \{\n/, (opening) => `${opening}${upstreams}\n`);
  if (!/listen 8080;/.test(config))
    throw new Error("deploy/nginx.conf has no `listen 8080;` line.");
  config = config.replace("listen 8080;", `listen 127.0.0.1:${port};\n    listen [::1]:${port};`);
  const own = [
    "daemon off;",
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    // As root, workers would switch to `nobody`, who cannot use this run's folders.
    ...(process.getuid?.() === 0 ? ["user root;"] : []),
  ].join("\n");
  const httpOwn = [
    `access_log ${dir}/access.log;`,
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(
      (kind) => `${kind}_temp_path ${dir}/${kind};`,
    ),
  ].join("\n  ");
  return `${own}\n${config.replace(/^http \{\n/m, `http {\n  ${httpOwn}\n`)}`;
}

/**
 * @param {number} port
 * @param {number} timeoutMs
 */
async function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`Nothing listens on port ${port}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * nginx with deploy/nginx.conf in front of `upstreamPorts`.
 * @param {{ port: number; upstreamPorts: number[] }} options
 */
export async function startNginx({ port, upstreamPorts }) {
  const dir = mkdtempSync(path.join(tmpdir(), "seed-nginx-"));
  chmodSync(dir, 0o755);
  for (const kind of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    mkdirSync(path.join(dir, kind));
  }
  const configFile = path.join(dir, "nginx.conf");
  writeFileSync(
    configFile,
    renderNginxConfig(readFileSync(nginxConfigPath, "utf8"), { port, upstreamPorts, dir }),
  );
  const child = spawn("nginx", ["-p", dir, "-c", configFile, "-e", path.join(dir, "error.log")], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` },
  });
  let printed = "";
  child.stderr?.on("data", (chunk) => {
    printed += chunk.toString("utf8");
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.once("error", (error) => {
    printed += String(error);
  });
  try {
    await Promise.race([
      waitForPort(port, 10_000),
      exited.then(() => {
        throw new Error(`nginx exited at start:\n${printed}`);
      }),
    ]);
  } catch (error) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `http://localhost:${port}`,
    dir,
    accessLog: () => readFileSync(path.join(dir, "access.log"), "utf8"),
    async stop() {
      if (child.exitCode === null) child.kill("SIGQUIT");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * PostgreSQL, `instances` app instances started at the same moment on its empty database, and
 * nginx in front on `port` (instances on port + 1, port + 2, ...).
 * @param {{ port: number; instances?: number; e2eBuild?: boolean; env?: Record<string, string> }} options
 */
export async function startCluster({ port, instances = 2, e2eBuild = true, env = {} }) {
  const postgres = startThrowawayPostgres({ prefix: "seed-cluster-pg-" });
  const databaseUrl = createThrowawayDatabase(postgres.url, "cluster");
  const url = `http://localhost:${port}`;
  const shared = {
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
    BETTER_AUTH_URL: url,
    SEED_TRUSTED_PROXIES: "127.0.0.1, ::1",
    ...env,
  };
  const ports = Array.from({ length: instances }, (_, i) => port + 1 + i);
  const dataDirs = ports.map(() => mkdtempSync(path.join(tmpdir(), "seed-cluster-app-")));
  /** @param {number} i */
  const startInstance = (i) =>
    startNextInstance({
      port: /** @type {number} */ (ports[i]),
      e2eBuild,
      env: { ...shared, SEED_DATA_DIR: /** @type {string} */ (dataDirs[i]) },
    });
  /** @type {import("./next-instance.mjs").NextInstance[]} */
  let started = [];
  /** @type {Awaited<ReturnType<typeof startNginx>> | null} */
  let nginx = null;
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(started.map((instance) => instance.stop()));
    postgres.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    started = await Promise.all(ports.map((_, i) => startInstance(i)));
    nginx = await startNginx({ port, upstreamPorts: ports });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    databaseUrl,
    postgres,
    nginx,
    dataDirs,
    /** The running instances, in port order (a restarted one replaces its entry). */
    instances: started,
    /** Starts instance i again (after kill or stop) on its port, data folder and database. */
    async restartInstance(/** @type {number} */ i) {
      const instance = await startInstance(i);
      started[i] = instance;
      return instance;
    },
    stop,
  };
}
