// @vitest-environment node
import { describe, expect, it } from "vitest";
import { createTimeFormatter, timeFormatOptions, timeTicks, zoneOffset } from "./format";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365.25 * DAY;

/** Wall-clock fields of `t` in `timeZone`. */
function wall(t: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    weekday: "short",
  }).formatToParts(t);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    month: Number(get("month")),
    day: Number(get("day")),
    hour: Number(get("hour")),
    minute: Number(get("minute")),
    second: Number(get("second")),
    weekday: get("weekday"),
  };
}

const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"];

describe("zoneOffset", () => {
  it("reads summer and winter time", () => {
    expect(zoneOffset(Date.UTC(2024, 0, 15), "Europe/Berlin")).toBe(HOUR);
    expect(zoneOffset(Date.UTC(2024, 6, 15), "Europe/Berlin")).toBe(2 * HOUR);
    expect(zoneOffset(Date.UTC(2024, 6, 15), "America/New_York")).toBe(-4 * HOUR);
    expect(zoneOffset(Date.UTC(2024, 6, 15), "Asia/Kolkata")).toBe(5.5 * HOUR);
  });
});

describe("timeTicks in the chart's time zone (issue 11)", () => {
  it("puts day ticks on local midnights across the spring DST change in Berlin", () => {
    const ticks = timeTicks(Date.UTC(2024, 2, 25), Date.UTC(2024, 3, 4), 12, "Europe/Berlin");

    // 00:00 UTC on the 25th is 01:00 in Berlin: the first local midnight is the 26th
    expect(ticks.map((t) => wall(t, "Europe/Berlin").day)).toEqual([
      26, 27, 28, 29, 30, 31, 1, 2, 3, 4,
    ]);
    for (const t of ticks) expect(wall(t, "Europe/Berlin")).toMatchObject({ hour: 0, minute: 0 });
    // the day of the change is 23 hours long
    expect((ticks[6] as number) - (ticks[5] as number)).toBe(23 * HOUR);
  });

  it("keeps hour ticks on round local hours through New York's fall-back night", () => {
    const ticks = timeTicks(
      Date.UTC(2024, 10, 3, 0),
      Date.UTC(2024, 10, 3, 14),
      8,
      "America/New_York",
    );

    expect(ticks.length).toBeGreaterThanOrEqual(3);
    const hours = ticks.map((t) => wall(t, "America/New_York"));
    for (const h of hours) expect(h).toMatchObject({ minute: 0, second: 0 });
    for (const h of hours) expect(h.hour % 3).toBe(0);
    expect(ticks).toEqual([...ticks].sort((a, b) => a - b));
  });

  it("puts month ticks on local firsts of the month and year ticks on local January 1sts", () => {
    const zone = "America/New_York";
    const months = timeTicks(Date.UTC(2024, 0, 10), Date.UTC(2024, 5, 10), 8, zone);
    expect(months.map((t) => wall(t, zone))).toEqual(
      [2, 3, 4, 5, 6].map((month) => expect.objectContaining({ month, day: 1, hour: 0 })),
    );
    const years = timeTicks(Date.UTC(2001, 5, 1), Date.UTC(2030, 5, 1), 8, zone);
    expect(years.length).toBeGreaterThanOrEqual(3);
    for (const t of years) expect(wall(t, zone)).toMatchObject({ month: 1, day: 1, hour: 0 });
  });

  const spans = [
    { name: "a minute", span: MINUTE, nice: (w: ReturnType<typeof wall>) => w.second % 5 === 0 },
    { name: "an hour", span: HOUR, nice: (w: ReturnType<typeof wall>) => w.second === 0 },
    { name: "a day", span: DAY, nice: (w: ReturnType<typeof wall>) => w.minute === 0 },
    { name: "ten days", span: 10 * DAY, nice: (w: ReturnType<typeof wall>) => w.hour === 0 },
    {
      name: "six weeks",
      span: 42 * DAY,
      nice: (w: ReturnType<typeof wall>) => w.weekday === "Mon" && w.hour === 0,
    },
    { name: "a year", span: YEAR, nice: (w: ReturnType<typeof wall>) => w.day === 1 },
    {
      name: "forty years",
      span: 40 * YEAR,
      nice: (w: ReturnType<typeof wall>) => w.month === 1 && w.day === 1 && w.hour === 0,
    },
  ];
  for (const { name, span, nice } of spans) {
    it(`gives nice, ordered ticks inside the range over ${name} in every zone`, () => {
      for (const zone of ZONES) {
        // starts spread over the DST changes of 2024
        for (const start of [Date.UTC(2024, 2, 9, 23, 17), Date.UTC(2024, 9, 27, 0, 41, 13)]) {
          const ticks = timeTicks(start, start + span, 8, zone);
          expect(ticks.length, `${zone} from ${new Date(start).toISOString()}`).toBeGreaterThan(1);
          expect(ticks.length).toBeLessThanOrEqual(9);
          for (const t of ticks) {
            expect(t).toBeGreaterThanOrEqual(start);
            expect(t).toBeLessThanOrEqual(start + span);
            expect(nice(wall(t, zone)), `${new Date(t).toISOString()} in ${zone}`).toBe(true);
          }
          expect(new Set(ticks).size).toBe(ticks.length);
          expect(ticks).toEqual([...ticks].sort((a, b) => a - b));
        }
      }
    });
  }

  it("never throws at or past the ends of the Date range", () => {
    const edges = [-8.64e15, -8.64e15 + DAY, 0, 8.64e15 - DAY, 8.64e15];
    for (const zone of ZONES) {
      for (const min of edges) {
        for (const max of edges) {
          expect(() => timeTicks(min, max, 6, zone)).not.toThrow();
          for (const t of timeTicks(min, max, 6, zone)) {
            expect(Math.abs(t)).toBeLessThanOrEqual(8.64e15);
          }
        }
      }
      expect(timeTicks(-8.64e15 - 1, 0, 6, zone)).toEqual([]);
      expect(timeTicks(8.64e15 - 100 * YEAR, 8.64e15, 6, zone).length).toBeGreaterThan(0);
    }
  });
});

describe("time labels in the chart's locale and zone", () => {
  it("names months and days in the locale, on the zone's calendar", () => {
    // 23:30 UTC on 31 March is already 1 April in Berlin, still 31 March in New York
    const t = Date.UTC(2024, 2, 31, 23, 30);
    expect(createTimeFormatter("de-DE", timeFormatOptions(10 * DAY, "Europe/Berlin"))(t)).toBe(
      "1. Apr.",
    );
    expect(createTimeFormatter("en-US", timeFormatOptions(10 * DAY, "America/New_York"))(t)).toBe(
      "Mar 31",
    );
    expect(createTimeFormatter("fr-FR", timeFormatOptions(YEAR / 2, "Europe/Paris"))(t)).toBe(
      "avr. 2024",
    );
    expect(createTimeFormatter("en-GB", timeFormatOptions(6 * HOUR, "Asia/Kolkata"))(t)).toBe(
      "05:00",
    );
  });
});
