import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { LineChart } from "../line-chart/line-chart";
import { tickTexts } from "../testing/ticks";

/** Rows every `stepMs` from `start` for `count` steps, as ISO instants. */
function series(start: number, stepMs: number, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    at: new Date(start + i * stepMs).toISOString(),
    value: 10 + (i % 7),
  }));
}

/** The rows' value over their instants at 900 px, unanimated, in a locale and time zone. */
function renderTimes(rows: ReturnType<typeof series>, locale: string, timeZone: string) {
  return render(
    <LineChart
      data={rows}
      index="at"
      series={["value"]}
      width={900}
      locale={locale}
      timeZone={timeZone}
      animate={false}
    />,
  );
}

describe("time axis in the chart's locale and time zone (issue 11)", () => {
  it("puts hour ticks on round hours of a half-hour zone", () => {
    // Kolkata is UTC+5:30: ticks on round UTC hours would read 05:30, 06:30, …
    const { container } = renderTimes(
      series(Date.UTC(2024, 2, 1), 10 * 60_000, 72),
      "en-GB",
      "Asia/Kolkata",
    );

    const ticks = tickTexts(container, "xAxis");
    expect(ticks.length).toBeGreaterThan(2);
    for (const tick of ticks) expect(tick).toMatch(/^\d\d:00$/);
  });

  it("puts day ticks on the zone's midnights, labelled in the locale", () => {
    // hourly from 1 to 11 November 2024 UTC, across New York's fall-back night (3 November)
    const { container } = renderTimes(
      series(Date.UTC(2024, 10, 1, 12), 3_600_000, 240),
      "de-DE",
      "America/New_York",
    );

    const ticks = tickTexts(container, "xAxis");
    expect(ticks.length).toBeGreaterThan(4);
    for (const tick of ticks) expect(tick).toMatch(/^\d{1,2}\. Nov\.$/);
    // one tick a day (or every other day), with no day labelled twice
    expect(new Set(ticks).size).toBe(ticks.length);
  });
});
