// Issue 27, charts rendered on the server: the server's drawing reads as the chart that replaces
// it. For any data, its value axis writes the same tick labels as the React chart's.
import { cleanup, render } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { annotate } from "../annotations";
import { AreaChart } from "../area-chart/area-chart";
import { BarChart } from "../bar-chart/bar-chart";
import { ComboChart, type ComboSeries } from "../combo-chart/combo-chart";
import { LineChart } from "../line-chart/line-chart";
import { assertSeeded } from "../testing/property";
import { tickTexts } from "../testing/ticks";
import { chartSvg } from "./chart-svg";

afterEach(cleanup);

const charts = { line: LineChart, area: AreaChart, bar: BarChart };

describe("chartSvg and the chart it stands for", () => {
  // a React render per run: minutes on a busy 2-core machine, not the default 20 s
  it("write the same value-axis ticks for any values", { timeout: 180_000 }, () => {
    assertSeeded(
      "server drawing's value ticks",
      fc.property(
        fc.constantFrom("line", "area", "bar") as fc.Arbitrary<"line" | "area" | "bar">,
        fc.array(
          fc.oneof(
            fc.double({ min: -1e6, max: 1e6, noNaN: true }),
            fc.integer({ min: 0, max: 5000 }),
            fc.constantFrom(0, 1, 1050, 99.5),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        (type, values) => {
          const data = values.map((v, i) => ({ x: `c${i}`, v }));
          const Chart = charts[type];
          const { container } = render(
            <Chart
              data={data}
              index="x"
              series={["v"]}
              width={600}
              height={300}
              locale="en-US"
              animate={false}
            />,
          );
          const drawn = tickTexts(container, "yAxis");
          cleanup();
          const svg = new DOMParser().parseFromString(
            chartSvg({
              type,
              data,
              index: "x",
              series: ["v"],
              width: 600,
              height: 300,
              locale: "en-US",
            }),
            "image/svg+xml",
          );
          const server = [...svg.querySelectorAll("text[text-anchor=end]")].map(
            (text) => text.textContent ?? "",
          );
          expect(server).toEqual(drawn);
        },
      ),
      150,
    );
  });
});

describe("chartSvg's combo and ComboChart", () => {
  it("write the same ticks on both value axes for any values", { timeout: 180_000 }, () => {
    const value = fc.oneof(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.integer({ min: 0, max: 5000 }),
      fc.constantFrom(0, 1, 1050, 99.5),
    );
    assertSeeded(
      "server drawing's combo ticks",
      fc.property(
        fc.array(fc.tuple(value, value), { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        (pairs, percent) => {
          const data = pairs.map(([bar, line], i) => ({ x: `c${i}`, bar, line }));
          // untyped rows, as the server's drawing takes them
          const series: ComboSeries<Record<string, unknown>>[] = [
            "bar",
            {
              key: "line",
              type: "line",
              axis: "right",
              ...(percent ? { formatter: (v: number) => `${(v * 100).toFixed(0)}%` } : {}),
            },
          ];
          const { container } = render(
            <ComboChart<Record<string, unknown>>
              data={data}
              index="x"
              series={series}
              width={600}
              height={300}
              locale="en-US"
              animate={false}
            />,
          );
          const [left = [], right = []] = [
            ...container.querySelectorAll(".recharts-yAxis-tick-labels"),
          ].map((axis) =>
            [...axis.querySelectorAll(".recharts-cartesian-axis-tick-value")].map(
              (tick) => tick.textContent ?? "",
            ),
          );
          cleanup();
          const svg = new DOMParser().parseFromString(
            chartSvg({
              type: "combo",
              data,
              index: "x",
              series,
              width: 600,
              height: 300,
              locale: "en-US",
            }),
            "image/svg+xml",
          );
          const texts = (anchor: string) =>
            [...svg.querySelectorAll(`text[text-anchor=${anchor}]`)].map(
              (text) => text.textContent ?? "",
            );
          expect(texts("end")).toEqual(left);
          expect(texts("start")).toEqual(right);
        },
      ),
      60,
    );
  });
});

describe("chartSvg's annotations and the chart's", () => {
  /** Each annotation's line (x1, or y1 across horizontal bars) or band (x, width) in a drawing. */
  function shapes(root: ParentNode): number[][] {
    return [...root.querySelectorAll(".seed-chart-annotation")].map((group) => {
      const line = group.querySelector("line");
      const rect = group.querySelector("rect");
      if (line) return [Number(line.getAttribute("x1")), Number(line.getAttribute("y1"))];
      return ["x", "y", "width", "height"].map((name) => Number(rect?.getAttribute(name)));
    });
  }

  /** The labels written beside them. */
  function texts(root: ParentNode): string[] {
    return [...root.querySelectorAll(".seed-chart-annotation text")].map(
      (text) => text.textContent ?? "",
    );
  }

  it("draws any annotations where the chart's layer draws them, in lines, areas and bars", {
    timeout: 180_000,
  }, () => {
    const day = (n: number) =>
      new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    assertSeeded(
      "server drawing's annotations",
      fc.property(
        fc.constantFrom("line", "area", "bar", "horizontal") as fc.Arbitrary<
          "line" | "area" | "bar" | "horizontal"
        >,
        fc.integer({ min: 2, max: 40 }),
        fc.array(
          fc.record(
            {
              at: fc.integer({ min: -5, max: 45 }).map(day),
              to: fc.integer({ min: -5, max: 45 }).map(day),
              label: fc.constantFrom("Launch", "A much longer label about a sale", "<b>&"),
            },
            { requiredKeys: ["at", "label"] },
          ),
          { maxLength: 4 },
        ),
        (type, days, annotations) => {
          const data = Array.from({ length: days }, (_, i) => ({ day: day(i), v: (i * 37) % 11 }));
          const horizontal = type === "horizontal";
          const chartType = horizontal ? "bar" : type;
          const Chart = charts[chartType];
          const { container } = render(
            <Chart
              data={data}
              index="day"
              series={["v"]}
              width={600}
              height={300}
              locale="en-US"
              animate={false}
              annotations={annotate(annotations)}
              {...(horizontal ? { horizontal: true } : {})}
            />,
          );
          const drawn = shapes(container);
          const labels = texts(container);
          cleanup();
          const svg = new DOMParser().parseFromString(
            chartSvg({
              type: chartType,
              data,
              index: "day",
              series: ["v"],
              width: 600,
              height: 300,
              locale: "en-US",
              annotations,
              horizontal,
            }),
            "image/svg+xml",
          );
          const server = shapes(svg);
          expect(texts(svg)).toEqual(labels);
          expect(server.length).toBe(drawn.length);
          server.forEach((numbers, i) => {
            numbers.forEach((n, k) => {
              expect(Math.abs(n - (drawn[i]?.[k] ?? Number.NaN))).toBeLessThan(1.5);
            });
          });
        },
      ),
      60,
    );
  });
});

describe("index labels at a phone's width", () => {
  // Four years of months on a 330 px bar chart: each label's share of the axis is a few pixels,
  // yet no label is cut to "Jan 2…"; the axis shows fewer labels, each whole.
  const months = Array.from({ length: 48 }, (_, i) => ({
    month: `${["Jan", "Apr", "Jul", "Oct"][Math.floor(i / 12) % 4]} ${2012 + (i % 12)}`,
    rain: (i * 37) % 101,
  }));
  it("are whole in the server's drawing and in the chart", () => {
    const svg = chartSvg({
      type: "bar",
      data: months,
      index: "month",
      series: ["rain"],
      width: 330,
      height: 240,
    });
    const server = [...svg.matchAll(/<text[^>]*text-anchor="middle"[^>]*>([^<]*)<\/text>/g)].map(
      (match) => match[1] ?? "",
    );
    expect(server.length).toBeGreaterThan(1);
    expect(server.length).toBeLessThan(months.length);
    for (const label of server) expect(months.map((row) => row.month)).toContain(label);
    const { container } = render(
      <BarChart data={months} index="month" series={["rain"]} width={330} height={240} />,
    );
    const drawn = tickTexts(container, "xAxis");
    expect(drawn.length).toBeGreaterThan(1);
    for (const label of drawn) expect(label).not.toContain("…");
  });
});
