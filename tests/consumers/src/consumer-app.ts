import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { removeDir, withoutPnpmScriptEnv } from "../scripts/pack-packages.mjs";
import { packedPackage } from "./packed-packages";

export const fixturesDir = resolve(fileURLToPath(new URL("../fixtures", import.meta.url)));

/** Versions a consumer app pins, equal to the workspace catalog (pnpm-workspace.yaml). */
export const catalogVersions = {
  next: "16.4.6",
  react: "19.3.1",
  "react-dom": "19.3.1",
  "react-is": "19.3.1",
  recharts: "3.10.1",
  vite: "8.3.8",
  "@vitejs/plugin-react": "6.3.0",
  typescript: "5.9.3",
  "@types/react": "19.3.0",
  "@types/react-dom": "19.3.0",
  "@types/node": "20.19.43",
} as const;

/**
 * The versions the workspace's lockfile resolves for a package's own dependencies (its snapshot
 * in pnpm-lock.yaml), e.g. Recharts' @reduxjs/toolkit and es-toolkit. A measurement that compares
 * bundles (bundle-size.test.ts) pins them, so a dependency released since does not move it.
 */
export function workspaceResolutions(name: string, version: string): Record<string, string> {
  const lock = readFileSync(resolve(fixturesDir, "../../../pnpm-lock.yaml"), "utf8");
  const snapshots = lock.slice(lock.indexOf("\nsnapshots:\n"));
  const start = snapshots.indexOf(`\n  ${name}@${version}`);
  if (start < 0) throw new Error(`${name}@${version} is not in the workspace lockfile`);
  const block = snapshots.slice(start + 1).split("\n\n")[0] ?? "";
  // The lines under "dependencies:", up to the next key at its depth (transitivePeerDependencies).
  const dependencies = block.split("\n    dependencies:\n")[1]?.split(/\n {4}(?! )/)[0] ?? "";
  const pins: Record<string, string> = {};
  for (const line of dependencies.split("\n")) {
    const match = /^ {6}'?([^':]+)'?: ([^(\s]+)/.exec(line);
    if (match?.[1] && match[2]) pins[match[1]] = match[2];
  }
  return pins;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  output: string;
}

/** Env for tools run in a consumer app: no pnpm-script, Vitest or NODE_ENV leakage from this run. */
export function consumerEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = withoutPnpmScriptEnv(process.env);
  for (const key of Object.keys(env)) {
    if (key === "NODE_ENV" || key === "TEST" || key.startsWith("VITEST")) delete env[key];
  }
  return {
    ...env,
    npm_config_nodedir: "/usr",
    NEXT_TELEMETRY_DISABLED: "1",
    FORCE_COLOR: "0",
    ...extra,
  };
}

/** Runs a command to completion, printing what runs; never throws on a non-zero exit. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<RunResult> {
  console.log(`[consumers] $ ${command} ${args.join(" ")}   (in ${options.cwd})`);
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: consumerEnv(options.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      console.log(
        `[consumers]   exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      resolvePromise({ code, stdout, stderr, output });
    });
  });
}

/** Like run, but a non-zero exit throws with the command's output in the message. */
export async function runOk(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<RunResult> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.code}:\n${result.output}`);
  }
  return result;
}

export interface ConsumerApp {
  dir: string;
  remove(): void;
}

/**
 * Copies a fixture into a fresh folder under the OS temp dir (so Node resolution cannot reach the
 * workspace's node_modules), depends on the packed tarballs, and installs with pnpm from the store
 * or the npm registry only.
 */
export async function createConsumerApp(options: {
  fixture: string;
  dependencies: Record<string, string>;
  type?: "module" | "commonjs";
  scripts?: Record<string, string>;
  /** pnpm (default, fast from its store) or npm, which also enforces peer dependency ranges. */
  packageManager?: "pnpm" | "npm";
  /** Versions every package of the install takes, wherever it is depended on (pnpm only). */
  overrides?: Record<string, string>;
}): Promise<ConsumerApp> {
  const packageManager = options.packageManager ?? "pnpm";
  const dir = mkdtempSync(join(tmpdir(), `seed-consumers-${options.fixture}-${packageManager}-`));
  cpSync(join(fixturesDir, options.fixture), dir, { recursive: true });
  const ui = packedPackage("@seed/ui");
  const charts = packedPackage("@seed/charts");
  const manifest = {
    name: `seed-consumer-${options.fixture}`,
    version: "0.0.0",
    private: true,
    type: options.type ?? "module",
    scripts: options.scripts ?? {},
    dependencies: {
      ...options.dependencies,
      "@seed/ui": `file:${ui.tarball}`,
      "@seed/charts": `file:${charts.tarball}`,
    },
    // @seed/charts depends on @seed/ui by version: point that at our tarball, never the registry.
    ...(packageManager === "pnpm"
      ? { pnpm: { overrides: { ...options.overrides, "@seed/ui": `file:${ui.tarball}` } } }
      : { overrides: { "@seed/ui": "$@seed/ui" } }),
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  if (packageManager === "pnpm") {
    await runOk(
      "pnpm",
      ["install", "--prefer-offline", "--no-frozen-lockfile", "--reporter=append-only"],
      { cwd: dir },
    );
  } else {
    await runOk("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir });
  }
  return {
    dir,
    remove: () => {
      if (!process.env.SEED_KEEP_CONSUMERS) removeDir(dir);
    },
  };
}

/** Starts a long-running command in its own process group so stopServer can end it and its children. */
export function startServer(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): { child: ChildProcess; output: () => string } {
  console.log(`[consumers] $ ${command} ${args.join(" ")} &   (in ${options.cwd})`);
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: consumerEnv(options.env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  return { child, output: () => output };
}

export function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolvePromise) => child.once("exit", () => resolvePromise()));
  process.kill(-child.pid, "SIGTERM");
  return exited;
}

/** Polls a URL until it answers 200, failing with the server's output after timeoutMs. */
export async function waitForUrl(
  url: string,
  server: { child: ChildProcess; output: () => string },
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) {
      throw new Error(
        `server exited ${server.child.exitCode} before ${url} answered:\n${server.output()}`,
      );
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${server.output()}`);
}

/** Fails fast when a port is taken, so a stale server from an earlier run is never tested instead. */
export function assertPortFree(port: number): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const probe = createNetServer();
    probe.once("error", () =>
      reject(new Error(`port ${port} is in use: stop whatever listens there (an earlier run?)`)),
    );
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolvePromise()));
  });
}
