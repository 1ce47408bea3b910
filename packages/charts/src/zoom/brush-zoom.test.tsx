import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { exportChartCsv } from "../export/export-chart";
import { LineChart } from "../line-chart";
import { BrushZoom, scaleRange } from "./brush-zoom";

function ramp(count: number) {
  return Array.from({ length: count }, (_, i) => ({ x: i, v: Math.sin(i / 10) }));
}

/** First and last x the chart draws, from its CSV export. */
function drawnRange(container: HTMLElement): [number, number] {
  const lines = exportChartCsv(container)
    .split("\r\n")
    .filter((line) => line !== "");
  return [Number(lines[1]?.split(",")[0]), Number(lines[lines.length - 1]?.split(",")[0])];
}

describe("scaleRange", () => {
  it("zooms around a centre and stays inside the data", () => {
    expect(scaleRange([0, 100], 50, 0.5, [0, 100])).toEqual([25, 75]);
    expect(scaleRange([0, 100], 10, 0.5, [0, 100])).toEqual([5, 55]);
    expect(scaleRange([40, 60], 50, 2, [0, 100])).toEqual([30, 70]);
    expect(scaleRange([20, 80], 50, 2, [0, 100])).toBeNull();
  });
});

describe("BrushZoom", () => {
  it("shows the dragged x range, drawn again at full detail, until reset", async () => {
    const { container } = render(
      <LineChart data={ramp(10_000)} index="x" series={["v"]} width={600} zoom={BrushZoom} />,
    );
    const wrapper = container.querySelector(".recharts-wrapper") as HTMLElement;
    expect(drawnRange(container)).toEqual([0, 9999]);

    fireEvent.pointerDown(wrapper, { clientX: 200, button: 0 });
    fireEvent.pointerMove(window, { clientX: 300 });
    await waitFor(() =>
      expect(container.querySelector(".seed-chart-zoom-selection")).not.toBeNull(),
    );
    fireEvent.pointerUp(window, { clientX: 300 });

    await waitFor(() => expect(drawnRange(container)[1]).toBeLessThan(9999));
    const [from, to] = drawnRange(container);
    expect(from).toBeGreaterThan(0);
    expect(to - from).toBeLessThan(3000);
    // about one point per pixel again, all from inside the range: detail the full view dropped
    const rows = exportChartCsv(container).split("\r\n").length - 2;
    expect(rows).toBeGreaterThan(Math.min(400, to - from));
    expect(container.querySelector(".seed-chart-zoom-selection")).toBeNull();

    await userEvent.click(screen.getByRole("button", { name: "Reset zoom" }));
    await waitFor(() => expect(drawnRange(container)).toEqual([0, 9999]));
    expect(screen.queryByRole("button", { name: "Reset zoom" })).toBeNull();
  });

  it("treats a short drag as a click, not a zoom", () => {
    const { container } = render(
      <LineChart data={ramp(100)} index="x" series={["v"]} width={600} zoom={BrushZoom} />,
    );
    const wrapper = container.querySelector(".recharts-wrapper") as HTMLElement;

    fireEvent.pointerDown(wrapper, { clientX: 200, button: 0 });
    fireEvent.pointerUp(window, { clientX: 203 });

    expect(drawnRange(container)).toEqual([0, 99]);
  });

  it("zooms in with +, out with - and resets with 0 from the keyboard", async () => {
    const { container } = render(
      <LineChart data={ramp(1000)} index="x" series={["v"]} width={600} zoom={BrushZoom} />,
    );
    const svg = container.querySelector("svg.recharts-surface") as SVGElement;
    await waitFor(() => expect(svg).toHaveAttribute("aria-keyshortcuts", "+ - 0"));

    // focus makes the first point active: zooming keeps it in view
    act(() => svg.focus());
    fireEvent.keyDown(svg, { key: "+" });
    await waitFor(() => expect(drawnRange(container)).toEqual([0, 499]));
    fireEvent.keyDown(svg, { key: "+" });
    await waitFor(() => expect(drawnRange(container)).toEqual([0, 249]));
    fireEvent.keyDown(svg, { key: "-" });
    await waitFor(() => expect(drawnRange(container)).toEqual([0, 499]));
    fireEvent.keyDown(svg, { key: "0" });
    await waitFor(() => expect(drawnRange(container)).toEqual([0, 999]));
  });
});
