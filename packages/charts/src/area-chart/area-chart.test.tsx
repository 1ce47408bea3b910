import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectDrawsAnyRows } from "../testing/random-rows";
import { tickTexts } from "../testing/ticks";
import { AreaChart, type AreaChartProps } from "./area-chart";

function trafficRows() {
  return [
    { day: "2024-05-01", web: 30, app: 70 },
    { day: "2024-05-02", web: 50, app: 50 },
    { day: "2024-05-03", web: 20, app: 60 },
  ];
}

type TrafficRow = ReturnType<typeof trafficRows>[number];

/** The traffic rows at 600 px, both series; each test adds or overrides the props it is about. */
function renderTraffic(props: Partial<AreaChartProps<TrafficRow>> = {}) {
  return render(
    <AreaChart data={trafficRows()} index="day" series={["web", "app"]} width={600} {...props} />,
  );
}

describe("AreaChart", () => {
  it("fills each series with its own gradient", () => {
    const { container } = renderTraffic();

    const gradients = container.querySelectorAll("linearGradient");
    expect(gradients).toHaveLength(2);
    const fill = container.querySelector(".recharts-area-area")?.getAttribute("fill") ?? "";
    expect(fill).toMatch(/^url\(#.+-s0\)$/);
  });

  it("uses a flat fill when the gradient is off", () => {
    const { container } = renderTraffic({ series: ["web"], gradient: false });

    expect(container.querySelectorAll("linearGradient")).toHaveLength(0);
    expect(container.querySelector(".recharts-area-area")).toHaveAttribute(
      "fill",
      "var(--seed-chart-1)",
    );
  });

  it("stacks series so the value axis reaches their sum", () => {
    const { container } = renderTraffic({ stack: "stacked", yAxis: { max: "dataMax" } });

    expect(tickTexts(container, "yAxis").at(-1)).toBe("100");
  });

  it("stacks to 100% with a percent axis and says so in the summary", () => {
    const { container } = renderTraffic({ stack: "percent", locale: "en-US" });

    expect(tickTexts(container, "yAxis")).toEqual(["0%", "25%", "50%", "75%", "100%"]);
    expect(screen.getByRole("figure")).toHaveAccessibleDescription(
      /^100% stacked area chart of web and app/,
    );
  });

  it("hides a series from the legend and the data table", async () => {
    const user = userEvent.setup();
    renderTraffic();

    await user.click(screen.getByRole("button", { name: "web" }));

    expect(screen.getAllByRole("columnheader").map((th) => th.textContent)).toEqual(["day", "app"]);
  });

  it("never throws on random rows", () => {
    const value = fc.oneof(fc.double(), fc.string({ maxLength: 3 }), fc.constant(null));
    expectDrawsAnyRows(
      fc.array(fc.record({ x: fc.integer(), a: value }), { maxLength: 25 }),
      (rows) => <AreaChart data={rows} index="x" series={["a"]} width={300} stack="percent" />,
      20,
    );
  }, 60_000);
});

describe("AreaChart with typed-array columns", () => {
  it("stacks series given as columns with their own x", () => {
    type Load = { t: number; web: number; api: number };
    const { container } = render(
      <AreaChart<Load>
        data={{
          web: { x: new Float64Array([1, 2, 3]), y: new Float64Array([10, 20, 30]) },
          api: { x: new Float64Array([1, 2, 3]), y: new Float64Array([5, 5, 5]) },
        }}
        index="t"
        series={["web", "api"]}
        stack="stacked"
        width={600}
      />,
    );

    expect(container.querySelectorAll(".recharts-area-area")).toHaveLength(2);
    const ticks = tickTexts(container, "yAxis").map(Number);
    expect(Math.max(...ticks)).toBeGreaterThanOrEqual(35);
  });
});
