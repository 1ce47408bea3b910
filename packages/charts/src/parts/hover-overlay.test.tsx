import { render, waitFor } from "@testing-library/react";
import { Line, LineChart, Tooltip, YAxis } from "recharts";
import { describe, expect, it } from "vitest";
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
