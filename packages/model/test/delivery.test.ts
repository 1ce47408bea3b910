import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allowedMailDomainsSchema,
  checkEmailAddress,
  describeSchedule,
  nextScheduledRun,
  offsetAt,
  offsetSpans,
  type ReportSchedule,
  recipientRefusal,
  reportScheduleSchema,
} from "../src/index.js";

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
console.log(`delivery property seed: ${seed} (SEED=${seed} repeats it)`);

// Zones whose clocks do odd things: an hour forward and back, half an hour (Lord Howe), two
// hours (Troll), over midnight (Santiago, Havana, Asuncion), a negative "summer" (Dublin), a
// whole skipped day (Apia, 30 December 2011), Ramadan pauses (Casablanca), and none at all.
const zones = [
  "Europe/Paris",
  "America/New_York",
  "America/St_Johns",
  "Australia/Lord_Howe",
  "Antarctica/Troll",
  "America/Santiago",
  "America/Havana",
  "America/Asuncion",
  "Europe/Dublin",
  "Pacific/Apia",
  "Africa/Casablanca",
  "Asia/Kolkata",
  "UTC",
] as const;

const wallParts = new Map<string, Intl.DateTimeFormat>();
/** The wall clock of an instant in a zone, read by the runtime's own formatter. */
function wall(timeZone: string, ms: number) {
  let format = wallParts.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
    });
    wallParts.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    day: Number(parts.day),
    weekday: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(parts.weekday ?? "") + 1,
    time: `${parts.hour}:${parts.minute}`,
  };
}

const quarter = 15 * 60_000;
const hour = 3_600_000;

/**
 * The instants the clock first shows `time` on their local date (a time shown again after the
 * clocks go back is not a new showing), scanning at 15-minute steps.
 */
function showsTimeBetween(timeZone: string, time: string, from: number, to: number): number[] {
  const found: number[] = [];
  for (let at = Math.ceil(from / quarter) * quarter; at < to; at += quarter) {
    const here = wall(timeZone, at);
    if (here.time !== time) continue;
    let first = true;
    for (let back = at - quarter; back >= at - 3 * hour; back -= quarter) {
      const earlier = wall(timeZone, back);
      if (earlier.time === time && earlier.date === here.date) first = false;
    }
    if (first) found.push(at);
  }
  return found;
}

const scheduleArbitrary: fc.Arbitrary<ReportSchedule> = fc.oneof(
  fc.record({
    every: fc.constant("day" as const),
    time: fc.constantFrom(
      "00:00",
      "00:30",
      "01:00",
      "01:30",
      "02:00",
      "02:30",
      "03:00",
      "08:15",
      "23:00",
      "23:30",
      "23:45",
    ),
  }),
  fc.record({
    every: fc.constant("week" as const),
    weekday: fc.integer({ min: 1, max: 7 }),
    time: fc.constantFrom("00:00", "01:30", "02:30", "23:30"),
  }),
  fc.record({
    every: fc.constant("month" as const),
    dayOfMonth: fc.constantFrom(1, 15, 28, 29, 30, 31),
    time: fc.constantFrom("00:00", "02:30", "23:30"),
  }),
);

describe("report schedules", () => {
  it("send once per scheduled local day around every clock change: never twice, never skipped", () => {
    // Starts a little before a real transition of the zone, so every run meets one.
    const caseArbitrary = fc
      .record({
        timeZone: fc.constantFrom(...zones),
        year: fc.integer({ min: 1995, max: 2030 }),
        pick: fc.nat(),
        before: fc.integer({ min: 0, max: 40 * hour }),
        schedule: scheduleArbitrary,
      })
      .map((input) => {
        const spans = offsetSpans(
          input.timeZone,
          Date.UTC(input.year, 0, 1),
          Date.UTC(input.year + 1, 0, 1),
        ).slice(1);
        const apia = input.timeZone === "Pacific/Apia" && input.pick % 3 === 0;
        const transition = apia
          ? Date.UTC(2011, 11, 30, 10)
          : (spans[input.pick % Math.max(1, spans.length)]?.from ?? Date.UTC(input.year, 5, 1));
        return { ...input, start: transition - input.before };
      });
    fc.assert(
      fc.property(caseArbitrary, ({ timeZone, schedule, start }) => {
        const runs = [start];
        const count = schedule.every === "day" ? 4 : 2;
        for (let index = 0; index < count; index += 1) {
          runs.push(nextScheduledRun(schedule, timeZone, runs[runs.length - 1] ?? start));
        }
        for (let index = 1; index < runs.length; index += 1) {
          const previous = runs[index - 1] ?? 0;
          const run = runs[index] ?? 0;
          // Never twice: a day's report is at least a day's worth of hours after the last one.
          expect(run - previous).toBeGreaterThan(index === 1 ? 0 : 20 * hour);
          const here = wall(timeZone, run);
          if (here.time === schedule.time) {
            // At the time asked, at its first showing (the night clocks go back shows it twice).
            expect(wall(timeZone, run - hour).time === schedule.time).toBe(false);
            expect(showsTimeBetween(timeZone, schedule.time, run - 3 * hour, run)).toEqual([]);
          } else {
            // The time asked was skipped that day: the clocks jumped within the last three hours
            // (at most two hours forward, anywhere), and the time did not show since.
            expect(offsetAt(timeZone, run)).toBeGreaterThan(offsetAt(timeZone, run - 3 * hour));
            expect(showsTimeBetween(timeZone, schedule.time, run - 3 * hour, run)).toEqual([]);
          }
          // Never skipped: between two runs no scheduled day showed its time without a run.
          for (const shown of showsTimeBetween(timeZone, schedule.time, previous + 1, run)) {
            const day = wall(timeZone, shown);
            const scheduled =
              schedule.every === "day" ||
              (schedule.every === "week" && day.weekday === schedule.weekday) ||
              (schedule.every === "month" && day.day === schedule.dayOfMonth);
            expect(
              scheduled,
              `${timeZone} showed ${schedule.time} at ${new Date(shown).toISOString()} without a run`,
            ).toBe(false);
          }
          // A day skipped whole (Apia, 30 December 2011) sends its report at the next day's time.
          const dayMs = 86_400_000;
          const skippedDay =
            Date.parse(here.date) - Date.parse(wall(timeZone, run - dayMs).date) === 2 * dayMs;
          if (schedule.every === "week") {
            const dayBefore = ((here.weekday + 5) % 7) + 1;
            expect(skippedDay ? [here.weekday, dayBefore] : [here.weekday]).toContain(
              schedule.weekday,
            );
          }
          if (schedule.every === "month" && here.time === schedule.time) {
            const [year, month] = here.date.split("-").map(Number);
            const last = new Date(Date.UTC(year ?? 0, month ?? 0, 0)).getUTCDate();
            const wanted = Math.min(schedule.dayOfMonth, last);
            expect(skippedDay ? [here.day, here.day - 1] : [here.day]).toContain(wanted);
          }
        }
      }),
      { seed, numRuns: 300 },
    );
  });

  it("sends at 03:30 when 02:30 is skipped, and at the first 02:30 when it is shown twice", () => {
    const schedule = { every: "day", time: "02:30" } as const;
    // Paris, 31 March 2024: 02:00 became 03:00 (01:00 UTC).
    expect(
      new Date(nextScheduledRun(schedule, "Europe/Paris", Date.UTC(2024, 2, 30, 12))).toISOString(),
    ).toBe("2024-03-31T01:30:00.000Z");
    // Paris, 27 October 2024: 02:30 shows at 00:30 and 01:30 UTC; the report goes once, at 00:30.
    const back = nextScheduledRun(schedule, "Europe/Paris", Date.UTC(2024, 9, 26, 12));
    expect(new Date(back).toISOString()).toBe("2024-10-27T00:30:00.000Z");
    expect(new Date(nextScheduledRun(schedule, "Europe/Paris", back)).toISOString()).toBe(
      "2024-10-28T01:30:00.000Z",
    );
    // Apia skipped 30 December 2011 whole: the 29th's report, then the 31st's, nothing between.
    const apia = { every: "day", time: "09:00" } as const;
    const before = nextScheduledRun(apia, "Pacific/Apia", Date.UTC(2011, 11, 29, 12));
    const after = nextScheduledRun(apia, "Pacific/Apia", before);
    expect(wall("Pacific/Apia", before).date).toBe("2011-12-29");
    expect(wall("Pacific/Apia", after).date).toBe("2011-12-31");
  });

  it("runs a month's 31st on a shorter month's last day, and a missed run once", () => {
    const monthly = { every: "month", dayOfMonth: 31, time: "08:00" } as const;
    const feb = nextScheduledRun(monthly, "UTC", Date.UTC(2025, 1, 1));
    expect(new Date(feb).toISOString()).toBe("2025-02-28T08:00:00.000Z");
    // Down for ten days: the next run counts from now, once.
    const daily = { every: "day", time: "08:00" } as const;
    const now = Date.UTC(2025, 5, 11, 9);
    expect(new Date(nextScheduledRun(daily, "UTC", now)).toISOString()).toBe(
      "2025-06-12T08:00:00.000Z",
    );
  });

  it("refuses a schedule it cannot keep, field by field, and says one it can in words", () => {
    const bad = reportScheduleSchema.safeParse({ every: "month", dayOfMonth: 32, time: "24:00" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["dayOfMonth", "Choose a day of the month from 1 to 31."],
      ["time", "Choose a time such as 08:00 (24-hour, hh:mm)."],
    ]);
    expect(
      reportScheduleSchema.safeParse({ every: "hour", time: "08:00" }).error?.issues[0]?.message,
    ).toBe("Choose daily, weekly or monthly.");
    expect(describeSchedule({ every: "week", weekday: 1, time: "08:00" }, "Europe/Paris")).toBe(
      "Every Monday at 08:00 (Europe/Paris)",
    );
  });
});

describe("mail recipients", () => {
  const allowedDomains = ["example.com", "Bücher.example"];
  const userEmails = ["Ada@Users.test"];

  it("accepts users and allowed domains, in any case and in IDN form", () => {
    expect(recipientRefusal("bob@EXAMPLE.com", { userEmails, allowedDomains })).toBeNull();
    expect(recipientRefusal("ada@users.test", { userEmails, allowedDomains })).toBeNull();
    expect(recipientRefusal("x@xn--bcher-kva.example", { userEmails, allowedDomains })).toBeNull();
    expect(checkEmailAddress("Bob@EXAMPLE.com")).toEqual({
      ok: true,
      address: "Bob@example.com",
      key: "bob@example.com",
      domain: "example.com",
    });
    expect(recipientRefusal("eve@sub.example.com", { userEmails, allowedDomains })).toBe(
      "eve@sub.example.com is neither a user of this app nor in an allowed domain; an admin can allow sub.example.com.",
    );
  });

  it("accepts only an address whose one domain is allowed, however it is dressed up", () => {
    const pieces = fc.constantFrom(
      "a",
      "bob",
      ".",
      "@",
      "example.com",
      "EXAMPLE.COM",
      "example.com.",
      "evil.test",
      "ｅxample.com",
      "exаmple.com",
      ",",
      ";",
      " ",
      "\r\n",
      "\t",
      "<",
      ">",
      '"',
      "(",
      ")",
      "[",
      "]",
      "\\",
      ":",
      "%",
      "/",
      "?",
      "#",
      "Bcc: ",
      "=?utf-8?q?",
      "\u0000",
      "\u202e",
      "xn--",
      "-",
      "1.2.3.4",
      "localhost",
    );
    const candidate = fc.oneof(
      fc.array(pieces, { minLength: 1, maxLength: 8 }).map((parts) => parts.join("")),
      fc.tuple(fc.string({ maxLength: 12 }), pieces, pieces).map(([a, b, c]) => `${a}@${b}${c}`),
      fc.string({ unit: "binary", maxLength: 300 }),
    );
    fc.assert(
      fc.property(candidate, (text) => {
        if (recipientRefusal(text, { userEmails: [], allowedDomains: ["example.com"] }) !== null)
          return;
        const checked = checkEmailAddress(text);
        expect(checked.ok).toBe(true);
        if (!checked.ok) return;
        // One @, a domain that is exactly the allowed one, and nothing a mail library could read
        // as another recipient, a display name, a comment or a header.
        expect(checked.address.split("@")).toHaveLength(2);
        expect(checked.address.split("@")[1]).toBe("example.com");
        expect(
          [...checked.address].every((char) => /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~@-]$/.test(char)),
        ).toBe(true);
        expect(checked.address.length).toBeLessThanOrEqual(254);
      }),
      { seed, numRuns: 3_000 },
    );
  });

  it("keeps the admin's domain list in normal form and names each bad one", () => {
    expect(
      allowedMailDomainsSchema.parse([" Example.COM ", "example.com", "bücher.example"]),
    ).toEqual(["example.com", "xn--bcher-kva.example"]);
    const bad = allowedMailDomainsSchema.safeParse([
      "ok.test",
      "not a domain",
      "1.2.3.4",
      "@x.test",
    ]);
    expect(bad.error?.issues.map((issue) => issue.path[0])).toEqual([1, 2, 3]);
  });
});
