import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createMailer,
  demoDashboardSlug,
  type Mailer,
  mailSettingsFromEnv,
  openStore,
  type Store,
} from "@seed/store";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The store's real SMTP test server (smtp-server with an openssl certificate), one home for both.
import {
  smtpEnv,
  startTestSmtp,
  type TestSmtp,
} from "../../../../../packages/store/test/smtp-server";
import { sendReport } from "./send-report";

let dataDir: string;
let store: Store;
let smtp: TestSmtp;
let mailer: Mailer;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "seed-send-report-"));
  store = await openStore({ dataDir, databaseUrl: null });
  smtp = await startTestSmtp();
  const settings = mailSettingsFromEnv(smtpEnv(smtp));
  if (!settings) throw new Error("no mail settings");
  mailer = createMailer(settings);
});

afterAll(async () => {
  mailer.close();
  await smtp.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a scheduled report's run", () => {
  it("mails each recipient their own message: every chart inline, the PDF, the link back and their unsubscribe link", async () => {
    const before = smtp.received.length;
    const rendered = await store.getDashboardBySlug(demoDashboardSlug);
    const chartTitles = (rendered?.tiles ?? []).flatMap((tile) =>
      tile.kind === "chart" ? [tile.chart.title] : [],
    );
    const marks: string[] = [];
    const result = await sendReport(store, mailer, {
      dashboardSlug: demoDashboardSlug,
      filterQuery: "not-a-filter=1",
      recipients: ["ana@example.com", "bob@example.org"],
      scheduleText: "Every Monday at 08:00 (Europe/Paris)",
      baseUrl: "https://seed.test/",
      unsubscribeUrl: (recipient) =>
        `https://seed.test/unsubscribe/${encodeURIComponent(recipient)}`,
      onSent: async (recipient) => {
        marks.push(recipient);
      },
      now: new Date("2026-11-30T07:00:00Z"),
    });
    expect(result).toEqual({
      sent: ["ana@example.com", "bob@example.org"],
      failed: [],
      missing: null,
    });
    expect(marks).toEqual(["ana@example.com", "bob@example.org"]);
    const mails = smtp.received.slice(before);
    expect(mails.map((mail) => mail.to)).toEqual([["ana@example.com"], ["bob@example.org"]]);
    for (const mail of mails) {
      const parsed = await simpleParser(mail.raw);
      const recipient = mail.to[0] ?? "";
      expect(parsed.subject).toBe(`${rendered?.dashboard.title} (2026-11-30)`);
      const images = parsed.attachments.filter((part) => part.contentType === "image/png");
      expect(images).toHaveLength(chartTitles.length);
      expect(
        images.every(
          (image) => image.contentDisposition === "inline" && image.content.length > 1_000,
        ),
      ).toBe(true);
      const pdf = parsed.attachments.find((part) => part.contentType === "application/pdf");
      expect(pdf?.filename).toBe(`${demoDashboardSlug}.pdf`);
      expect(pdf?.content.subarray(0, 5).toString()).toBe("%PDF-");
      // A made-up filter is not applied, so the link carries none.
      expect(parsed.text).toContain(
        `Open the dashboard: https://seed.test/d/${demoDashboardSlug}\n`,
      );
      expect(parsed.text).toContain(
        `Unsubscribe: https://seed.test/unsubscribe/${encodeURIComponent(recipient)}`,
      );
      for (const title of chartTitles) expect(parsed.text).toContain(`- ${title}`);
    }
  });

  it("skips recipients an earlier try sent to, and says who failed and whether a retry may pass", async () => {
    const picky = await startTestSmtp({
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith("busy")) {
          callback(Object.assign(new Error("451 mailbox busy"), { responseCode: 451 }));
        } else callback();
      },
    });
    const settings = mailSettingsFromEnv(smtpEnv(picky));
    if (!settings) throw new Error("no mail settings");
    const pickyMailer = createMailer(settings);
    try {
      const result = await sendReport(store, pickyMailer, {
        dashboardSlug: demoDashboardSlug,
        filterQuery: "",
        recipients: ["ana@example.com", "busy@example.com", "cy@example.com"],
        scheduleText: "Every day at 08:00 (UTC)",
        baseUrl: "https://seed.test",
        unsubscribeUrl: () => "https://seed.test/unsubscribe/x",
        alreadySent: new Set(["ana@example.com"]),
      });
      expect(result.sent).toEqual(["cy@example.com"]);
      expect(result.failed.map((failure) => [failure.recipient, failure.outcome.retry])).toEqual([
        ["busy@example.com", true],
      ]);
      expect(picky.received.map((mail) => mail.to)).toEqual([["cy@example.com"]]);
    } finally {
      pickyMailer.close();
      await picky.close();
    }
  });

  it("sends nothing for a dashboard that is not published, and says so", async () => {
    const before = smtp.received.length;
    const result = await sendReport(store, mailer, {
      dashboardSlug: "no-such-dashboard",
      filterQuery: "",
      recipients: ["ana@example.com"],
      scheduleText: "Every day at 08:00 (UTC)",
      baseUrl: "https://seed.test",
      unsubscribeUrl: () => "https://seed.test/unsubscribe/x",
    });
    expect(result).toEqual({
      sent: [],
      failed: [],
      missing: "The dashboard no-such-dashboard is not published.",
    });
    expect(smtp.received.length).toBe(before);
  });
});
