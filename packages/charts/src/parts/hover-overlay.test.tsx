import { act, fireEvent, render, waitFor } from "@testing-library/react";
import { Line, LineChart, Tooltip, YAxis } from "recharts";
import { describe, expect, it } from "vitest";
import { BarChart } from "../bar-chart/bar-chart";
import { LineChart as SeedLineChart } from "../line-chart/line-chart";
import { HoverOverlay } from "./hover-overlay";

const rows = [
  { x: 0, a: 10, b: 40 },
  { x: 1, a: 20, b: null },
  { x: 2, a: 30, b: 20 },
];

describe("HoverOverlay", () => {
  it("puts the crosshair and one dot per series with a value at the active point, outside the SVG", async () => {
    const { container } = render(
      <LineChart width={400} height={200} data={rows}>
        <YAxis domain={[0, 50]} />
        <Line dataKey="a" isAnimationActive={false} activeDot={false} />
        <Line dataKey="b" isAnimationActive={false} activeDot={false} />
        <Tooltip defaultIndex={1} cursor={false} />
        <HoverOverlay
          series={[
            { dataKey: "a", color: "red" },
            { dataKey: "b", color: "blue" },
          ]}
        />
      </LineChart>,
    );
    const layer = await waitFor(() => {
      const found = container.querySelector<HTMLElement>(".seed-chart-hover-layer");
      expect(found?.style.visibility).toBe("visible");
      return found as HTMLElement;
    });
    expect(layer.closest("svg")).toBeNull();
    const [dotA, dotB] = layer.querySelectorAll<HTMLElement>(".seed-chart-hover-dot");
    expect(dotA?.style.transform).toMatch(/^translate\([\d.]+px, [\d.]+px\)$/);
    expect(dotA?.style.background).toBe("red");
    // b has no value at the active row: no dot for it
    expect(dotB?.style.visibility).toBe("hidden");
    expect(layer.querySelector<HTMLElement>(".seed-chart-crosshair")?.style.transform).toMatch(
      /^translate\([\d.]+px, [\d.]+px\)$/,
    );
  });
});

interface Sale {
  date: string;
  day: number;
  revenue: number;
}

const sales: Sale[] = [
  { date: "2024-01-01", day: 10, revenue: 1200 },
  { date: "2024-02-01", day: 20, revenue: 2000 },
  { date: "2024-03-01", day: 30, revenue: 1500 },
];

function plotOf(container: HTMLElement): HTMLElement {
  return container.querySelector(".recharts-wrapper") as HTMLElement;
}

/** The sales as a LineChart of revenue at 600 px in en-US, over the date or the day column. */
function salesChart(data: Sale[], index: "date" | "day") {
  return (
    <SeedLineChart<Sale>
      data={data}
      index={index}
      series={["revenue"]}
      width={600}
      locale="en-US"
    />
  );
}

function tooltipText(container: HTMLElement): string | null {
  return container.querySelector(".seed-chart-tooltip")?.textContent ?? null;
}

/** Lets effects and Recharts' store settle, so a tooltip that would open has opened. */
async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 30));
  });
}

describe("PointerGate (every cartesian chart)", () => {
  it("opens the tooltip on the first move of a pointer entering the plot from outside", async () => {
    const { container } = render(salesChart(sales, "date"));
    const plot = plotOf(container);
    fireEvent.mouseOver(plot, { relatedTarget: document.body, clientX: 330, clientY: 100 });
    fireEvent.mouseMove(plot, { clientX: 330, clientY: 100 });
    await waitFor(() => expect(tooltipText(container)).toContain("Feb 1, 2024"));
    expect(tooltipText(container)).toContain("2,000");
  });

  it("closes the tooltip when the data changes under a resting pointer, and shows the new values on the next move", async () => {
    const { container, rerender } = render(salesChart(sales, "date"));
    fireEvent.mouseMove(plotOf(container), { clientX: 330, clientY: 100 });
    await waitFor(() => expect(tooltipText(container)).toContain("2,000"));

    const next = sales.map((row) => ({ ...row, revenue: row.revenue + 7 }));
    rerender(salesChart(next, "date"));
    await settle();
    expect(tooltipText(container)).toBeNull();
    expect(container.querySelector(".recharts-active-dot")).toBeNull();
    // the browser reports the redrawn plot as entered, with no move: still nothing opens
    fireEvent.mouseOver(plotOf(container), { relatedTarget: document.body });
    await settle();
    expect(tooltipText(container)).toBeNull();

    fireEvent.mouseMove(plotOf(container), { clientX: 330, clientY: 100 });
    await waitFor(() => expect(tooltipText(container)).toContain("2,007"));
  });

  it("closes the tooltip when the x column changes under a resting pointer", async () => {
    const { container, rerender } = render(salesChart(sales, "date"));
    fireEvent.mouseMove(plotOf(container), { clientX: 330, clientY: 100 });
    await waitFor(() => expect(tooltipText(container)).toContain("Feb 1, 2024"));

    rerender(salesChart(sales, "day"));
    await settle();
    expect(tooltipText(container)).toBeNull();
    fireEvent.mouseMove(plotOf(container), { clientX: 330, clientY: 100 });
    await waitFor(() => expect(tooltipText(container)).toMatch(/^20/));
  });

  it("opens nothing for a chart drawn under a resting pointer until it moves", async () => {
    const { container } = render(
      <SeedLineChart data={sales} index="date" series={["revenue"]} width={600} />,
    );
    fireEvent.mouseOver(plotOf(container), { relatedTarget: null, clientX: 330, clientY: 100 });
    await settle();
    expect(tooltipText(container)).toBeNull();
  });

  it("shows the tooltip for the nearest x on a touch press and follows a touch drag", async () => {
    const { container } = render(
      <BarChart data={sales} index="date" series={["revenue"]} width={600} locale="en-US" />,
    );
    const plot = plotOf(container);
    fireEvent.pointerDown(plot, { pointerType: "touch", clientX: 90, clientY: 100 });
    await waitFor(() => expect(tooltipText(container)).toContain("1,200"));
    fireEvent.pointerMove(plot, { pointerType: "touch", clientX: 520, clientY: 100 });
    await waitFor(() => expect(tooltipText(container)).toContain("1,500"));
  });
});
