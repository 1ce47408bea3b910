import { act, render } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AreaChart } from "../area-chart/area-chart";
import { BarChart } from "../bar-chart/bar-chart";
import { LineChart } from "../line-chart/line-chart";
import { PieChart } from "../pie-chart/pie-chart";
import { fakeReducedMotion } from "../testing/motion";

const rows = [
  { month: "Jan", a: 30, b: 12 },
  { month: "Feb", a: 45, b: 20 },
  { month: "Mar", a: 28, b: 26 },
  { month: "Apr", a: 60, b: 18 },
];

/** Every chart type, with what it draws. */
const charts: { name: string; element: ReactElement; marks: string }[] = [
  {
    name: "LineChart",
    element: <LineChart data={rows} index="month" series={["a", "b"]} width={600} />,
    marks: ".recharts-line-curve",
  },
  {
    name: "AreaChart",
    element: <AreaChart data={rows} index="month" series={["a", "b"]} width={600} />,
    // areas grow through a clip rectangle
    marks: ".recharts-area-area, .recharts-area clipPath rect",
  },
  {
    name: "BarChart",
    element: <BarChart data={rows} index="month" series={["a", "b"]} width={600} />,
    marks: ".recharts-bar-rectangle path",
  },
  {
    name: "PieChart",
    element: <PieChart data={rows} index="month" value="a" width={600} />,
    marks: ".recharts-pie-sector path",
  },
  {
    name: "PieChart donut",
    element: <PieChart data={rows} index="month" value="a" variant="donut" width={600} />,
    marks: ".recharts-pie-sector path",
  },
];

/** What the marks look like now: their geometry and dash state. */
function geometry(container: HTMLElement, marks: string): string {
  return [...container.querySelectorAll(marks)]
    .map((mark) =>
      ["d", "stroke-dasharray", "width", "height", "x", "y"]
        .map((attribute) => mark.getAttribute(attribute))
        .join(","),
    )
    .join("|");
}

/** Renders under fake clocks and returns the times (ms) at which the drawing changed, over 3 s. */
function changesOverTime(
  element: ReactElement,
  marks: string,
): { changes: number[]; drawn: string } {
  vi.useFakeTimers({
    toFake: [
      "requestAnimationFrame",
      "cancelAnimationFrame",
      "setTimeout",
      "clearTimeout",
      "performance",
      "Date",
    ],
  });
  const { container } = render(element);
  let last = geometry(container, marks);
  const changes: number[] = [];
  for (let t = 16; t <= 3000; t += 16) {
    act(() => {
      vi.advanceTimersByTime(16);
    });
    const now = geometry(container, marks);
    if (now !== last) changes.push(t);
    last = now;
  }
  return { changes, drawn: last };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("animation (issue 11)", () => {
  for (const { name, element, marks } of charts) {
    it(`${name} settles within 400 ms`, () => {
      fakeReducedMotion(false);
      const { changes, drawn } = changesOverTime(element, marks);

      expect(drawn).not.toBe("");
      // it does animate (so this test can fail), for at most 400 ms, starting within 5 frames
      expect(changes.length).toBeGreaterThan(0);
      const first = changes[0] as number;
      const last = changes[changes.length - 1] as number;
      expect(last - first).toBeLessThanOrEqual(400);
      expect(last).toBeLessThanOrEqual(400 + 5 * 16);
    });

    it(`${name} does not animate under prefers-reduced-motion`, () => {
      fakeReducedMotion(true);
      const { changes, drawn } = changesOverTime(element, marks);

      expect(drawn).not.toBe("");
      expect(changes).toEqual([]);
    });
  }
});
