import { act, fireEvent, render, waitFor } from "@testing-library/react";
import fc from "fast-check";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AreaChart } from "../area-chart";
import { BarChart } from "../bar-chart";
import { LineChart, type LineChartProps } from "../line-chart";
import type { ChartAnnotation } from "../parts/annotations";
import { assertSeeded } from "../testing/property";
import { vegaStocks } from "../testing/vega-stocks";
import { annotate } from ".";

const sales = [
  { date: "2024-01-01", revenue: 1200 },
  { date: "2024-02-01", revenue: 2000 },
  { date: "2024-03-01", revenue: 1500 },
];

const events = annotate([
  { at: "2024-02-01", label: "Price change" },
  { at: "2024-02-15", to: "2024-03-31", label: "Spring sale" },
]);

/** The sales by month at 600 px with the two events; each test adds the props it is about. */
function renderAnnotatedSales(props: Partial<LineChartProps<(typeof sales)[number]>> = {}) {
  return render(
    <LineChart
      data={sales}
      index="date"
      series={["revenue"]}
      width={600}
      locale="en-US"
      annotations={events}
      {...props}
    />,
  );
}

function rowHeaders(container: HTMLElement): string[] {
  return [...container.querySelectorAll("table tbody th")].map((th) => th.textContent ?? "");
}

/** x of the plot's left and right edge, from the horizontal grid lines Recharts draws across it. */
function plotEdges(container: HTMLElement): [number, number] {
  const line = container.querySelector(".recharts-cartesian-grid-horizontal line") as Element;
  return [Number(line.getAttribute("x1")), Number(line.getAttribute("x2"))];
}

describe("annotations on a line chart", () => {
  it("draws a marker and a band inside the plot, under the lines, each labelled", () => {
    const { container } = renderAnnotatedSales();
    const [left, right] = plotEdges(container);
    const marker = container.querySelector(".seed-chart-annotation line") as SVGLineElement;
    const band = container.querySelector(".seed-chart-annotation rect") as SVGRectElement;
    const x = Number(marker.getAttribute("x1"));
    const bandLeft = Number(band.getAttribute("x"));
    const bandRight = bandLeft + Number(band.getAttribute("width"));

    // February is the middle of three months: the marker is near the plot's middle
    expect(x).toBeGreaterThan(left + (right - left) * 0.4);
    expect(x).toBeLessThan(left + (right - left) * 0.6);
    // the band runs from mid-February to the end of the plot (the data ends on 1 March)
    expect(bandLeft).toBeGreaterThan(x);
    expect(bandRight).toBeCloseTo(right, 5);
    const texts = [...container.querySelectorAll(".seed-chart-annotation title")].map(
      (title) => title.textContent,
    );
    expect(texts).toEqual(["Price change", "Spring sale"]);
    // hidden from screen readers, who get the same text in the table and on each point
    expect(container.querySelector(".seed-chart-annotations")).toHaveAttribute(
      "aria-hidden",
      "true",
    );
    const layer = container.querySelector(".seed-chart-annotations") as Element;
    const line = container.querySelector(".recharts-line") as Element;
    expect(layer.compareDocumentPosition(line) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("names each annotated point with its annotations in the table, tooltip and on the keys", async () => {
    const { container } = renderAnnotatedSales();
    expect(rowHeaders(container)).toEqual([
      "Jan 1, 2024",
      "Feb 1, 2024 — Price change",
      "Mar 1, 2024 — Spring sale",
    ]);

    const wrapper = container.querySelector(".recharts-wrapper") as HTMLElement;
    fireEvent.mouseMove(wrapper, { clientX: 330, clientY: 100 });
    await waitFor(() =>
      expect(container.querySelector(".seed-chart-tooltip")).toHaveTextContent(
        "Feb 1, 2024 — Price change",
      ),
    );

    const svg = container.querySelector("svg.recharts-surface") as SVGElement;
    act(() => svg.focus());
    fireEvent.keyDown(svg, { key: "ArrowRight" });
    const live = container.querySelector("[aria-live=polite]") as HTMLElement;
    await waitFor(() =>
      expect(live).toHaveTextContent("Feb 1, 2024 — Price change: revenue 2,000"),
    );
  });

  it("hands a custom tooltip the label with the annotations", async () => {
    const { container, findByTestId } = renderAnnotatedSales({
      tooltip: ({ label }) => <p data-testid="custom">{label}</p>,
    });
    const wrapper = container.querySelector(".recharts-wrapper") as HTMLElement;
    fireEvent.mouseMove(wrapper, { clientX: 560, clientY: 100 });
    expect(await findByTestId("custom")).toHaveTextContent("Mar 1, 2024 — Spring sale");
  });

  it("keeps every annotated point in a data table cut to 200 rows", () => {
    // a random walk of 5,000 days, drawn at 1,200 px: about 1,000 drawn rows, 200 in the table
    let value = 100;
    let seed = 7;
    const data = Array.from({ length: 5000 }, (_, i) => {
      seed = (seed * 16_807) % 2_147_483_647;
      value += (seed / 2_147_483_647 - 0.5) * 4;
      return { day: Date.UTC(2010, 0, 1) + i * 86_400_000, value };
    });
    const labels = ["Audit", "Move", "Rebrand", "Merger"];
    const { container } = render(
      <LineChart
        data={data}
        index="day"
        indexType="time"
        series={["value"]}
        width={1200}
        locale="en-US"
        animate={false}
        annotations={annotate(
          labels.map((label, i) => ({ at: Date.UTC(2011 + i * 3, 5, 15), label })),
        )}
      />,
    );
    const headers = rowHeaders(container);
    expect(headers.length).toBeLessThanOrEqual(200 + labels.length);
    for (const label of labels) {
      expect(headers.filter((header) => header.endsWith(`— ${label}`))).toHaveLength(1);
    }
  });

  it("marks the vega-datasets stocks (GOOG) with the Lehman bankruptcy inside the 2008 recession band", () => {
    const goog = vegaStocks()
      .filter((row) => row.symbol === "GOOG")
      .map(({ day, price }) => ({ date: new Date(day), price }));
    const { container } = render(
      <LineChart
        data={goog}
        index="date"
        series={[{ key: "price", label: "GOOG" }]}
        width={800}
        locale="en-US"
        animate={false}
        annotations={annotate([
          { at: "2008-09-15", label: "Lehman Brothers files for bankruptcy" },
          { at: "2007-12-01", to: "2009-06-30", label: "Great Recession" },
        ])}
      />,
    );
    const headers = rowHeaders(container);
    // monthly prices: the bankruptcy (15 September) goes to the nearest month, 1 September
    expect(headers).toContain(
      "Sep 1, 2008 — Lehman Brothers files for bankruptcy; Great Recession",
    );
    expect(headers.filter((header) => header.includes("Great Recession"))).toHaveLength(19);
    const marker = Number(
      container.querySelector(".seed-chart-annotation line")?.getAttribute("x1"),
    );
    const band = container.querySelector(".seed-chart-annotation rect") as SVGRectElement;
    const bandLeft = Number(band.getAttribute("x"));
    expect(marker).toBeGreaterThan(bandLeft);
    expect(marker).toBeLessThan(bandLeft + Number(band.getAttribute("width")));
  });
});

describe("annotations on bars and areas", () => {
  it("spans whole bars on a band axis, and lies across the plot for horizontal bars", () => {
    const quarters = [
      { quarter: "Q1", sales: 3 },
      { quarter: "Q2", sales: 5 },
      { quarter: "Q3", sales: 4 },
      { quarter: "Q4", sales: 6 },
    ];
    const notes = annotate([
      { at: "Q2", to: "Q3", label: "Campaign" },
      { at: "Q4", label: "New shop" },
    ]);
    const { container } = render(
      <BarChart
        data={quarters}
        index="quarter"
        series={["sales"]}
        width={600}
        annotations={notes}
      />,
    );
    // two of four bars' bands: half the plot's width
    const [left, right] = plotEdges(container);
    const band = container.querySelector(".seed-chart-annotation rect") as SVGRectElement;
    expect(Number(band.getAttribute("width"))).toBeCloseTo((right - left) / 2, 5);
    expect(Number(band.getAttribute("x"))).toBeCloseTo(left + (right - left) / 4, 5);
    expect(rowHeaders(container)).toEqual([
      "Q1",
      "Q2 — Campaign",
      "Q3 — Campaign",
      "Q4 — New shop",
    ]);

    const { container: horizontal } = render(
      <BarChart
        data={quarters}
        index="quarter"
        series={["sales"]}
        width={600}
        horizontal
        annotations={notes}
      />,
    );
    const line = horizontal.querySelector(".seed-chart-annotation line") as SVGLineElement;
    expect(line.getAttribute("y1")).toBe(line.getAttribute("y2"));
    expect(Number(line.getAttribute("x2"))).toBeGreaterThan(Number(line.getAttribute("x1")));
  });

  it("draws on a stacked area chart and renders on the server without a crash", () => {
    const element = (
      <AreaChart data={sales} index="date" series={["revenue"]} width={600} annotations={events} />
    );
    const { container } = render(element);
    expect(container.querySelectorAll(".seed-chart-annotation")).toHaveLength(2);
    expect(() => renderToString(element)).not.toThrow();
  });
});

describe("annotations never crash a chart", () => {
  it("draws any annotations over any rows, or leaves them out, without the error state", () => {
    const anyValue = fc.oneof(
      fc.date({ noInvalidDate: false }),
      fc.string(),
      fc.double(),
      fc.integer(),
      fc.constantFrom(null, undefined, "2024-02-01", "2024-13-45", "", Number.NaN, 1e308),
      fc.object(),
    );
    assertSeeded(
      "annotations never crash a chart",
      fc.property(
        fc.array(fc.record({ date: anyValue, revenue: fc.oneof(fc.double(), fc.integer()) }), {
          maxLength: 30,
        }),
        fc.array(
          fc.record({
            at: anyValue,
            to: fc.option(anyValue, { nil: undefined }),
            label: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
            color: fc.option(fc.constantFrom("red", "var(--x)", "not a colour"), {
              nil: undefined,
            }),
          }),
          { maxLength: 6 },
        ),
        fc.constantFrom("line", "bar", "horizontal"),
        (rows, annotations, kind) => {
          const notes = annotate(annotations as unknown as ChartAnnotation[]);
          const props = { data: rows, index: "date" as const, series: ["revenue" as const] };
          const { container, unmount } = render(
            kind === "line" ? (
              <LineChart {...props} width={400} animate={false} annotations={notes} />
            ) : (
              <BarChart
                {...props}
                width={400}
                animate={false}
                horizontal={kind === "horizontal"}
                annotations={notes}
              />
            ),
          );
          expect(container.querySelector("[data-testid=seed-chart-error]")).toBeNull();
          unmount();
        },
      ),
      60,
    );
  });
});
