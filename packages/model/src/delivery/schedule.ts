import { z } from "zod";
import { addDays, type Day, dayMsOf, daysInMonth, localDay, zonedInstant } from "../query/time.js";

// When a scheduled report goes out: daily, weekly or monthly at a wall-clock time in the
// dashboard's time zone. Each scheduled local day gives exactly one instant, so a report is
// never sent twice on the night clocks go back, nor skipped on the night they go forward.

const timeOfDaySchema = z
  .string({ error: "Choose a time such as 08:00." })
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Choose a time such as 08:00 (24-hour, hh:mm).");

/** ISO weekdays: 1 is Monday, 7 is Sunday. */
export const weekdays = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;

export const reportScheduleSchema = z.discriminatedUnion(
  "every",
  [
    z.object({ every: z.literal("day"), time: timeOfDaySchema }),
    z.object({
      every: z.literal("week"),
      weekday: z
        .number({ error: "Choose a weekday." })
        .int("Choose a weekday.")
        .min(1, "Choose a weekday.")
        .max(7, "Choose a weekday."),
      time: timeOfDaySchema,
    }),
    z.object({
      every: z.literal("month"),
      // 29 to 31 fall on a shorter month's last day rather than skipping that month.
      dayOfMonth: z
        .number({ error: "Choose a day of the month from 1 to 31." })
        .int("Choose a day of the month from 1 to 31.")
        .min(1, "Choose a day of the month from 1 to 31.")
        .max(31, "Choose a day of the month from 1 to 31."),
      time: timeOfDaySchema,
    }),
  ],
  { error: "Choose daily, weekly or monthly." },
);
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;

function minuteOfDay(time: string): number {
  const [hours, minutes] = time.split(":").map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** True when the schedule sends on this local day. */
export function isScheduledDay(schedule: ReportSchedule, day: Day): boolean {
  switch (schedule.every) {
    case "day":
      return true;
    case "week":
      return ((new Date(dayMsOf(day)).getUTCDay() + 6) % 7) + 1 === schedule.weekday;
    case "month":
      return day.day === Math.min(schedule.dayOfMonth, daysInMonth(day.year, day.month));
  }
}

/** The instant the schedule sends on a scheduled local day. */
export function scheduledInstant(schedule: ReportSchedule, timeZone: string, day: Day): number {
  return zonedInstant(timeZone, day, minuteOfDay(schedule.time));
}

/**
 * The first instant strictly after `afterMs` the schedule sends at. A sender stores it as the
 * next run and, once it has sent, asks again from the moment it ran: a run missed while no
 * instance was up is sent once, not once per missed day.
 */
export function nextScheduledRun(
  schedule: ReportSchedule,
  timeZone: string,
  afterMs: number,
): number {
  // A day skipped whole (Samoa, 30 December 2011) or a late time pushed past midnight can move
  // a day's instant onto the next day, so the search starts the day before.
  let day = addDays(localDay(timeZone, afterMs), -1);
  // A monthly schedule sends within 31 days of any day; two months bound every case.
  for (let step = 0; step < 64; step += 1, day = addDays(day, 1)) {
    if (!isScheduledDay(schedule, day)) continue;
    const instant = scheduledInstant(schedule, timeZone, day);
    if (instant > afterMs) return instant;
  }
  throw new Error("No scheduled day within two months: the schedule is not valid.");
}

/** "Every Monday at 08:00 (Europe/Paris)", as the admin pages and emails say it. */
export function describeSchedule(schedule: ReportSchedule, timeZone: string): string {
  switch (schedule.every) {
    case "day":
      return `Every day at ${schedule.time} (${timeZone})`;
    case "week":
      return `Every ${weekdays[schedule.weekday - 1]} at ${schedule.time} (${timeZone})`;
    case "month":
      return schedule.dayOfMonth > 28
        ? `Monthly on day ${schedule.dayOfMonth} (or the month's last day) at ${schedule.time} (${timeZone})`
        : `Monthly on day ${schedule.dayOfMonth} at ${schedule.time} (${timeZone})`;
  }
}
