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
        // 1600-01-01 .. 2400-12-31: every leap rule (divisible by 4, 100, 400) is reached.
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
});
