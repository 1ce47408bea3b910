import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { rootCertificates } from "node:tls";
import { checkEmailAddress } from "@seed/model";
import nodemailer from "nodemailer";

// Mail over SMTP with nodemailer. The server comes from the environment, TLS is required unless
// the server is a relay on this machine, and every message goes to exactly one checked address:
// the envelope is ours, never read back from headers.

export interface MailSettings {
  host: string;
  port: number;
  /** Implicit TLS (smtps://, usually port 465); otherwise STARTTLS is required unless `plain`. */
  secure: boolean;
  /** No TLS at all: only for a relay on this machine (SEED_SMTP_TLS=off). */
  plain: boolean;
  user: string | null;
  password: string | null;
  from: { name: string; address: string };
  /** Extra certificate authorities to trust (SEED_SMTP_CA_FILE), beside the system's. */
  ca: string | null;
}

export class MailSettingsError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = "MailSettingsError";
  }
}

/** C0 and C1 controls, DEL and the Unicode line and paragraph separators. */
function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0x2028 || code === 0x2029;
}

/** Each run of control characters becomes one `replacement`. */
function replaceControls(text: string, replacement: string): string {
  let out = "";
  let inRun = false;
  for (const char of text) {
    if (isControl(char)) {
      if (!inRun) out += replacement;
      inRun = true;
    } else {
      out += char;
      inRun = false;
    }
  }
  return out;
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

function isLoopback(host: string): boolean {
  return loopbackHosts.has(host) || (isIP(host) === 4 && host.startsWith("127."));
}

/**
 * Reads SEED_SMTP_URL (smtp://user:password@host:587 or smtps://...:465), SEED_MAIL_FROM
 * ("Seed reports <reports@example.com>"), SEED_SMTP_TLS (off: a relay on this machine only) and
 * SEED_SMTP_CA_FILE. Null when no server is set: the app then sends no mail and says so.
 * Messages name the variable and never repeat the password.
 */
export function mailSettingsFromEnv(env: Record<string, string | undefined>): MailSettings | null {
  const urlText = env.SEED_SMTP_URL?.trim();
  if (!urlText) return null;
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new MailSettingsError(
      "SEED_SMTP_URL",
      "SEED_SMTP_URL is not a URL: write smtp://user:password@host:587 or smtps://user:password@host:465.",
    );
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new MailSettingsError(
      "SEED_SMTP_URL",
      `SEED_SMTP_URL starts with ${url.protocol}//: use smtp:// (STARTTLS) or smtps:// (TLS).`,
    );
  }
  if (url.pathname.replace(/^\/+/, "") || url.search || url.hash) {
    throw new MailSettingsError(
      "SEED_SMTP_URL",
      "SEED_SMTP_URL holds a path or options after the host; settings go in their own variables.",
    );
  }
  const host = url.hostname;
  if (!host) throw new MailSettingsError("SEED_SMTP_URL", "SEED_SMTP_URL names no host.");
  const secure = url.protocol === "smtps:";
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const tls = env.SEED_SMTP_TLS?.trim().toLowerCase() || "required";
  if (tls !== "required" && tls !== "off") {
    throw new MailSettingsError(
      "SEED_SMTP_TLS",
      "SEED_SMTP_TLS is either required (the default) or off.",
    );
  }
  const plain = tls === "off";
  if (plain && (secure || !isLoopback(host))) {
    throw new MailSettingsError(
      "SEED_SMTP_TLS",
      secure
        ? "SEED_SMTP_TLS=off contradicts smtps://; remove one."
        : `SEED_SMTP_TLS=off is only for a relay on this machine, and ${host} is not: mail and its password would cross the network in clear.`,
    );
  }
  const fromText = env.SEED_MAIL_FROM?.trim();
  if (!fromText) {
    throw new MailSettingsError(
      "SEED_MAIL_FROM",
      'SEED_MAIL_FROM is not set: write the sender, such as "Seed reports <reports@example.com>".',
    );
  }
  const match = /^(?:(.*?)\s*<([^<>]+)>|([^<>\s]+))$/.exec(fromText);
  const fromAddress = checkEmailAddress(match?.[2] ?? match?.[3] ?? "");
  const fromName = (match?.[1] ?? "").replace(/^"|"$/g, "").trim();
  if (!fromAddress.ok || [...fromName].some(isControl) || fromName.length > 100) {
    throw new MailSettingsError(
      "SEED_MAIL_FROM",
      'SEED_MAIL_FROM is not a sender such as "Seed reports <reports@example.com>".',
    );
  }
  let ca: string | null = null;
  const caFile = env.SEED_SMTP_CA_FILE?.trim();
  if (caFile) {
    try {
      ca = readFileSync(caFile, "utf8");
    } catch {
      throw new MailSettingsError(
        "SEED_SMTP_CA_FILE",
        `SEED_SMTP_CA_FILE ${caFile} cannot be read.`,
      );
    }
    if (!ca.includes("-----BEGIN CERTIFICATE-----")) {
      throw new MailSettingsError(
        "SEED_SMTP_CA_FILE",
        `SEED_SMTP_CA_FILE ${caFile} holds no PEM certificate.`,
      );
    }
  }
  return {
    host,
    port,
    secure,
    plain,
    user: url.username ? decodeURIComponent(url.username) : null,
    password: url.password ? decodeURIComponent(url.password) : null,
    from: { name: fromName, address: fromAddress.address },
    ca,
  };
}

/** What an admin page may show of the settings: never the password. */
export function describeMailSettings(settings: MailSettings): string {
  const tls = settings.plain ? "no TLS (local relay)" : settings.secure ? "TLS" : "STARTTLS";
  const from = settings.from.name
    ? `${settings.from.name} <${settings.from.address}>`
    : settings.from.address;
  return `${settings.host}:${settings.port}, ${tls}${settings.user ? `, as ${settings.user}` : ""}, from ${from}`;
}

export interface MailImage {
  /** Referenced from the HTML as cid:<cid>. */
  cid: string;
  filename: string;
  content: Buffer;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailMessage {
  /** One recipient; each gets a message of their own, with their own unsubscribe link. */
  to: string;
  subject: string;
  text: string;
  html: string;
  images?: MailImage[];
  attachments?: MailAttachment[];
  /** RFC 8058 one-click unsubscribe, and the link the message's footer shows. */
  unsubscribeUrl: string;
}

export type DeliveryOutcome =
  | { ok: true; id: string }
  /** `retry`: a failure that may pass (a network error, a busy server); else it will not. */
  | { ok: false; retry: boolean; reason: string };

export interface Mailer {
  send(message: MailMessage): Promise<DeliveryOutcome>;
  close(): void;
}

/** A subject is one line: control characters (a line break a name could carry) become spaces. */
export function mailSubject(text: string): string {
  // Cut by characters, never through a surrogate pair.
  return [...replaceControls(text, " ").trim()].slice(0, 200).join("");
}

export function createMailer(settings: MailSettings): Mailer {
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: !settings.secure && !settings.plain,
    ignoreTLS: settings.plain,
    auth:
      settings.user !== null ? { user: settings.user, pass: settings.password ?? "" } : undefined,
    tls: {
      minVersion: "TLSv1.2",
      ...(settings.ca ? { ca: [...rootCertificates, settings.ca] } : {}),
    },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(message) {
      const to = checkEmailAddress(message.to);
      if (!to.ok)
        return {
          ok: false,
          retry: false,
          reason: `Not sent to ${JSON.stringify(message.to)}: ${to.reason}`,
        };
      try {
        const info = await transport.sendMail({
          from: { name: settings.from.name, address: settings.from.address },
          to: { name: "", address: to.address },
          envelope: { from: settings.from.address, to: [to.address] },
          subject: mailSubject(message.subject),
          text: message.text,
          html: message.html,
          headers: {
            "Auto-Submitted": "auto-generated",
            "List-Unsubscribe": `<${message.unsubscribeUrl}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
          attachments: [
            ...(message.images ?? []).map((image) => ({
              cid: image.cid,
              filename: image.filename,
              content: image.content,
              contentType: "image/png",
              contentDisposition: "inline" as const,
            })),
            ...(message.attachments ?? []).map((attachment) => ({
              filename: attachment.filename,
              content: attachment.content,
              contentType: attachment.contentType,
            })),
          ],
        });
        const refused = info.rejected.length > 0;
        if (refused)
          return { ok: false, retry: false, reason: `The mail server refused ${to.address}.` };
        return { ok: true, id: String(info.messageId ?? "") };
      } catch (error) {
        return mailFailure(error, settings);
      }
    },
    close() {
      transport.close();
    },
  };
}

function mailFailure(error: unknown, settings: MailSettings): DeliveryOutcome {
  const details = error as { responseCode?: number; code?: string; message?: string };
  const code = details.responseCode;
  // SMTP 4xx is "try again later"; 5xx is final. No answer at all (network, TLS) may pass too.
  const retry = code === undefined ? details.code !== "EAUTH" : code >= 400 && code < 500;
  let reason = String(details.message ?? error).slice(0, 500);
  if (settings.password) reason = reason.split(settings.password).join("***");
  if (details.code === "EAUTH")
    reason = `The mail server refused the user and password (${reason}).`;
  return { ok: false, retry, reason };
}
