import { checkEmailAddress, normalizeMailDomain } from "@seed/model";
import fc from "fast-check";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMailer,
  describeMailSettings,
  type MailSettings,
  MailSettingsError,
  mailSettingsFromEnv,
  mailSubject,
} from "../src/index.js";
import { smtpEnv, startTestSmtp, type TestSmtp } from "./smtp-server.js";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`[@seed/store mail] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`);

// A 1x1 PNG and a one-page PDF's first bytes: the mail layer carries bytes, it does not read them.
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const pdf = Buffer.from("%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

/** A message with nothing in it, for tests of what happens before it is read. */
const plainMessage = {
  to: "bob@example.com",
  subject: "x",
  text: "x",
  html: "x",
  unsubscribeUrl: "https://seed.test/u",
};

/** A mailer on a test server's settings, used for one send. */
async function sendOnce(settings: MailSettings) {
  const mailer = createMailer(settings);
  try {
    return await mailer.send(plainMessage);
  } finally {
    mailer.close();
  }
}

function settingsFor(smtp: TestSmtp, extra: Record<string, string> = {}) {
  const settings = mailSettingsFromEnv(smtpEnv(smtp, extra));
  if (!settings) throw new Error("no settings");
  return settings;
}

describe("mail over a real SMTP server", () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("sends one report to one recipient: inline chart images, a PDF and a one-click unsubscribe, over STARTTLS", async () => {
    const mailer = createMailer(settingsFor(smtp));
    const before = smtp.received.length;
    const outcome = await mailer.send({
      to: "Bob@Example.com",
      subject: "Weekly sales",
      text: "Weekly sales\nOpen: https://seed.test/d/sales",
      html: '<h1>Weekly sales</h1><img src="cid:chart-1" alt="Revenue by month">',
      images: [{ cid: "chart-1", filename: "revenue.png", content: png }],
      attachments: [{ filename: "weekly-sales.pdf", contentType: "application/pdf", content: pdf }],
      unsubscribeUrl: "https://seed.test/unsubscribe/abc",
    });
    mailer.close();
    expect(outcome.ok).toBe(true);
    const mail = smtp.received[before];
    expect(smtp.received).toHaveLength(before + 1);
    expect(mail?.to).toEqual(["Bob@example.com"]);
    expect(mail?.from).toBe("reports@seed.test");
    expect(mail?.secure).toBe(true);
    expect(mail?.user).toBe("reports");
    const parsed = await simpleParser(mail?.raw ?? Buffer.alloc(0));
    expect(parsed.subject).toBe("Weekly sales");
    expect(parsed.from?.text).toBe('"Seed reports" <reports@seed.test>');
    const head = (mail?.raw ?? Buffer.alloc(0)).toString("latin1").split("\r\n\r\n")[0] ?? "";
    expect(head).toContain("\r\nList-Unsubscribe: <https://seed.test/unsubscribe/abc>\r\n");
    expect(head).toContain("\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
    expect(head).toMatch(/^Auto-Submitted: auto-generated\r\n/);
    const image = parsed.attachments.find((attachment) => attachment.contentType === "image/png");
    expect(image?.cid).toBe("chart-1");
    expect(image?.contentDisposition).toBe("inline");
    expect(image?.content.equals(png)).toBe(true);
    const document = parsed.attachments.find(
      (attachment) => attachment.contentType === "application/pdf",
    );
    expect(document?.filename).toBe("weekly-sales.pdf");
    expect(document?.content.equals(pdf)).toBe(true);
    // The reader resolved the HTML's cid:chart-1 to the attached image itself.
    expect(String(parsed.html)).toContain(`src="data:image/png;base64,${png.toString("base64")}"`);
  });

  it("never sends the password without TLS: a server offering no STARTTLS gets no login and no mail", async () => {
    // The server would take a password in clear; the client must not give it.
    const plain = await startTestSmtp({ disabledCommands: ["STARTTLS"], allowInsecureAuth: true });
    try {
      const outcome = await sendOnce(settingsFor(plain));
      expect(outcome).toMatchObject({ ok: false });
      expect(plain.logins).toEqual([]);
      expect(plain.received).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it("refuses a certificate nobody vouches for, before any login", async () => {
    const settings = settingsFor(smtp);
    const loginsBefore = smtp.logins.length;
    const outcome = await sendOnce({ ...settings, ca: null });
    expect(outcome).toMatchObject({ ok: false, retry: true });
    expect(smtp.logins.length).toBe(loginsBefore);
  });

  it("says a wrong password is final and never repeats it; a busy server is retried, a refusal is not", async () => {
    const settings = settingsFor(smtp);
    const refused = await sendOnce({ ...settings, password: "wrong-password-123" });
    expect(refused).toMatchObject({ ok: false, retry: false });
    expect(JSON.stringify(refused)).not.toContain("wrong-password-123");

    for (const [code, retry] of [
      [451, true],
      [550, false],
    ] as const) {
      const picky = await startTestSmtp({
        onRcptTo(_address, _session, callback) {
          callback(Object.assign(new Error(`${code} not now`), { responseCode: code }));
        },
      });
      try {
        const outcome = await sendOnce(settingsFor(picky));
        expect(outcome).toMatchObject({ ok: false, retry });
        expect(picky.received).toEqual([]);
      } finally {
        await picky.close();
      }
    }
  });

  it("delivers to exactly the one address it checked, whatever the subject and address hold", async () => {
    const mailer = createMailer(settingsFor(smtp));
    const tricky = fc.constantFrom(
      "\r\n",
      "\n",
      "Bcc: eve@evil.test",
      ",",
      ";",
      "<eve@evil.test>",
      '"',
      "=?utf-8?b?",
      "\u2028",
      "é",
      "\u0000",
      " ",
    );
    const text = fc
      .array(fc.oneof(tricky, fc.string({ maxLength: 8 })), { maxLength: 6 })
      .map((parts) => parts.join(""));
    const address = fc.oneof(
      fc
        .tuple(text, fc.constantFrom("bob@example.com", "ana@sub.example.org"))
        .map(([junk, good]) => `${good}${junk}`),
      fc.constantFrom("bob@example.com", "a.b+c@example.org"),
    );
    try {
      await fc.assert(
        fc.asyncProperty(address, text, async (to, subject) => {
          const before = smtp.received.length;
          const outcome = await mailer.send({
            to,
            subject,
            text: subject,
            html: "<p>report</p>",
            unsubscribeUrl: "https://seed.test/u",
          });
          const checked = checkEmailAddress(to);
          if (!checked.ok) {
            expect(outcome.ok).toBe(false);
            expect(smtp.received.length).toBe(before);
            return;
          }
          expect(outcome.ok).toBe(true);
          const mail = smtp.received[before];
          // The server shows an IDN domain in Unicode; its ASCII form is the one checked.
          expect(
            mail?.to.map((rcpt) => {
              const at = rcpt.lastIndexOf("@");
              return `${rcpt.slice(0, at)}@${normalizeMailDomain(rcpt.slice(at + 1))}`;
            }),
          ).toEqual([checked.address]);
          const parsed = await simpleParser(mail?.raw ?? Buffer.alloc(0));
          expect(parsed.bcc).toBeUndefined();
          expect(parsed.cc).toBeUndefined();
          expect(parsed.headers.has("bcc")).toBe(false);
          expect(parsed.subject ?? "").toBe(mailSubject(subject));
        }),
        { seed, numRuns: 40 },
      );
    } finally {
      mailer.close();
    }
  });
});

describe("mail settings from the environment", () => {
  it("names the variable at fault, in words", () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ SEED_SMTP_URL: "mail.example.com" }, "SEED_SMTP_URL", "is not a URL"],
      [{ SEED_SMTP_URL: "http://mail.example.com" }, "SEED_SMTP_URL", "use smtp://"],
      [
        { SEED_SMTP_URL: "smtp://mail.example.com/?secure=false" },
        "SEED_SMTP_URL",
        "own variables",
      ],
      [{ SEED_SMTP_URL: "smtp://mail.example.com" }, "SEED_MAIL_FROM", "is not set"],
      [
        { SEED_SMTP_URL: "smtp://mail.example.com", SEED_MAIL_FROM: "Reports <not an address>" },
        "SEED_MAIL_FROM",
        "is not a sender",
      ],
      [
        {
          SEED_SMTP_URL: "smtp://mail.example.com",
          SEED_MAIL_FROM: "a@b.test",
          SEED_SMTP_TLS: "off",
        },
        "SEED_SMTP_TLS",
        "in clear",
      ],
      [
        {
          SEED_SMTP_URL: "smtp://mail.example.com",
          SEED_MAIL_FROM: "a@b.test",
          SEED_SMTP_CA_FILE: "/nonexistent.pem",
        },
        "SEED_SMTP_CA_FILE",
        "cannot be read",
      ],
    ];
    for (const [env, variable, words] of cases) {
      let error: unknown;
      try {
        mailSettingsFromEnv(env);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(MailSettingsError);
      expect((error as MailSettingsError).variable).toBe(variable);
      expect((error as Error).message).toContain(words);
    }
    expect(mailSettingsFromEnv({})).toBeNull();
    const local = mailSettingsFromEnv({
      SEED_SMTP_URL: "smtp://127.0.0.1:25",
      SEED_MAIL_FROM: "a@b.test",
      SEED_SMTP_TLS: "off",
    });
    expect(local).toMatchObject({ plain: true, port: 25, user: null });
  });

  it("reads any password exactly and never shows it", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 6, maxLength: 40, unit: "grapheme" }), (password) => {
        const env = {
          SEED_SMTP_URL: `smtps://user:${encodeURIComponent(password)}@mail.example.com`,
          SEED_MAIL_FROM: '"Seed" <reports@example.com>',
        };
        const settings = mailSettingsFromEnv(env);
        expect(settings?.password).toBe(password);
        expect(settings ? describeMailSettings(settings) : "").not.toContain(password);
        for (const broken of [
          { ...env, SEED_MAIL_FROM: "" },
          { ...env, SEED_SMTP_TLS: "off" },
        ]) {
          expect(() => mailSettingsFromEnv(broken)).toThrow(MailSettingsError);
          try {
            mailSettingsFromEnv(broken);
          } catch (error) {
            expect((error as Error).message).not.toContain(password);
          }
        }
      }),
      { seed, numRuns: 300 },
    );
  });
});
