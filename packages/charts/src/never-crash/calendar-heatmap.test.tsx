import { cleanup, fireEvent, render } from "@testing-library/react";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CalendarHeatmap } from "../calendar-heatmap/calendar-heatmap";
import { MAX_YEARS } from "../calendar-heatmap/prepare";
import type { DataIssue } from "../data/rows";
import { anyNumber, assertProperty, data, logSeed } from "./support";

logSeed("CalendarHeatmap");

type Row = Record<string, unknown>;
const MAX_TIME = 8.64e15;

/** Days centuries apart, the ends of the Date range, repeated days and invalid dates. */
const spreadDate = fc.oneof(
  fc.date({ min: new Date(-MAX_TIME), max: new Date(MAX_TIME), noInvalidDate: false }),
  fc.constantFrom(
    -MAX_TIME,
    MAX_TIME,
    MAX_TIME + 1,
    Number.NaN,
    "2024-02-29",
    "2023-02-29",
    "0000-01-01",
    "not a day",
    null,
  ),
  fc
    .integer({ min: 0, max: 40 })
    .map((k) => `20${String(10 + (k % 20)).padStart(2, "0")}-0${1 + (k % 9)}-1${k % 10}`),
);
const spreadRows = fc.array(
  fc.record({ x: spreadDate, k0: fc.oneof(anyNumber, fc.constantFrom(null, "7", undefined)) }),
  { maxLength: 60, size: "large" },
);

const options = fc.record({
  size: fc.constantFrom(
    { width: 0 },
    { width: 1, height: 1 },
    { width: 343 },
    { width: 640, height: 0 },
    { width: undefined, initialWidth: 0 },
    { width: 800, height: 200 },
  ),
  locale: fc.constantFrom(undefined, "en-US", "de-DE", "ar-EG", "not a locale"),
  timeZone: fc.constantFrom(undefined, "UTC", "Pacific/Kiritimati", "America/Adak", "Nowhere/Else"),
  weekStart: fc.constantFrom(undefined, 0 as const, 1 as const),
  colors: fc.constantFrom(
    undefined,
    [],
    ["red"],
    ["#fff", "#000", "#888"],
    Array.from({ length: 20 }, (_, k) => `hsl(${k * 18} 50% 50%)`),
  ),
  legend: fc.boolean(),
  tooltip: fc.boolean(),
  keys: fc.array(
    fc.constantFrom(
      "ArrowUp",
      "ArrowDown",
      "ArrowLeft",
      "ArrowRight",
      "Home",
      "End",
      "PageUp",
      "PageDown",
      "Enter",
      "Escape",
    ),
    { maxLength: 6 },
  ),
});

function undrawable(v: unknown): boolean {
  if (typeof v !== "number" || !Number.isFinite(v)) return false;
  const magnitude = Math.abs(v);
  return magnitude > 1e300 || (magnitude !== 0 && magnitude < 1e-300);
}

const timeout = Math.max(60_000, (Number(process.env.FC_RUNS) || 200) * 1_000);

describe("no data, size or option makes a CalendarHeatmap throw", () => {
  it("CalendarHeatmap", { timeout }, () => {
    const reached = { drawn: 0, empty: 0, hidden: 0, summed: 0 };
    assertProperty(
      fc.property(
        fc.oneof(
          data(2, 3000).map(({ rows, keys }) => ({ rows, key: keys[0] ?? "missing" })),
          spreadRows.map((rows) => ({ rows: rows as unknown[], key: "k0" })),
        ),
        options,
        ({ rows, key }, { size, keys, ...props }) => {
          const reported: DataIssue[] = [];
          const error = console.error as unknown as {
            mock: { calls: unknown[][] };
            mockClear(): void;
          };
          error.mockClear();
          const { container } = render(
            <CalendarHeatmap
              data={rows as Row[]}
              date="x"
              value={key}
              title="Any"
              {...size}
              {...props}
              valueFormatter={props.locale === "ar-EG" ? (v) => `${v}!` : undefined}
              onValueChange={() => {}}
              onDataIssues={(issues) => {
                for (const issue of issues) reported.push(issue);
              }}
            />,
          );
          try {
            expect(
              container.querySelector("[data-testid=seed-chart-error]")?.textContent ?? null,
            ).toBeNull();
            expect(
              error.mock.calls.map((call) => call.map(String).join(" ").slice(0, 300)),
            ).toEqual([]);
            const figure = container.querySelector("figure.seed-chart");
            expect(figure).not.toBeNull();
            let cells = 0;
            for (const path of container.querySelectorAll("path.seed-calendar-cells")) {
              cells += (path.getAttribute("d") ?? "").split("M").length - 1;
            }
            expect(cells).toBeLessThanOrEqual(366 * MAX_YEARS);
            const grid = container.querySelector<SVGSVGElement>("svg.seed-calendar");
            if (grid) {
              reached.drawn++;
              for (const k of keys) fireEvent.keyDown(grid, { key: k });
              expect(container.querySelector("[data-testid=seed-chart-error]")).toBeNull();
            }
            if (container.querySelector("[data-testid=seed-chart-empty]")) reached.empty++;
            const text = container.textContent ?? "";
            if (text.includes("Only the latest")) reached.hidden++;
            if (text.includes("summed.")) reached.summed++;
            // every value too large or too small to draw is reported
            const rowsReported = new Set(reported.map((issue) => issue.row));
            const unreported = rows.flatMap((row, i) =>
              typeof row === "object" &&
              row !== null &&
              undrawable((row as Row)[key]) &&
              !rowsReported.has(i)
                ? [i]
                : [],
            );
            expect(unreported.slice(0, 10)).toEqual([]);
            expect(reported.filter((issue) => issue.reason.length === 0)).toEqual([]);
          } finally {
            cleanup();
          }
        },
      ),
    );
    console.log(`[@seed/charts never-crash] CalendarHeatmap reached: ${JSON.stringify(reached)}`);
    // the runs reach the extremes: drawn and empty calendars, bounded spans, summed days
    expect(reached.drawn).toBeGreaterThan(0);
    expect(reached.empty).toBeGreaterThan(0);
    expect(reached.hidden).toBeGreaterThan(0);
    expect(reached.summed).toBeGreaterThan(0);
  });
});
