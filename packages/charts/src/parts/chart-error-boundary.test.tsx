import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
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
      emptyMessage="No data"
      emptyReason={null}
      legendPosition={false}
      legend={null}
      height={100}
      aspectRatio={undefined}
      width={200}
      initialWidth={200}
      className={undefined}
      style={undefined}
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
