import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dayMsOf,
  dayOf,
  isTimeZone,
  localDay,
  localMidnight,
  offsetAt,
  offsetSpans,
  relativeDays,
  relativeDaysFrom,
  shiftBucket,
  withMissingBuckets,
  yearBeforeBucket,
  yearsBefore,
} from "../src/query/time.js";

describe("time zone arithmetic", () => {
  it("finds the exact minutes Paris changes its offset", () => {
    const spans = offsetSpans("Europe/Paris", Date.UTC(2024, 0, 1), Date.UTC(2024, 11, 31));
    expect(spans.map((span) => [span.from, span.offset / 3_600_000])).toEqual([
      [Number.NEGATIVE_INFINITY, 1],
      [Date.UTC(2024, 2, 31, 1), 2],
      [Date.UTC(2024, 9, 27, 1), 1],
    ]);
  });

  it("knows half-hour zones and zones without daylight saving", () => {
    expect(offsetAt("Asia/Kolkata", Date.UTC(2024, 5, 1))).toBe(5.5 * 3_600_000);
    expect(offsetSpans("Asia/Tokyo", Date.UTC(2000, 0, 1), Date.UTC(2030, 0, 1))).toHaveLength(1);
    expect(offsetAt("UTC", 8.64e15)).toBe(0);
  });

  it("accepts only zone names the runtime knows", () => {
    expect(isTimeZone("America/New_York")).toBe(true);
    for (const bad of ["", "Mars/Olympus", "Europe/Paris'; drop table x", "x".repeat(65)]) {
      expect(isTimeZone(bad)).toBe(false);
    }
  });

  it("starts local days at local midnight, also on the days clocks change", () => {
    expect(localMidnight("Europe/Paris", { year: 2024, month: 3, day: 31 })).toBe(
      Date.UTC(2024, 2, 30, 23),
    );
    expect(localMidnight("Europe/Paris", { year: 2024, month: 10, day: 28 })).toBe(
      Date.UTC(2024, 9, 27, 23),
    );
    // Santiago skipped midnight on 2024-09-08 (00:00 became 01:00): the day starts at 04:00Z.
    expect(localMidnight("America/Santiago", { year: 2024, month: 9, day: 8 })).toBe(
      Date.UTC(2024, 8, 8, 4),
    );
    expect(localDay("Pacific/Auckland", Date.UTC(2024, 0, 1, 12))).toEqual({
      year: 2024,
      month: 1,
      day: 2,
    });
  });

  it("computes relative ranges as half-open day ranges", () => {
    const now = Date.UTC(2024, 1, 29, 12); // Thursday, a leap day
    const range = (
      unit: "day" | "week" | "month" | "quarter" | "year",
      which: "this" | "previous" | "last_n",
      n?: number,
    ) => {
      const { from, to } = relativeDays({ unit, which, n }, "UTC", now);
      const text = (day: { year: number; month: number; day: number }) =>
        `${day.year}-${String(day.month).padStart(2, "0")}-${String(day.day).padStart(2, "0")}`;
      return [text(from), text(to)];
    };
    expect(range("day", "last_n", 30)).toEqual(["2024-01-31", "2024-03-01"]);
    expect(range("week", "this")).toEqual(["2024-02-26", "2024-03-04"]);
    expect(range("week", "previous")).toEqual(["2024-02-19", "2024-02-26"]);
    expect(range("month", "previous")).toEqual(["2024-01-01", "2024-02-01"]);
    expect(range("quarter", "this")).toEqual(["2024-01-01", "2024-04-01"]);
    expect(range("quarter", "previous")).toEqual(["2023-10-01", "2024-01-01"]);
    expect(range("month", "last_n", 12)).toEqual(["2023-03-01", "2024-03-01"]);
    expect(range("year", "previous")).toEqual(["2023-01-01", "2024-01-01"]);
  });

  it("moves a range a year back day for day, February 29 onto the 28th (property)", () => {
    const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
    console.log(`years-back property seed: ${seed}`);
    fc.assert(
      fc.property(
        // Years -30000 .. 39000: every leap rule (divisible by 4, 100, 400) is reached.
        fc.integer({ min: -11_676_096, max: 13_569_119 }).map((n) => dayOf(n * 86_400_000)),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom("day", "week", "month", "quarter", "year" as const),
        fc.constantFrom("last_n", "this", "previous" as const),
        fc.integer({ min: 1, max: 400 }),
        (today, years, unit, which, n) => {
          const moved = yearsBefore(today, years);
          // A real date: the same month, the same day or the month's last.
          expect(dayOf(dayMsOf(moved))).toEqual(moved);
          expect(moved.year).toBe(today.year - years);
          expect(moved.month).toBe(today.month);
          const length = new Date(Date.UTC(2001, moved.month, 0)).getUTCDate();
          const last = moved.month === 2 ? dayOf(Date.UTC(moved.year, 2, 0)).day : length;
          expect(moved.day).toBe(Math.min(today.day, last));
          // The range a year back is the range with both ends moved so.
          const range = { unit, which, n };
          const now = relativeDaysFrom(range, today);
          expect(relativeDaysFrom({ ...range, yearsBack: years }, today)).toEqual({
            from: yearsBefore(now.from, years),
            to: yearsBefore(now.to, years),
          });
        },
      ),
      { seed, numRuns: 2_000 },
    );
  });

  it("finds the bucket a year before each bucket: the same period of the calendar (property)", () => {
    const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
    console.log(`year-before bucket property seed: ${seed}`);
    const iso = (ms: number) => new Date(ms).toISOString();
    fc.assert(
      fc.property(
        // 1600 .. 2400, every leap rule; instants to the minute.
        fc
          .integer({ min: Date.UTC(1600, 0, 1) / 60_000, max: Date.UTC(2400, 11, 31) / 60_000 })
          .map((n) => n * 60_000),
        (at) => {
          const day = dayOf(at);
          const label = (ms: number) => iso(ms).slice(0, 10);
          // Day: the same calendar day, February 29 onto the 28th.
          expect(yearBeforeBucket(label(at), "day")).toBe(label(dayMsOf(yearsBefore(day, 1))));
          // Month, quarter, year: the same first day, a year earlier.
          const first = iso(Date.UTC(2000, day.month - 1, 1)).slice(4, 10);
          const monthLabel = `${String(day.year).padStart(4, "0")}${first}`;
          expect(yearBeforeBucket(monthLabel, "month")).toBe(
            `${String(day.year - 1).padStart(4, "0")}${first}`,
          );
          // Week: a Monday 52 weeks earlier.
          const monday = dayMsOf(day) - ((new Date(dayMsOf(day)).getUTCDay() + 6) % 7) * 86_400_000;
          const before = Date.parse(`${yearBeforeBucket(label(monday), "week")}T00:00:00Z`);
          expect(new Date(before).getUTCDay()).toBe(1);
          expect(monday - before).toBe(364 * 86_400_000);
          // Hour and minute: the same time of day on the year-before day.
          const hour = at - (((at % 3_600_000) + 3_600_000) % 3_600_000);
          const back = yearBeforeBucket(iso(hour), "hour");
          expect(back.slice(0, 10)).toBe(label(dayMsOf(yearsBefore(dayOf(hour), 1))));
          expect(back.slice(10)).toBe(iso(hour).slice(10));
        },
      ),
      { seed, numRuns: 2_000 },
    );
    expect(yearBeforeBucket("2024-02-29", "day")).toBe("2023-02-28");
    expect(yearBeforeBucket("2024-02-29T13:00:00.000Z", "hour")).toBe("2023-02-28T13:00:00.000Z");
  });
});

describe("periods without data", () => {
  const grains = ["minute", "hour", "day", "week", "month", "quarter", "year"] as const;

  it("fills every bucket missing between two that are there, and only those (property)", () => {
    const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
    console.log(`missing-buckets property seed: ${seed}`);
    // A start on the grain's boundary (a Monday for weeks, a quarter's first month), then
    // ascending steps of one bucket or more: the buckets the data has.
    const start = fc.record({
      grain: fc.constantFrom(...grains),
      day: fc.date({
        min: new Date("1900-01-01"),
        max: new Date("2200-12-31"),
        noInvalidDate: true,
      }),
    });
    fc.assert(
      fc.property(
        start,
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 30 }),
        fc.boolean(),
        ({ grain, day }, steps, emptyGroup) => {
          const monday = new Date(day);
          monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
          const first =
            grain === "minute" || grain === "hour"
              ? new Date(Math.floor(day.getTime() / 3_600_000) * 3_600_000).toISOString()
              : grain === "week"
                ? monday.toISOString().slice(0, 10)
                : grain === "day"
                  ? day.toISOString().slice(0, 10)
                  : `${day.toISOString().slice(0, 4)}-01-01`;
          const offsets = [0];
          for (const step of steps) offsets.push((offsets.at(-1) ?? 0) + step);
          const rows: Array<{ x: string | null; m0: number | null; m1: number | null }> =
            offsets.map((offset, index) => ({
              x: shiftBucket(first, grain, offset),
              m0: index,
              m1: -index,
            }));
          if (emptyGroup) rows.push({ x: null, m0: 99, m1: 99 });
          const filled = withMissingBuckets(rows, grain, ["m0", "m1"], 10_000);
          const last = offsets.at(-1) ?? 0;
          const dated = filled.filter((row) => row.x !== null);
          // One row per bucket from the first to the last, consecutive.
          expect(dated).toHaveLength(last + 1);
          for (const [index, row] of dated.entries()) {
            expect(row.x).toBe(shiftBucket(first, grain, index));
          }
          // The data's rows unchanged and in place; the others empty in every series.
          const original = new Map(rows.map((row) => [row.x, row]));
          for (const row of dated) {
            if (original.has(row.x)) expect(row).toBe(original.get(row.x));
            else expect(row).toEqual({ x: row.x, m0: null, m1: null });
          }
          // The group of empty dates stays last.
          if (emptyGroup) expect(filled.at(-1)).toEqual({ x: null, m0: 99, m1: 99 });
          // Too many to fill: the rows as they were.
          if (last + 1 > rows.length) {
            expect(withMissingBuckets(rows, grain, ["m0"], last - 1)).toBe(rows);
          }
        },
      ),
      { seed, numRuns: 1_000 },
    );
  });

  it("leaves rows alone when x is not a run of ascending bucket labels", () => {
    const rows = (...xs: string[]) => xs.map((x, index) => ({ x, m0: index }));
    const descending = rows("2024-03-01", "2024-01-01");
    expect(withMissingBuckets(descending, "month", ["m0"], 100)).toBe(descending);
    const offGrain = rows("2024-01-01", "2024-03-15");
    expect(withMissingBuckets(offGrain, "month", ["m0"], 100)).toBe(offGrain);
    const repeated = rows("2024-01-01", "2024-01-01");
    expect(withMissingBuckets(repeated, "day", ["m0"], 100)).toBe(repeated);
    const numbers = [
      { x: 1, m0: 1 },
      { x: 3, m0: 3 },
    ];
    expect(withMissingBuckets(numbers, "year", ["m0"], 100)).toBe(numbers);
    expect(withMissingBuckets(rows("2020-01-01", "2023-01-01"), "year", ["m0"], 100)).toEqual([
      { x: "2020-01-01", m0: 0 },
      { x: "2021-01-01", m0: null },
      { x: "2022-01-01", m0: null },
      { x: "2023-01-01", m0: 1 },
    ]);
  });
});
