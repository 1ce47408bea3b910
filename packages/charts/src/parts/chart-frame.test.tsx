import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LineChart } from "../line-chart";
import { PieChart } from "../pie-chart";
import { fakeReducedMotion } from "../testing/motion";

function rows() {
  return [
    { x: 1, v: 3 },
    { x: 2, v: 5 },
    { x: 3, v: 4 },
  ];
}

function fakeWidth(width: number) {
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (
    this: HTMLElement,
  ) {
    const w = this.classList.contains("seed-chart-plot") ? width : 0;
    return { width: w, height: 0, top: 0, left: 0, right: w, bottom: 0, x: 0, y: 0 } as DOMRect;
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("chart sizing", () => {
  it("fills its container's measured width", () => {
    fakeWidth(900);

    const { container } = render(<LineChart data={rows()} index="x" series={["v"]} height={250} />);

    const wrapper = container.querySelector(".recharts-wrapper") as HTMLElement;
    expect(wrapper.style.width).toBe("900px");
    expect(wrapper.style.height).toBe("250px");
  });

  it("derives the height from an aspect ratio", () => {
    fakeWidth(800);

    const { container } = render(
      <LineChart data={rows()} index="x" series={["v"]} aspectRatio={2} />,
    );

    expect((container.querySelector(".recharts-wrapper") as HTMLElement).style.height).toBe(
      "400px",
    );
    expect(container.querySelector(".seed-chart-plot")).toHaveStyle({ aspectRatio: "2" });
  });
});

describe("motion", () => {
  it("animates by default and not under prefers-reduced-motion", () => {
    const dashOf = (reduce: boolean) => {
      fakeReducedMotion(reduce);
      const { container, unmount } = render(
        <LineChart data={rows()} index="x" series={["v"]} width={500} />,
      );
      const dash = container
        .querySelector(".recharts-line-curve")
        ?.getAttribute("stroke-dasharray");
      unmount();
      vi.restoreAllMocks();
      return dash ?? null;
    };

    expect(dashOf(false)).not.toBeNull();
    expect(dashOf(true)).toBeNull();
  });
});

describe("data issues on screen (issue 11)", () => {
  it("lists skipped and changed values under the plot, not only through onDataIssues", async () => {
    const onDataIssues = vi.fn();
    const { container } = render(
      <LineChart
        data={[
          { x: 1, v: 3 },
          { x: 2, v: "abc" },
          { x: 3, v: Number.MAX_VALUE },
          { x: 4, v: 4 },
        ]}
        index="x"
        series={["v"]}
        width={500}
        onDataIssues={onDataIssues}
      />,
    );

    const note = container.querySelector(".seed-chart-issues") as HTMLElement;
    expect(onDataIssues).toHaveBeenCalledTimes(1);
    const count = ((onDataIssues.mock.calls[0] ?? [])[0] as unknown[]).length;
    expect(within(note).getByText(new RegExp(`^${count} data issues`))).toBeVisible();
    expect(note).toHaveTextContent(/row 2 \(v\)/);
    expect(note).toHaveTextContent(/too large to draw/);
    // a native disclosure: keyboard reachable, opens to the reasons
    await userEvent.click(within(note).getByText(/data issues/));
    expect(note).toHaveAttribute("open");
  });

  it("shows the reasons beside the empty state and for a pie", () => {
    const { container } = render(
      <PieChart data={[{ n: "a", v: -5 }]} index="n" value="v" width={300} />,
    );

    expect(screen.getByTestId("seed-chart-empty")).toBeInTheDocument();
    expect(container.querySelector(".seed-chart-issues")).toHaveTextContent(/^1 data issue:/);
  });

  it("shows no note for clean data", () => {
    const { container } = render(<LineChart data={rows()} index="x" series={["v"]} width={500} />);

    expect(container.querySelector(".seed-chart-issues")).toBeNull();
  });
});
