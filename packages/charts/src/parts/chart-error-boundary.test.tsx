import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AreaChart } from "../area-chart/area-chart";
import { BarChart } from "../bar-chart/bar-chart";
import { LineChart } from "../line-chart/line-chart";
import { PieChart } from "../pie-chart/pie-chart";
import { ChartFrame } from "./chart-frame";

function Throws(): never {
  throw new Error("Division by zero");
}

function frame(draw: () => React.ReactNode) {
  return (
    <ChartFrame
      chartName="LineChart"
      title="Revenue"
      summary="Revenue by day"
      status="ready"
      chartProps={{ emptyMessage: "No data", width: 200, initialWidth: 200 }}
      frame={{ emptyReason: null }}
      legendPosition={false}
      legend={null}
      height={100}
      liveRegion={{ current: null }}
    >
      {draw}
    </ChartFrame>
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("chart error boundary", () => {
  it("shows the reason in the chart's own box and keeps the rest of the page", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});

    render(
      <main>
        {frame(() => (
          <Throws />
        ))}
        <p>still here</p>
        {frame(() => (
          <svg data-testid="healthy" />
        ))}
      </main>,
    );

    expect(screen.getByRole("alert")).toHaveTextContent("Division by zero");
    expect(screen.getByText("still here")).toBeInTheDocument();
    expect(screen.getByTestId("healthy")).toBeInTheDocument();
  });

  it("catches a throw in the draw function itself", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});

    render(
      frame(() => {
        throw new Error("Invalid time value");
      }),
    );

    expect(screen.getByRole("alert")).toHaveTextContent("Invalid time value");
  });
});

describe("every chart type sits in its own boundary", () => {
  const rows = [
    { day: "2024-01-01", v: 3 },
    { day: "2024-01-02", v: 5 },
  ];
  const throwing = (): string => {
    throw new Error("formatter broke");
  };
  // the value formatter runs while the summary is built, outside the plot's own boundary
  const charts = {
    LineChart: <LineChart data={rows} index="day" series={["v"]} valueFormatter={throwing} />,
    AreaChart: (
      <AreaChart data={rows} index="day" series={["v"]} stack="percent" valueFormatter={throwing} />
    ),
    BarChart: (
      <BarChart data={rows} index="day" series={["v"]} horizontal valueFormatter={throwing} />
    ),
    PieChart: (
      <PieChart data={rows} index="day" value="v" variant="donut" valueFormatter={throwing} />
    ),
  };

  for (const [name, chart] of Object.entries(charts)) {
    it(`${name} shows the reason in a box of its size and the page keeps working`, () => {
      vi.spyOn(console, "error").mockImplementation(() => {});

      const { container } = render(
        <main>
          <div data-testid="broken">{chart}</div>
          <p>still here</p>
          <LineChart data={rows} index="day" series={["v"]} width={300} title="Healthy" />
        </main>,
      );

      const broken = screen.getByTestId("broken");
      expect(within(broken).getByRole("alert")).toHaveTextContent("formatter broke");
      expect(broken.querySelector(".seed-chart-plot")).toHaveStyle({ height: "300px" });
      expect(broken.querySelector("figure")).toHaveAttribute("data-chart", name);
      expect(screen.getByText("still here")).toBeInTheDocument();
      expect(screen.getByRole("figure", { name: "Healthy" })).toBeInTheDocument();
      expect(container.querySelectorAll("[role=alert]")).toHaveLength(1);
    });
  }

  it("tries again when new data arrives", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const formatter = (v: number) => {
      if (v > 100) throw new Error("too big for this formatter");
      return String(v);
    };
    const big = [{ name: "a", v: 1000 }];
    const small = [{ name: "a", v: 10 }];

    const { rerender } = render(
      <PieChart data={big} index="name" value="v" valueFormatter={formatter} />,
    );
    expect(screen.getByRole("alert")).toHaveTextContent("too big for this formatter");

    rerender(<PieChart data={small} index="name" value="v" valueFormatter={formatter} />);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
