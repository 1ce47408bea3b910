// Issue 27, charts rendered on the server: chartSvg draws any data as well-formed SVG of exactly
// the size asked, every mark inside it, without a DOM; the property prints its seed.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { walkSeries } from "@seed/sample-data";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { data as anyData } from "../never-crash/support";
import { colourToken, ruleOf } from "../testing/stylesheet";
import { vegaStocks } from "../testing/vega-stocks";
import { type ChartSvgOptions, chartSvg, chartThemes, lightPalette } from "./chart-svg";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_128;
const RUNS = Number(process.env.FC_RUNS) || 300;

function parse(svg: string): SVGSVGElement {
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  expect(doc.querySelector("parsererror")).toBeNull();
  const root = doc.documentElement as unknown as SVGSVGElement;
  expect(root.tagName.toLowerCase()).toBe("svg");
  return root;
}

/** Every absolute coordinate a mark of a cartesian drawing sets, with its axis. */
function coordinates(root: Element): { value: number; axis: "x" | "y"; where: string }[] {
  const out: { value: number; axis: "x" | "y"; where: string }[] = [];
  for (const element of root.querySelectorAll("line, rect, text, circle, path")) {
    const tag = element.tagName.toLowerCase();
    for (const name of ["x", "x1", "x2", "cx", "y", "y1", "y2", "cy"]) {
      const raw = element.getAttribute(name);
      if (raw !== null)
        out.push({
          value: Number(raw),
          axis: name.startsWith("x") || name === "cx" ? "x" : "y",
          where: `${tag} ${name}`,
        });
    }
    if (tag === "rect") {
      const x = Number(element.getAttribute("x"));
      const y = Number(element.getAttribute("y"));
      out.push({
        value: x + Number(element.getAttribute("width")),
        axis: "x",
        where: "rect right",
      });
      out.push({
        value: y + Number(element.getAttribute("height")),
        axis: "y",
        where: "rect bottom",
      });
    }
    if (tag === "path" && !element.closest("g[transform]")) {
      // d3's line, area and curve commands: absolute x,y pairs
      const numbers = (element.getAttribute("d") ?? "").match(/-?\d+(\.\d+)?(e-?\d+)?/g) ?? [];
      numbers.forEach((n, i) => {
        out.push({ value: Number(n), axis: i % 2 === 0 ? "x" : "y", where: "path d" });
      });
    }
  }
  return out;
}

const size = fc.record({
  width: fc.oneof(fc.constantFrom(0, 1, 40, 320, 375, 1280), fc.integer({ min: 1, max: 2000 })),
  height: fc.oneof(fc.constantFrom(0, 1, 60, 280), fc.integer({ min: 1, max: 800 })),
});

/** The drawing is the size asked (1 x 1 for no size), and every mark's coordinates lie inside it. */
function expectSizedWithEveryMarkInside(root: SVGSVGElement, width: number, height: number) {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  expect(root.getAttribute("width")).toBe(String(width > 0 && height > 0 ? w : 1));
  expect(root.getAttribute("height")).toBe(String(width > 0 && height > 0 ? h : 1));
  for (const point of coordinates(root)) {
    const limit = point.axis === "x" ? w : h;
    if (!(point.value >= -1 && point.value <= limit + 1)) {
      throw new Error(`${point.where} ${point.value} outside 0..${limit}`);
    }
  }
}

describe("chartSvg: any data, any size, well-formed and inside its box", () => {
  console.log(`[@seed/charts svg] fast-check seed ${SEED}, ${RUNS} runs (FC_SEED repeats it)`);

  it("draws line, area and bar charts of any rows", () => {
    fc.assert(
      fc.property(
        anyData(4, 3000),
        size,
        fc.constantFrom("line", "area", "bar") as fc.Arbitrary<"line" | "area" | "bar">,
        fc.constantFrom("none", "stacked", "percent") as fc.Arbitrary<
          "none" | "stacked" | "percent"
        >,
        fc.boolean(),
        fc.boolean(),
        fc.record({
          colors: fc.constantFrom("variables", "light", "dark") as fc.Arbitrary<
            "variables" | "light" | "dark"
          >,
          legend: fc.boolean(),
        }),
        ({ keys, rows }, { width, height }, type, stack, horizontal, connectNulls, look) => {
          const options: ChartSvgOptions = {
            ...look,
            type,
            data: rows,
            index: "x",
            series: keys,
            width,
            height,
            stack,
            horizontal,
            connectNulls,
            title: "Any",
          };
          const svg = chartSvg(options);
          // labels may say anything the data says; numbers in attributes are checked below
          const root = parse(svg);
          // an image's colours are written out: no variable an image renderer cannot read
          if (look.colors !== "variables") expect(svg).not.toContain("var(");
          expectSizedWithEveryMarkInside(root, width, height);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("draws combo charts of any rows, series and axes", () => {
    fc.assert(
      fc.property(
        anyData(4, 3000),
        size,
        fc.array(
          fc.record({
            type: fc.constantFrom(undefined, "bar" as const, "line" as const),
            axis: fc.constantFrom(undefined, "left" as const, "right" as const),
          }),
          { maxLength: 4 },
        ),
        fc.boolean(),
        ({ keys, rows }, { width, height }, kinds, legend) => {
          const svg = chartSvg({
            type: "combo",
            data: rows,
            index: "x",
            series: keys.map((key, i) => ({ key, ...kinds[i] })),
            width,
            height,
            legend,
            title: "Any",
          });
          expectSizedWithEveryMarkInside(parse(svg), width, height);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("draws a combo's bars and line each on its own axis, the right one in its series' format", () => {
    const months = [
      { month: "Jan", revenue: 4200, margin: 0.38 },
      { month: "Feb", revenue: 4800, margin: 0.4 },
      { month: "Mar", revenue: 5100, margin: 0.41 },
    ];
    const root = parse(
      chartSvg({
        type: "combo",
        data: months,
        index: "month",
        series: [
          "revenue",
          { key: "margin", axis: "right", formatter: (v) => `${Math.round(v * 100)}%` },
        ],
        width: 600,
        height: 300,
        locale: "en-US",
      }),
    );
    expect(root.querySelectorAll("rect")).toHaveLength(3);
    expect(root.querySelectorAll('path[fill="none"]')).toHaveLength(1);
    const left = [...root.querySelectorAll("text[text-anchor=end]")].map((t) => t.textContent);
    const right = [...root.querySelectorAll("text[text-anchor=start]")].map((t) => t.textContent);
    expect(left.at(-1)).toBe("6K");
    expect(right.every((tick) => tick?.endsWith("%"))).toBe(true);
    expect(right[0]).toBe("0%");
    // the line is scaled to the right axis (0 to about 50%): its margins of about 40% sit high in
    // the plot, where on the left axis (0 to 6K) they would lie on its floor
    const path = root.querySelector('path[fill="none"]')?.getAttribute("d") ?? "";
    const numbers = (path.match(/-?[\d.]+/g) ?? []).map(Number);
    const ys = numbers.filter((_, i) => i % 2 === 1);
    expect(ys.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...ys)).toBeLessThan(300 / 2);
  });

  it("draws pie and donut charts of any rows", () => {
    fc.assert(
      fc.property(
        anyData(1, 3000),
        size,
        fc.constantFrom("pie", "donut") as fc.Arbitrary<"pie" | "donut">,
        fc.boolean(),
        ({ rows }, { width, height }, variant, legend) => {
          const pieRows = rows.map((row, i) =>
            typeof row === "object" && row !== null
              ? { name: `slice ${i}`, v: (row as Record<string, unknown>).k0 }
              : row,
          );
          const svg = chartSvg({
            type: "pie",
            data: pieRows,
            index: "name",
            value: "v",
            variant,
            width,
            height,
            legend,
            colors: "dark",
          });
          const root = parse(svg);
          for (const path of root.querySelectorAll("path")) {
            expect(path.getAttribute("d")).not.toMatch(/NaN|Infinity|undefined/);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe("chartSvg on real and realistic data", () => {
  it("draws the vega-datasets stocks as one line per symbol, with year ticks and the palette", () => {
    const byDate = new Map<number, Record<string, number | string>>();
    for (const { symbol, day, price } of vegaStocks()) {
      const row = byDate.get(day) ?? { date: new Date(day).toISOString().slice(0, 10) };
      row[symbol] = price;
      byDate.set(day, row);
    }
    const symbols = ["MSFT", "AMZN", "IBM", "GOOG", "AAPL"];
    const root = parse(
      chartSvg({
        type: "line",
        data: [...byDate.values()],
        index: "date",
        series: symbols,
        width: 720,
        height: 280,
        title: "Stocks",
      }),
    );
    const lines = [...root.querySelectorAll("path")];
    expect(lines).toHaveLength(symbols.length);
    expect(lines.map((path) => path.getAttribute("stroke"))).toEqual(
      symbols.map((_, i) => `var(--seed-chart-${i + 1},${lightPalette[i]})`),
    );
    // GOOG starts in 2004: its line starts to the right of the others
    const firstX = (path: Element) =>
      Number((path.getAttribute("d") ?? "").match(/^M(-?[\d.]+)/)?.[1]);
    expect(firstX(lines[3] as Element)).toBeGreaterThan(firstX(lines[0] as Element) + 100);
    const labels = [...root.querySelectorAll("text")].map((t) => t.textContent ?? "");
    expect(labels.filter((label) => /^20(0\d|10)$/.test(label)).length).toBeGreaterThanOrEqual(3);
    expect(labels).toContain("800");
  });

  it("draws a random walk of 100,000 days as about one point per pixel", () => {
    const walk = walkSeries(100_000, 7);
    const rows = Array.from(walk, (value, i) => ({
      day: new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
      value,
    }));
    const svg = chartSvg({
      type: "line",
      data: rows,
      index: "day",
      series: ["value"],
      width: 800,
      height: 300,
    });
    const root = parse(svg);
    const d = root.querySelector("path")?.getAttribute("d") ?? "";
    const points = (d.match(/[MLC]/g) ?? []).length;
    expect(points).toBeGreaterThan(300);
    expect(points).toBeLessThan(2_000);
    // ticks fall on year starts, written as years
    const labels = [...root.querySelectorAll("text")].map((t) => t.textContent ?? "");
    expect(
      labels.filter((label) => /^2\d\d\d$/.test(label)),
      labels.join(" | "),
    ).not.toEqual([]);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it("fits a line's value axis to its data, and starts bars and areas at 0, as the charts do", () => {
    const rows = [
      { x: "a", y: 102 },
      { x: "b", y: 108 },
      { x: "c", y: 105 },
    ];
    const ticks = (type: "line" | "area" | "bar") =>
      [
        ...parse(
          chartSvg({ type, data: rows, index: "x", series: ["y"], width: 400, height: 200 }),
        ).querySelectorAll("text[text-anchor=end]"),
      ].map((text) => text.textContent);
    expect(ticks("line")).not.toContain("0");
    expect(ticks("line")).toContain("108");
    expect(ticks("area")).toContain("0");
    expect(ticks("bar")).toContain("0");
  });

  it("draws the empty state with its reason, never an empty box", () => {
    const svg = chartSvg({
      type: "bar",
      data: [],
      index: "x",
      series: ["y"],
      width: 300,
      height: 200,
    });
    expect(parse(svg).textContent).toContain("No data to display");
    const broken = chartSvg({
      type: "pie",
      data: "not rows",
      index: "x",
      value: "y",
      width: 300,
      height: 200,
    });
    expect(parse(broken).textContent).toContain("No data to display");
  });

  it("names the chart for screen readers when titled, and is hidden from them otherwise", () => {
    const rows = [
      { x: "a", y: 1 },
      { x: "b", y: 2 },
    ];
    const titled = parse(
      chartSvg({
        type: "bar",
        data: rows,
        index: "x",
        series: ["y"],
        width: 300,
        height: 200,
        title: "Sales <2024>",
      }),
    );
    expect(titled.getAttribute("role")).toBe("img");
    expect(titled.getAttribute("aria-label")).toBe("Sales <2024>");
    const plain = parse(
      chartSvg({ type: "bar", data: rows, index: "x", series: ["y"], width: 300, height: 200 }),
    );
    expect(plain.getAttribute("aria-hidden")).toBe("true");
  });

  it("writes each theme's colours as styles.css does, colour for colour", () => {
    const css = readFileSync(join(process.cwd(), "src", "styles.css"), "utf8");
    const rules = { light: ruleOf(css, ".seed-chart"), dark: ruleOf(css, ".dark .seed-chart") };
    for (const theme of ["light", "dark"] as const) {
      const rule = rules[theme];
      expect(chartThemes[theme]).toEqual({
        series: Array.from({ length: 8 }, (_, i) => colourToken(rule, `--seed-chart-${i + 1}`)),
        fg: colourToken(rule, "--seed-chart-fg"),
        muted: colourToken(rule, "--seed-chart-muted"),
        bg: colourToken(rule, "--seed-chart-bg"),
        axis: colourToken(rule, "--seed-chart-axis"),
        axisLine: colourToken(rule, "--seed-chart-axis-line"),
        grid: colourToken(rule, "--seed-chart-grid"),
      });
    }
    expect(lightPalette).toEqual(chartThemes.light.series);
  });

  it("draws an image on its theme's background, with a legend of every series", () => {
    const rows = [
      { x: "a", y: 1, z: 2 },
      { x: "b", y: 3, z: 1 },
    ];
    const root = parse(
      chartSvg({
        type: "bar",
        data: rows,
        index: "x",
        series: [{ key: "y", label: "Revenue" }, "z"],
        width: 400,
        height: 240,
        colors: "dark",
        legend: true,
      }),
    );
    expect(root.querySelector("rect")?.getAttribute("fill")).toBe(chartThemes.dark.bg);
    const texts = [...root.querySelectorAll("text")].map((text) => text.textContent);
    expect(texts).toContain("Revenue");
    expect(texts).toContain("z");
  });

  it("writes a caller's colours and names escaped: markup in them stays text", () => {
    const hostile = '"/><script>alert(1)</script><g x="';
    const svg = chartSvg({
      type: "line",
      data: [
        { x: "<b>", y: 1 },
        { x: "&amp;", y: 2 },
      ],
      index: "x",
      series: [{ key: "y", label: hostile, color: hostile }],
      width: 400,
      height: 240,
      title: hostile,
      legend: true,
    });
    const root = parse(svg);
    expect(root.querySelector("script")).toBeNull();
    expect(root.getAttribute("aria-label")).toBe(hostile);
    const texts = [...root.querySelectorAll("text")].map((text) => text.textContent);
    expect(texts).toContain("<b>");
    expect(texts).toContain("&amp;");
  });
});

describe("chartSvg annotations", () => {
  it("draws markers and bands with their text escaped, in an image's own colours", () => {
    const svg = chartSvg({
      type: "line",
      data: [
        { day: "2024-01-01", v: 1 },
        { day: "2024-02-01", v: 3 },
        { day: "2024-03-01", v: 2 },
      ],
      index: "day",
      series: ["v"],
      width: 600,
      height: 300,
      colors: "dark",
      annotations: [
        { at: "2024-02-01", label: "<script>alert(1)</script>" },
        { at: "2024-02-10", to: "2024-03-01", label: "Sale", color: '"/><script>x</script>' },
        { at: "2030-01-01", label: "Out of range" },
      ],
    });
    const root = parse(svg);
    const groups = root.querySelectorAll(".seed-chart-annotation");
    expect(groups).toHaveLength(2);
    expect(root.querySelectorAll("script")).toHaveLength(0);
    expect(groups[0]?.querySelector("title")?.textContent).toBe("<script>alert(1)</script>");
    expect(groups[0]?.querySelector("line")?.getAttribute("stroke")).toBe(chartThemes.dark.muted);
    expect(groups[1]?.querySelector("rect")?.getAttribute("fill")).toBe('"/><script>x</script>');
    expect(svg).not.toContain("Out of range");
  });
});
