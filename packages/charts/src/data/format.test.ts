import { describe, expect, it } from "vitest";
import {
  createNumberFormatter,
  createTimeFormatter,
  detectIndexKind,
  isIsoDateString,
  timeTicks,
  toTimestamp,
  truncateLabel,
} from "./format";
import { resolveSeries } from "./series";

describe("index detection and conversion", () => {
  it("tells dates, numbers and categories apart", () => {
    expect(detectIndexKind([new Date(0), null])).toBe("time");
    expect(detectIndexKind(["2024-01-01", "2024-02-01"])).toBe("time");
    expect(detectIndexKind([1, 2, 3])).toBe("number");
    expect(detectIndexKind(["Jan", "Feb"])).toBe("category");
  });

  it("accepts ISO strings only when they are real dates", () => {
    expect(isIsoDateString("2024-02-29T10:00:00Z")).toBe(true);
    expect(isIsoDateString("2024-13-45")).toBe(false);
    expect(toTimestamp("2024-01-01")).toBe(Date.UTC(2024, 0, 1));
    expect(toTimestamp("soon")).toBeNaN();
  });
});

describe("formatters", () => {
  it("formats numbers and dates with Intl in the given locale", () => {
    expect(createNumberFormatter("de-DE")(1234.5)).toBe("1.234,5");
    expect(createNumberFormatter("en-US")(Number.NaN)).toBe("–");
    const month = createTimeFormatter("fr-FR", { month: "long", timeZone: "UTC" });
    expect(month(Date.UTC(2024, 1, 10))).toBe("février");
  });

  it("truncates long labels with an ellipsis", () => {
    expect(truncateLabel("Revenue from subscriptions", 10)).toBe("Revenue f…");
    expect(truncateLabel("Cost", 10)).toBe("Cost");
  });
});

describe("timeTicks", () => {
  it("puts monthly ticks on the first of each month", () => {
    const ticks = timeTicks(Date.UTC(2024, 0, 15), Date.UTC(2024, 5, 15), 8);

    expect(ticks).toEqual([2, 3, 4, 5, 6].map((m) => Date.UTC(2024, m - 1, 1)));
  });

  it("uses day steps for a two-week span and stays within the range", () => {
    const min = Date.UTC(2024, 0, 1);
    const max = Date.UTC(2024, 0, 14);

    const ticks = timeTicks(min, max, 7);

    expect(ticks.length).toBeLessThanOrEqual(8);
    expect(ticks[0]).toBeGreaterThanOrEqual(min);
    expect(ticks[ticks.length - 1]).toBeLessThanOrEqual(max);
  });
});

describe("resolveSeries", () => {
  it("names each series once with palette colours and internal keys", () => {
    const series = resolveSeries<{ a: number; b: number }>([
      "a",
      { key: "b", label: "Bee", color: "red" },
      "a",
    ]);

    expect(series).toEqual([
      { key: "a", dataKey: "s0", label: "a", color: "var(--seed-chart-1)", formatter: undefined },
      { key: "b", dataKey: "s1", label: "Bee", color: "red", formatter: undefined },
    ]);
  });
});
