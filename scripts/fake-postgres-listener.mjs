// @ts-check
// Listeners of our own on 127.0.0.1 standing in for servers an admin might point a live source at
// (the store's tests and the web app's e2e): one speaking just enough PostgreSQL to ask for the
// password in clear text and keep every byte it receives, and others that are not PostgreSQL.
import net from "node:net";

const sslRequestCode = 80_877_103;
const gssRequestCode = 80_877_104;

/**
 * What a listener does with a connection: "cleartext-password" asks for the password in clear
 * text (AuthenticationCleartextPassword) and refuses it; "silent" accepts and never says a word;
 * "http" answers like a web server and hangs up; "ssh-banner" greets like an SSH server and
 * waits; `{ startupError, message }` answers the startup with that PostgreSQL error (a lying server).
 * @typedef {"cleartext-password" | "silent" | "http" | "ssh-banner" | { startupError: string; message: string }} ListenerKind
 */

/**
 * @typedef {{ port: number; received: () => Buffer; reset: () => void; close: () => Promise<void> }} FakeListener
 * `received` is every byte received on every connection since the last `reset`.
 */

/**
 * @param {string} code
 * @param {string} message
 */
function errorResponse(code, message) {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`, "utf8");
  const header = Buffer.alloc(5);
  header.write("E", 0, "latin1");
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

function cleartextPasswordRequest() {
  const message = Buffer.alloc(9);
  message.write("R", 0, "latin1");
  message.writeInt32BE(8, 1);
  message.writeInt32BE(3, 5);
  return message;
}

/**
 * Answers SSL/GSS requests with "N" and the startup message with `answer`; returns the bytes
 * still waiting for a whole message, or null once the startup message was answered.
 * @param {net.Socket} socket
 * @param {Buffer} pending
 * @param {() => void} answer
 * @returns {Buffer | null}
 */
function startup(socket, pending, answer) {
  let rest = pending;
  while (rest.length >= 8) {
    const length = rest.readInt32BE(0);
    if (rest.length < length) return rest;
    const code = rest.readInt32BE(4);
    rest = rest.subarray(length);
    if (code === sslRequestCode || code === gssRequestCode) {
      socket.write("N");
      continue;
    }
    answer();
    return null;
  }
  return rest;
}

/**
 * @param {ListenerKind} kind
 * @param {net.Socket} socket
 * @param {(chunk: Buffer) => void} record
 */
function handle(kind, socket, record) {
  socket.on("error", () => undefined);
  socket.on("data", record);
  if (kind === "silent") return;
  if (kind === "http") {
    socket.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    return;
  }
  if (kind === "ssh-banner") {
    socket.write("SSH-2.0-OpenSSH_9.6\r\n");
    return;
  }
  /** @type {Buffer | null} */
  let pending = Buffer.alloc(0);
  socket.on("data", (/** @type {Buffer} */ chunk) => {
    if (pending === null) {
      // The password message (recorded above); the sign-in is refused.
      socket.end(errorResponse("28P01", "password authentication failed"));
      return;
    }
    pending = startup(socket, Buffer.concat([pending, chunk]), () => {
      if (typeof kind === "object") socket.end(errorResponse(kind.startupError, kind.message));
      else socket.write(cleartextPasswordRequest());
    });
  });
}

/**
 * @param {ListenerKind} kind
 * @returns {Promise<FakeListener>}
 */
export async function startFakeListener(kind) {
  /** @type {Buffer[]} */
  let chunks = [];
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    handle(kind, socket, (chunk) => chunks.push(chunk));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(undefined));
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("No listening port.");
  return {
    port: address.port,
    received: () => Buffer.concat(chunks),
    reset: () => {
      chunks = [];
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve(undefined));
      }),
  };
}

/**
 * A port nothing listens on (bound, then released).
 * @returns {Promise<number>}
 */
export async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {net.AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  return address.port;
}
