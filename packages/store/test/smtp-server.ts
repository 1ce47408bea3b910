import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

// A real SMTP server for the delivery tests (smtp-server, nodemailer's own), with a certificate
// made by openssl for this run only: STARTTLS and a user and password, as a mail provider asks.

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: Buffer;
  /** TLS was on when the message was sent. */
  secure: boolean;
  user: string | undefined;
}

export interface TestSmtp {
  port: number;
  /** The certificate (its own authority), as SEED_SMTP_CA_FILE reads it. */
  caFile: string;
  user: string;
  password: string;
  received: ReceivedMail[];
  /** Every AUTH attempt seen, and whether TLS was on when the password came. */
  logins: { user: string; secure: boolean }[];
  close(): Promise<void>;
}

export function testCertificate(): { dir: string; keyFile: string; certFile: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "seed-smtp-cert-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
    ],
    { stdio: "ignore" },
  );
  return { dir, keyFile, certFile };
}

export async function startTestSmtp(
  options: Partial<SMTPServerOptions> & { password?: string } = {},
): Promise<TestSmtp> {
  const certificate = testCertificate();
  const received: ReceivedMail[] = [];
  const logins: TestSmtp["logins"] = [];
  const user = "reports";
  const password = options.password ?? "s3cret: with spaces & % signs";
  const server = new SMTPServer({
    key: readFileSync(certificate.keyFile),
    cert: readFileSync(certificate.certFile),
    authMethods: ["PLAIN", "LOGIN"],
    size: 10 * 1024 * 1024,
    logger: false,
    onAuth(auth, session, callback) {
      logins.push({ user: auth.username ?? "", secure: session.secure });
      if (auth.username === user && auth.password === password) callback(null, { user });
      else
        callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks),
          secure: session.secure,
          user: session.user as string | undefined,
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    caFile: certificate.certFile,
    user,
    password,
    received,
    logins,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          rmSync(certificate.dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/** The environment that points the app at a test server. */
export function smtpEnv(
  smtp: TestSmtp,
  extra: Record<string, string> = {},
): Record<string, string> {
  const user = encodeURIComponent(smtp.user);
  const password = encodeURIComponent(smtp.password);
  return {
    SEED_SMTP_URL: `smtp://${user}:${password}@127.0.0.1:${smtp.port}`,
    SEED_MAIL_FROM: "Seed reports <reports@seed.test>",
    SEED_SMTP_CA_FILE: smtp.caFile,
    ...extra,
  };
}
