// Issue 27, charts rendered on the server: scatterSvg draws any rows as well-formed SVG of the
// size asked, every point inside it, and the same points and y ticks as the ScatterChart it
// stands for. The property prints its seed.
import { cleanup, render } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { data as anyData } from "../never-crash/support";
import { ScatterChart } from "../scatter-chart/scatter-chart";
import { assertSeeded } from "../testing/property";
import { tickTexts } from "../testing/ticks";
import { vegaCars } from "../testing/vega-cars";
import { scatterSvg } from "./scatter-svg";

afterEach(cleanup);

function parse(svg: string): Element {
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  expect(doc.querySelector("parsererror")).toBeNull();
  return doc.documentElement;
}

/** The start (left edge) of every circle of the point paths: x - r and y. */
function circleStarts(root: Element): { x: number; y: number }[] {
  return [...root.querySelectorAll("path")].flatMap((path) =>
    [...(path.getAttribute("d") ?? "").matchAll(/M(-?[\d.]+),(-?[\d.]+)/g)].map((match) => ({
      x: Number(match[1]),
      y: Number(match[2]),
    })),
  );
}

describe("scatterSvg", () => {
  it("draws any rows at any size as well-formed SVG with every point inside its box", () => {
    assertSeeded(
      "scatterSvg inside its box",
      fc.property(
        anyData(3, 3000),
        fc.record({
          width: fc.oneof(fc.constantFrom(0, 1, 40, 375), fc.integer({ min: 1, max: 1600 })),
          height: fc.oneof(fc.constantFrom(0, 1, 60, 280), fc.integer({ min: 1, max: 700 })),
        }),
        fc.record({
          sized: fc.boolean(),
          colored: fc.boolean(),
          maxPoints: fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined }),
          colors: fc.constantFrom("variables" as const, "light" as const, "dark" as const),
          legend: fc.boolean(),
        }),
        ({ keys, rows }, { width, height }, look) => {
          const svg = scatterSvg({
            data: rows,
            x: "x",
            y: keys[0] ?? "none",
            size: look.sized ? keys[1] : undefined,
            color: look.colored ? (keys[2] ?? "x") : undefined,
            width,
            height,
            maxPoints: look.maxPoints,
            colors: look.colors,
            legend: look.legend,
            title: "Any",
          });
          const root = parse(svg);
          if (look.colors !== "variables") expect(svg).not.toContain("var(");
          // no size (either side 0) is an empty 1 x 1 box, as chartSvg draws it
          const sized = width > 0 && height > 0;
          const w = sized ? Math.max(1, Math.round(width)) : 1;
          const h = sized ? Math.max(1, Math.round(height)) : 1;
          expect(root.getAttribute("width")).toBe(String(w));
          // a point's circle reaches at most its largest radius (14 px) past its centre
          for (const { x, y } of circleStarts(root)) {
            if (!(x >= -15 && x <= w + 1 && y >= -1 && y <= h + 1)) {
              throw new Error(`point at ${x},${y} outside ${w}x${h}`);
            }
          }
        },
      ),
      200,
    );
  });

  it("draws the same points and y ticks as the ScatterChart it stands for", () => {
    const cars = vegaCars();
    const props = {
      data: cars,
      x: "Horsepower",
      y: "Miles_per_Gallon",
      size: "Weight_in_lbs",
      color: "Origin",
      locale: "en-US",
    } as const;
    const { container } = render(
      <ScatterChart {...props} width={640} height={300} animate={false} legend={false} />,
    );
    const reactPaths = [...container.querySelectorAll(".seed-scatter-points path")].map(
      (path) => path.getAttribute("d")?.match(/M/g)?.length ?? 0,
    );
    const reactTicks = tickTexts(container, "yAxis");
    const root = parse(scatterSvg({ ...props, width: 640, height: 300 }));
    const serverPaths = [...root.querySelectorAll("path")].map(
      (path) => path.getAttribute("d")?.match(/M/g)?.length ?? 0,
    );
    expect(serverPaths).toEqual(reactPaths);
    const serverTicks = [...root.querySelectorAll("text[text-anchor=end]")].map(
      (text) => text.textContent ?? "",
    );
    expect(serverTicks).toEqual(reactTicks);
    expect(reactTicks.length).toBeGreaterThan(2);
  });

  it("names each colour group in a legend under the plot, when asked, in the points' colours", () => {
    const cars = vegaCars();
    const props = {
      data: cars,
      x: "Horsepower",
      y: "Miles_per_Gallon",
      color: "Origin",
      width: 640,
      height: 300,
      colors: "light",
    } as const;
    const root = parse(scatterSvg({ ...props, legend: true }));
    const legendTexts = [...root.querySelectorAll("rect + text")].map((text) => text.textContent);
    // most points first, as ScatterChart's legend
    expect(legendTexts).toEqual(["USA", "Japan", "Europe"]);
    const swatches = [...root.querySelectorAll("rect[rx='2']")].map((rect) =>
      rect.getAttribute("fill"),
    );
    const pointFills = [...root.querySelectorAll("path")].map((path) => path.getAttribute("fill"));
    for (const swatch of swatches) expect(pointFills).toContain(swatch);
    // the legend takes its rows from the plot: the lowest y tick sits higher than without one
    const lowest = (svg: Element) =>
      Math.max(
        ...[...svg.querySelectorAll("text[text-anchor=end]")].map((text) =>
          Number(text.getAttribute("y")),
        ),
      );
    expect(lowest(root)).toBeLessThan(lowest(parse(scatterSvg(props))));
    // no colour column: no groups to name
    const plain = parse(scatterSvg({ ...props, color: undefined, legend: true }));
    expect(plain.querySelectorAll("rect[rx='2']")).toHaveLength(0);
  });

  it("draws the empty state with its reason", () => {
    const root = parse(
      scatterSvg({ data: [{ a: "n/a", b: 1 }], x: "a", y: "b", width: 300, height: 200 }),
    );
    expect(root.textContent).toContain("No row has a valid number for a and number for b");
  });
});
