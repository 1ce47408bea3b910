// A real SMTP server for the end-to-end runs (smtp-server, nodemailer's own), in a process of its
// own so it outlives the Playwright worker that starts it: every message it takes is written to
// <dir>/mail/<n>.json ({ from, to, raw: base64 }). Loopback only and without TLS, as the app
// allows for a relay on the same machine (SEED_SMTP_TLS=off).
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Starts the sink and waits until it listens.
 * @returns {{ dir: string; port: number }}
 */
export function startSmtpSink() {
  const dir = mkdtempSync(path.join(tmpdir(), "seed-e2e-smtp-"));
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "serve", dir], {
    detached: true,
    stdio: "ignore",
  });
  child.unref();
  const portFile = path.join(dir, "port");
  const deadline = Date.now() + 20_000;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(portFile)) {
    if (Date.now() > deadline) throw new Error("The SMTP sink did not start.");
    Atomics.wait(pause, 0, 0, 50);
  }
  return { dir, port: Number(readFileSync(portFile, "utf8")) };
}

/** @param {string} dir */
export function stopSmtpSink(dir) {
  const pidFile = path.join(dir, "pid");
  if (!existsSync(pidFile)) return;
  try {
    process.kill(Number(readFileSync(pidFile, "utf8")));
  } catch {
    // already gone
  }
}

/**
 * Every message the sink has taken, oldest first.
 * @param {string} dir
 * @returns {{ from: string; to: string[]; raw: Buffer }[]}
 */
export function sunkMail(dir) {
  const folder = path.join(dir, "mail");
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith(".json"))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
    .map((name) => {
      const mail = JSON.parse(readFileSync(path.join(folder, name), "utf8"));
      return { from: mail.from, to: mail.to, raw: Buffer.from(mail.raw, "base64") };
    });
}

/** @param {string} dir */
async function serve(dir) {
  const { SMTPServer } = await import("smtp-server");
  const folder = path.join(dir, "mail");
  mkdirSync(folder, { recursive: true });
  let count = 0;
  let stalled = false;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    size: 20 * 1024 * 1024,
    logger: false,
    onData(stream, session, callback) {
      // The first message to stall-once@<any domain> is never answered: its sender hangs in the
      // middle of a run (for a test to kill it there), and <dir>/stalled says it does.
      if (!stalled && session.envelope.rcptTo.some((to) => to.address.startsWith("stall-once@"))) {
        stalled = true;
        stream.resume();
        writeFileSync(path.join(dir, "stalled"), String(Date.now()));
        return;
      }
      /** @type {Buffer[]} */
      const chunks = [];
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("end", () => {
        count += 1;
        const file = path.join(folder, `${count}.json`);
        // Written whole under a temporary name, then renamed: a reader never sees half a message.
        writeFileSync(
          `${file}.part`,
          JSON.stringify({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((to) => to.address),
            raw: Buffer.concat(chunks).toString("base64"),
          }),
        );
        renameSync(`${file}.part`, file);
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1", () => {
    writeFileSync(path.join(dir, "pid"), String(process.pid));
    const address = /** @type {import("node:net").AddressInfo} */ (server.server.address());
    writeFileSync(path.join(dir, "port"), String(address.port));
  });
}

if (process.argv[2] === "serve" && process.argv[3]) await serve(process.argv[3]);
