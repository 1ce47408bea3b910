// calendarSvg draws the same cells in the same colours as CalendarHeatmap, for any data, and
// every mark inside its viewBox. The properties print their seed.
import { cleanup, render } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { CalendarHeatmap } from "../calendar-heatmap/calendar-heatmap";
import { data as anyData, anyNumber } from "../never-crash/support";
import { assertSeeded } from "../testing/property";
import { seattleDays } from "../testing/vega-seattle";
import { calendarSvg } from "./calendar-svg";

afterEach(cleanup);

function parse(svg: string): Element {
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  expect(doc.querySelector("parsererror")).toBeNull();
  return doc.documentElement;
}

const seattle = seattleDays;

/** Each cell path's bin, colour and squares, in order. */
function cellPathsOf(root: ParentNode): { bin: string; fill: string; d: string }[] {
  return [...root.querySelectorAll("path.seed-calendar-cells")].map((path) => ({
    bin: path.getAttribute("data-bin") ?? "",
    fill: path.getAttribute("fill") ?? "",
    d: path.getAttribute("d") ?? "",
  }));
}

const squares = (d: string) => d.split("M").length - 1;

const MAX_TIME = 8.64e15;
const spreadRows = fc
  .array(
    fc.record({
      x: fc.oneof(
        fc.date({ min: new Date(-MAX_TIME), max: new Date(MAX_TIME), noInvalidDate: false }),
        fc.date({ min: new Date("2010-01-01"), max: new Date("2016-01-01"), noInvalidDate: true }),
        fc.constantFrom(-MAX_TIME, MAX_TIME, "2024-02-29", "nope", null),
      ),
      k0: fc.oneof(anyNumber, fc.constantFrom(null, "3")),
    }),
    { maxLength: 80, size: "large" },
  )
  .map((rows) => ({ rows: rows as unknown[], keys: ["k0"] }));

describe("calendarSvg", () => {
  it("draws Seattle's rain as the chart does: a square per day, the same bins and colours", () => {
    const rows = seattle();
    const svg = calendarSvg({
      data: rows,
      date: "date",
      value: "precipitation",
      width: 800,
      title: "Seattle rain",
      locale: "en-US",
    });
    const root = parse(svg);
    expect(root.getAttribute("role")).toBe("img");
    expect(root.getAttribute("aria-label")).toBe("Seattle rain");
    const drawn = cellPathsOf(root);
    expect(drawn.reduce((n, path) => n + squares(path.d), 0)).toBe(1461);
    expect(drawn.map((path) => path.bin)).toEqual(["0", "1", "2", "3", "4"]);
    const { container } = render(
      <CalendarHeatmap
        data={rows}
        date="date"
        value="precipitation"
        width={800}
        title="Seattle rain"
      />,
    );
    expect(cellPathsOf(container)).toEqual(drawn);
    // its height is the chart's own: four years stacked
    expect(root.getAttribute("height")).toBe(
      (container.querySelector(".seed-chart-plot") as HTMLElement).style.height.replace("px", ""),
    );
    for (const year of ["2012", "2013", "2014", "2015"]) expect(svg).toContain(`>${year}</text>`);
  });

  it("writes a theme's colours out for an image, and a legend of the bins in text", () => {
    const svg = calendarSvg({
      data: seattle(),
      date: "date",
      value: "precipitation",
      width: 700,
      colors: "dark",
      legend: true,
      locale: "en-US",
    });
    expect(svg).not.toContain("var(");
    expect(svg).toContain('fill="#0b1120"');
    expect(svg).toContain(">44.72 – 55.9</text>");
    expect(svg).toContain(">No data</text>");
    expect(parse(svg).getAttribute("aria-hidden")).toBe("true");
  });

  it("draws the empty state with its reason", () => {
    const svg = calendarSvg({ data: [], date: "d", value: "v", width: 300, emptyMessage: "Nada" });
    expect(svg).toContain(">Nada</text>");
    expect(svg).toContain(">No data</text>");
    expect(parse(svg).querySelectorAll("path")).toHaveLength(0);
  });

  it("draws any rows with the chart's cells and colours, every mark inside its viewBox", () => {
    assertSeeded(
      "calendarSvg matches CalendarHeatmap",
      fc.property(
        fc.oneof(anyData(2, 3000), spreadRows),
        fc.record({
          width: fc.oneof(fc.constantFrom(0, 1, 200, 343, 640), fc.integer({ min: 1, max: 1600 })),
          height: fc.option(fc.integer({ min: 0, max: 900 }), { nil: undefined }),
          weekStart: fc.constantFrom(0 as const, 1 as const),
          colors: fc.constantFrom(undefined, ["#eee", "#888", "#111"], ["red"]),
          timeZone: fc.constantFrom(undefined, "Asia/Tokyo", "America/Adak"),
          legend: fc.boolean(),
        }),
        ({ rows, keys }, look) => {
          const value = keys[0] ?? "missing";
          const svg = calendarSvg({ data: rows, date: "x", value, ...look });
          const root = parse(svg);
          const [, , boxWidth, boxHeight] = (root.getAttribute("viewBox") ?? "")
            .split(" ")
            .map(Number);
          expect(root.getAttribute("width")).toBe(
            String(look.width > 0 ? Math.round(look.width) : 1),
          );
          for (const path of cellPathsOf(root)) {
            for (const [, x, y, s] of path.d.matchAll(/M(-?[\d.]+),(-?[\d.]+)h(-?[\d.]+)/g)) {
              const right = Number(x) + Number(s);
              const bottom = Number(y) + Number(s);
              if (
                !(
                  Number(x) >= 0 &&
                  Number(y) >= 0 &&
                  right <= (boxWidth as number) &&
                  bottom <= (boxHeight as number)
                )
              ) {
                throw new Error(`cell at ${x},${y} outside ${boxWidth}x${boxHeight}`);
              }
            }
          }
          for (const text of root.querySelectorAll("text")) {
            const x = Number(text.getAttribute("x"));
            const y = Number(text.getAttribute("y"));
            if (!(x >= 0 && x <= (boxWidth as number) && y >= 0 && y <= (boxHeight as number))) {
              throw new Error(`text at ${x},${y} outside ${boxWidth}x${boxHeight}`);
            }
          }
          // the React chart at the same width draws the same cells in the same colours
          const width = look.width > 0 ? look.width : 1;
          const { container } = render(
            <CalendarHeatmap
              data={rows as Record<string, unknown>[]}
              date="x"
              value={value}
              width={width}
              weekStart={look.weekStart}
              colors={look.colors}
              timeZone={look.timeZone}
            />,
          );
          try {
            expect(cellPathsOf(container)).toEqual(cellPathsOf(root));
          } finally {
            cleanup();
          }
        },
      ),
      150,
    );
  });
});
