import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type Actor,
  createMailer,
  demoDashboardSlug,
  type JobQueue,
  type Mailer,
  mailSettingsFromEnv,
  openStore,
  type Store,
} from "@seed/store";
import { simpleParser } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
// The store's real SMTP test server (smtp-server with an openssl certificate), one home for both.
import {
  smtpEnv,
  startTestSmtp,
  type TestSmtp,
} from "../../../../../packages/store/test/smtp-server";
import {
  createThrowawayDatabase,
  startThrowawayPostgres,
} from "../../../../../scripts/throwaway-postgres.mjs";
import { type ReportScheduler, reportJobKey, reportQueue, startReportScheduler } from "./scheduler";

// The scheduler end to end below the web pages: a real store on a clock the test moves, the real
// job queue (the jobs table on SQLite, pg-boss on PostgreSQL) and a real SMTP server. A report
// arrives once per scheduled day at its local time, across both of a year's clock changes, a
// failed recipient is tried again without anyone mailed twice, and two instances on one
// PostgreSQL send each run once.

const owner: Actor = { id: "owner-1", email: "owner@example.com", role: "editor" };
const admin: Actor = { id: "admin-1", email: "admin@example.com", role: "admin" };
const minute = 60_000;
const fast = { pollMs: 50, retryDelayMs: 1_000, leaseMs: 30_000 };

function movableClock(start: string) {
  let now = Date.parse(start);
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

let smtp: TestSmtp;
let mailer: Mailer;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  // A recipient at flaky.example.org is refused once with a temporary error (451), then taken.
  const refusedOnce = new Set<string>();
  smtp = await startTestSmtp({
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith("@flaky.example.org") && !refusedOnce.has(address.address)) {
        refusedOnce.add(address.address);
        callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        return;
      }
      callback();
    },
  });
  const settings = mailSettingsFromEnv(smtpEnv(smtp));
  if (!settings) throw new Error("no mail settings");
  mailer = createMailer(settings);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  mailer.close();
  await smtp.close();
});

async function openOn(
  databaseUrl: string | null,
  clock: { now: () => Date },
  dataDir?: string,
): Promise<Store> {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), "seed-scheduler-"));
  const store = await openStore({ dataDir: dir, databaseUrl, now: clock.now });
  cleanups.push(async () => {
    await store.close();
    if (!dataDir) rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

/** The demo dashboard, read in Paris, and a daily report of it to the owner and `others`. */
async function parisReport(store: Store, time: string, others: string[] = []) {
  const demo = (await store.listDashboards()).find((one) => one.slug === demoDashboardSlug);
  if (!demo) throw new Error("no demo dashboard");
  const current = await store.getDashboard(demo.id);
  await store.updateDashboard(demo.id, current?.version ?? 0, { timeZone: "Europe/Paris" }, admin);
  await store.setAllowedMailDomains(admin, { domains: ["example.org", "flaky.example.org"] });
  return store.createReport(
    {
      name: "Demo",
      dashboardId: demo.id,
      schedule: { every: "day", time },
      recipients: [owner.email, ...others],
    },
    owner,
  );
}

async function schedulerOn(store: Store, clock: { now: () => Date }, queue?: JobQueue) {
  const scheduler = await startReportScheduler(store, queue ?? (await store.openJobQueue(fast)), {
    mailer,
    baseUrl: "https://seed.test",
    now: clock.now,
    tickMs: 3_600_000,
  });
  cleanups.push(() => scheduler.stop());
  return scheduler;
}

/** Ticks, then waits until every run that was due has finished (done or waiting to retry). */
async function tickAndSettle(store: Store, scheduler: ReportScheduler, queue: JobQueue) {
  const due = await store.dueReports();
  await scheduler.tick();
  for (const { reportId, dueAt } of due) {
    await expect
      .poll(async () => (await queue.status(reportQueue, reportJobKey(reportId, dueAt)))?.state, {
        timeout: 30_000,
      })
      .toMatch(/done|retrying|failed/);
  }
}

const paris = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Paris",
  dateStyle: "short",
  timeStyle: "short",
});

describe("scheduled reports on the embedded store", () => {
  it.each([
    {
      night: "clocks go forward (29 March 2026)",
      start: "2026-03-27T23:00:00.000Z",
      // 02:30 does not exist on the 29th: it is sent at 03:30, once.
      expected: ["28/03/2026, 02:30", "29/03/2026, 03:30", "30/03/2026, 02:30"],
      utc: ["2026-03-28T01:30:00.000Z", "2026-03-29T01:30:00.000Z", "2026-03-30T00:30:00.000Z"],
    },
    {
      night: "clocks go back (25 October 2026)",
      start: "2026-10-23T22:00:00.000Z",
      // 02:30 happens twice on the 25th: it is sent at the first, once.
      expected: ["24/10/2026, 02:30", "25/10/2026, 02:30", "26/10/2026, 02:30"],
      utc: ["2026-10-24T00:30:00.000Z", "2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"],
    },
  ])(
    "sends a daily 02:30 report once a day at its local time when $night",
    async ({ start, expected, utc }) => {
      const clock = movableClock(start);
      const store = await openOn(null, clock);
      const report = await parisReport(store, "02:30", ["ann@example.org"]);
      const queue = await store.openJobQueue(fast);
      const scheduler = await schedulerOn(store, clock, queue);
      const before = smtp.received.length;
      const step = 15 * minute;
      const arrivals: { at: number; to: string }[] = [];
      for (let at = 0; at < 3 * 24 * 60 * minute; at += step) {
        clock.advance(step);
        await tickAndSettle(store, scheduler, queue);
        for (const mail of smtp.received.slice(before + arrivals.length)) {
          arrivals.push({ at: clock.now().getTime(), to: mail.to.join() });
        }
      }
      const runs = (await store.listAuditEvents({ action: "report.send" })).events
        .filter((event) => event.entityId === report.id)
        .map((event) => String(event.detail.dueAt))
        .reverse();
      expect(runs.map((due) => paris.format(new Date(due)))).toEqual(expected);
      expect(runs).toEqual(utc);
      // Each run reached both recipients once, within the quarter hour after it was due.
      expect(arrivals).toHaveLength(expected.length * 2);
      for (const [index, due] of runs.entries()) {
        const mine = arrivals.slice(index * 2, index * 2 + 2);
        expect(mine.map((arrival) => arrival.to).sort()).toEqual(["ann@example.org", owner.email]);
        for (const arrival of mine) {
          expect(arrival.at - Date.parse(due)).toBeGreaterThanOrEqual(0);
          expect(arrival.at - Date.parse(due)).toBeLessThanOrEqual(step);
        }
      }
      const last = smtp.received.at(-1);
      const parsed = await simpleParser(last?.raw ?? Buffer.alloc(0));
      expect(parsed.attachments.some((part) => part.contentType === "application/pdf")).toBe(true);
      expect(parsed.text).toContain("https://seed.test/unsubscribe/");
    },
  );

  it("tries a recipient refused for now again, without mailing anyone twice", async () => {
    const clock = movableClock("2026-06-01T05:00:00.000Z");
    const store = await openOn(null, clock);
    const report = await parisReport(store, "08:00", ["ops@flaky.example.org"]);
    const queue = await store.openJobQueue(fast);
    const scheduler = await schedulerOn(store, clock, queue);
    const before = smtp.received.length;
    clock.advance(60 * minute);
    await tickAndSettle(store, scheduler, queue);
    const key = reportJobKey(report.id, report.nextRunAt as string);
    expect(await queue.status(reportQueue, key)).toMatchObject({ state: "retrying", tries: 1 });
    expect(await store.getReport(report.id, owner)).toMatchObject({ lastStatus: "partial" });
    expect(smtp.received.slice(before).map((mail) => mail.to.join())).toEqual([owner.email]);
    // The retry falls due on the queue's clock (the store's), a second later.
    clock.advance(2_000);
    await expect
      .poll(async () => (await queue.status(reportQueue, key))?.state, { timeout: 30_000 })
      .toBe("done");
    expect(
      smtp.received
        .slice(before)
        .map((mail) => mail.to.join())
        .sort(),
    ).toEqual(["ops@flaky.example.org", owner.email]);
    expect(await store.getReport(report.id, owner)).toMatchObject({
      lastStatus: "sent",
      lastError: null,
    });
  });
});

describe("scheduled reports on two instances of one PostgreSQL", () => {
  it("sends each run of each report once, whichever instance ticks", async () => {
    const cluster = startThrowawayPostgres({ prefix: "seed-pg-scheduler-" });
    cleanups.push(() => cluster.stop());
    const databaseUrl = createThrowawayDatabase(cluster.url, "seed_scheduler");
    const clock = movableClock("2026-06-01T05:00:00.000Z");
    const first = await openOn(databaseUrl, clock);
    const second = await openOn(databaseUrl, clock);
    const reports = [
      await parisReport(first, "07:00", ["a@example.org"]),
      await parisReport(first, "07:00", ["b@example.org"]),
      await parisReport(first, "07:30", ["c@example.org"]),
    ];
    const queues = [await first.openJobQueue(fast), await second.openJobQueue(fast)];
    const schedulers = [
      await schedulerOn(first, clock, queues[0]),
      await schedulerOn(second, clock, queues[1]),
    ];
    const before = smtp.received.length;
    for (let step = 0; step < 2 * 24 * 2; step += 1) {
      clock.advance(30 * minute);
      const due = await first.dueReports();
      // Both instances tick at the same moment.
      await Promise.all(schedulers.map((scheduler) => scheduler.tick()));
      for (const { reportId, dueAt } of due) {
        await expect
          .poll(
            async () =>
              (await queues[0]?.status(reportQueue, reportJobKey(reportId, dueAt)))?.state,
            {
              timeout: 30_000,
            },
          )
          .toBe("done");
      }
    }
    const mails = smtp.received.slice(before).map((mail) => mail.to.join());
    // Two days, three reports of two recipients each: twelve messages, nobody twice a day.
    expect(mails).toHaveLength(12);
    for (const address of ["a@example.org", "b@example.org", "c@example.org"]) {
      expect(mails.filter((to) => to === address)).toHaveLength(2);
    }
    expect(mails.filter((to) => to === owner.email)).toHaveLength(6);
    for (const report of reports) {
      expect(await first.getReport(report.id, owner)).toMatchObject({ lastStatus: "sent" });
    }
  });
});
