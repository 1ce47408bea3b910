// Issue 27, "labels never clipped at any width": a pie's labels lie wholly inside its svg, from
// 200 px up, or are shortened (names) or hidden (the value stays in the tooltip and data table).
// happy-dom cannot measure text, so boxes are estimated as the layout estimates them (7 px a
// character, wide East Asian characters twice): the layout is tested against its own estimate,
// and the render tests check that the kit draws what the layout decided.
import { cleanup, render } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { assertSeeded } from "../testing/property";
import { PieChart } from "./pie-chart";
import { fitPieLabel, LABEL_GAP, labelBox, pieRadius } from "./pie-labels";

afterEach(cleanup);

const text = fc.oneof(
  fc.constantFrom("29.4%", "100%", "0.1%", "1,234,567.89", "Other", "名前の長いカテゴリ", "🙂🙂"),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
);

describe("pie label layout", () => {
  it("keeps every label it shows inside the svg, at any size and angle", () => {
    assertSeeded(
      "pie label layout inside the svg",
      fc.property(
        fc.integer({ min: 200, max: 2400 }),
        fc.integer({ min: 60, max: 1200 }),
        fc.array(fc.tuple(text, fc.double({ min: 0, max: 360, noNaN: true })), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.boolean(),
        (width, height, labels, names) => {
          const radius = pieRadius(width, height, Math.max(...labels.map(([t]) => t.length * 7)));
          expect(radius).toBeGreaterThanOrEqual(0);
          expect(radius).toBeLessThanOrEqual(Math.min(width, height) / 2);
          const cx = width / 2;
          const cy = height / 2;
          for (const [label, angle] of labels) {
            // where Recharts puts a label: LABEL_GAP past the slice, at the slice's mid angle
            const x = cx + (radius + LABEL_GAP) * Math.cos((-angle * Math.PI) / 180);
            const y = cy + (radius + LABEL_GAP) * Math.sin((-angle * Math.PI) / 180);
            const anchor = x > cx ? "start" : x < cx ? "end" : "middle";
            const shown = fitPieLabel(label, x, y, anchor, width, height, names);
            if (shown === null) continue;
            if (!names) expect(shown).toBe(label);
            const box = labelBox(shown, x, y, anchor);
            expect(box.left).toBeGreaterThanOrEqual(0);
            expect(box.right).toBeLessThanOrEqual(width);
            expect(box.top).toBeGreaterThanOrEqual(0);
            expect(box.bottom).toBeLessThanOrEqual(height);
          }
        },
      ),
      2000,
    );
  });

  it("leaves room for percent labels beside the pie whenever the box is at least 200 px wide", () => {
    // at 200 px and up a pie keeps room for "100%" left and right, so no percent label hides
    for (const width of [200, 240, 320, 375, 414, 768, 1440]) {
      for (const height of [200, 300, 480]) {
        const radius = pieRadius(width, height, 5 * 7);
        expect(width / 2 - radius - LABEL_GAP - 2, `${width}x${height}`).toBeGreaterThanOrEqual(35);
      }
    }
  });
});

// the shares of the donut: 29.4% was drawn as "9.4%" at 375 px
const rows = [
  { name: "North", v: 294 },
  { name: "South-east and the islands", v: 251 },
  { name: "West", v: 187 },
  { name: "East", v: 142 },
  { name: "Centre", v: 126 },
];

function drawnLabels(container: HTMLElement) {
  const svg = container.querySelector("svg.recharts-surface") as SVGSVGElement;
  const [, , width, height] = (svg.getAttribute("viewBox") ?? "").split(" ").map(Number);
  const labels = Array.from(container.querySelectorAll(".recharts-pie-label-text")).map((node) => ({
    text: node.textContent ?? "",
    x: Number(node.getAttribute("x")),
    y: Number(node.getAttribute("y")),
    anchor: node.getAttribute("text-anchor") ?? "start",
  }));
  return { width: width as number, height: height as number, labels };
}

describe("PieChart labels at any width", () => {
  const widths = [200, 240, 320, 375, 414, 480, 640, 1024];
  for (const variant of ["pie", "donut"] as const) {
    for (const labels of ["percent", "value", "name"] as const) {
      it(`${variant}, ${labels} labels: inside the svg at ${widths.join(", ")} px`, () => {
        for (const width of widths) {
          for (const height of [200, 300]) {
            const { container } = render(
              <PieChart
                data={rows}
                index="name"
                value="v"
                variant={variant}
                labels={labels}
                width={width}
                height={height}
                locale="en-US"
                animate={false}
              />,
            );
            const drawn = drawnLabels(container);
            expect(drawn.width).toBe(width);
            for (const label of drawn.labels) {
              const box = labelBox(label.text, label.x, label.y, label.anchor);
              const where = `${label.text} at ${width}x${height}`;
              expect(box.left, where).toBeGreaterThanOrEqual(0);
              expect(box.right, where).toBeLessThanOrEqual(drawn.width);
              expect(box.top, where).toBeGreaterThanOrEqual(0);
              expect(box.bottom, where).toBeLessThanOrEqual(drawn.height);
            }
            const texts = drawn.labels.map((l) => l.text);
            if (labels === "percent") {
              // whole labels or none: never a cut number
              expect(texts, `${width}x${height}`).toEqual([
                "29.4%",
                "25.1%",
                "18.7%",
                "14.2%",
                "12.6%",
              ]);
            } else if (labels === "value") {
              expect(texts).toEqual(["294", "251", "187", "142", "126"]);
            } else {
              for (const t of texts)
                expect(rows.some((r) => r.name.startsWith(t.replace("…", "")))).toBe(true);
            }
            // the values stay in the data table whatever the labels show
            expect(container.querySelector("table")?.textContent).toContain("29.4%");
            cleanup();
          }
        }
      });
    }
  }
});
