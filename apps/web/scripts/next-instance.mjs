// Starts `next start` of this app as a child process on a port, and waits until it answers
// /api/health. Shared by the e2e helpers (e2e/server-process.ts), the cluster test
// (e2e-cluster/) and the web benchmark (bench/), so they all start the app the same way.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const appDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * @typedef {{
 *   url: string;
 *   port: number;
 *   output(): string;
 *   waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
 *   exited(): boolean;
 *   stop(): Promise<void>;
 *   kill(): Promise<void>;
 * }} NextInstance
 */

/**
 * @param {{ port: number; env: Record<string, string>; e2eBuild?: boolean; readyTimeoutMs?: number }} options
 * @returns {Promise<NextInstance>}
 */
export async function startNextInstance({ port, env, e2eBuild = true, readyTimeoutMs = 60_000 }) {
  const url = `http://localhost:${port}`;
  const child = spawn(path.join(appDir, "node_modules/.bin/next"), ["start", "-p", String(port)], {
    cwd: appDir,
    env: { ...process.env, NODE_ENV: "production", SEED_E2E_BUILD: e2eBuild ? "1" : "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so kill() reaches the server process `next start` forks too.
    detached: true,
  });
  let printed = "";
  /** @type {Set<() => void>} */
  const listeners = new Set();
  /** @param {Buffer} chunk */
  const collect = (chunk) => {
    printed += chunk.toString("utf8");
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  let hasExited = false;
  const exited = new Promise((resolve) =>
    child.once("exit", () => {
      hasExited = true;
      for (const listener of listeners) listener();
      resolve(undefined);
    }),
  );

  /** @param {RegExp} pattern */
  const waitForOutput = (pattern, timeoutMs = 30_000) =>
    /** @type {Promise<RegExpMatchArray>} */ (
      new Promise((resolve, reject) => {
        const check = () => {
          const match = printed.match(pattern);
          if (match) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(match);
          } else if (hasExited) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(
              new Error(`The server exited before printing ${pattern}. It printed:\n${printed}`),
            );
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`The server never printed ${pattern}. It printed:\n${printed}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      })
    );

  /** @param {NodeJS.Signals} signal */
  const signalGroup = async (signal) => {
    if (!hasExited && child.pid !== undefined) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    }
    await exited;
  };

  /** @type {NextInstance} */
  const instance = {
    url,
    port,
    output: () => printed,
    waitForOutput,
    exited: () => hasExited,
    stop: () => signalGroup("SIGTERM"),
    kill: () => signalGroup("SIGKILL"),
  };
  try {
    await waitForOutput(/Ready in|✓ Ready/, readyTimeoutMs);
    await waitUntilHealthy(url, readyTimeoutMs);
  } catch (error) {
    await instance.stop();
    throw error;
  }
  return instance;
}

/**
 * @param {string} url
 * @param {number} timeoutMs
 */
async function waitUntilHealthy(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url}/api/health never answered 200.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
