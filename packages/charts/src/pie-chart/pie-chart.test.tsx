import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { expectDrawsAnyRows } from "../testing/random-rows";
import { PieChart, type PieChartProps } from "./pie-chart";

interface ShareRow {
  browser: string;
  visits: number;
}

function shareRows(): ShareRow[] {
  return [
    { browser: "Chrome", visits: 600 },
    { browser: "Safari", visits: 300 },
    { browser: "Firefox", visits: 70 },
    { browser: "Edge", visits: 20 },
    { browser: "Opera", visits: 10 },
  ];
}

/** The share rows by browser at 500 px, unanimated; each test adds the props it is about. */
function renderShares(props: Partial<PieChartProps<ShareRow>> = {}) {
  return render(
    <PieChart
      data={shareRows()}
      index="browser"
      value="visits"
      width={500}
      animate={false}
      {...props}
    />,
  );
}

describe("PieChart", () => {
  it("draws one slice per row with percent labels", () => {
    const { container } = renderShares({ otherThreshold: 0 });

    expect(container.querySelectorAll(".recharts-pie-sector")).toHaveLength(5);
    const labels = Array.from(container.querySelectorAll(".recharts-pie-label-text")).map(
      (n) => n.textContent,
    );
    expect(labels[0]).toBe("60%");
  });

  it("groups small slices into Other", () => {
    renderShares({ otherThreshold: 0.05 });

    const legend = screen.getByRole("list", { name: /legend/i });
    expect(
      within(legend)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Chrome", "Safari", "Firefox", "Other"]);
  });

  it("shows the total in the centre of a donut", () => {
    const { container } = renderShares({ variant: "donut", locale: "en-US" });

    const centre = container.querySelector(".seed-chart-center-label");
    expect(centre).toHaveTextContent("1,000");
    expect(centre).toHaveTextContent("Total");
  });

  it("takes a custom centre label", () => {
    const { container } = renderShares({
      variant: "donut",
      centerLabel: (_total, formatted) => `${formatted} visits`,
    });

    expect(container.querySelector(".seed-chart-center-label")).toHaveTextContent("1,000 visits");
  });

  it("hides a slice from the legend and recomputes the total", async () => {
    const user = userEvent.setup();
    const { container } = renderShares({ variant: "donut", otherThreshold: 0 });

    await user.click(screen.getByRole("button", { name: "Chrome" }));

    expect(container.querySelectorAll(".recharts-pie-sector")).toHaveLength(4);
    expect(container.querySelector(".seed-chart-center-label")).toHaveTextContent("400");
  });

  it("dims the other slices while a legend item is hovered", async () => {
    const user = userEvent.setup();
    const { container } = renderShares({ otherThreshold: 0 });

    await user.hover(screen.getByRole("button", { name: "Safari" }));

    const opacities = Array.from(container.querySelectorAll(".recharts-pie-sector path")).map((p) =>
      p.getAttribute("fill-opacity"),
    );
    expect(opacities).toEqual(["0.3", "1", "0.3", "0.3", "0.3"]);
  });

  it("shows the slice in a tooltip on hover", async () => {
    const { container } = renderShares({
      value: { key: "visits", label: "Visits" },
      otherThreshold: 0,
    });

    fireEvent.mouseEnter(container.querySelectorAll(".recharts-pie-sector path")[0] as Element);

    await waitFor(() =>
      expect(container.querySelector(".seed-chart-tooltip")).toHaveTextContent(
        "ChromeVisits600 (60%)",
      ),
    );
  });

  it("reports the clicked slice with its row", async () => {
    const onValueChange = vi.fn();
    const { container } = renderShares({ otherThreshold: 0, onValueChange });

    fireEvent.click(container.querySelectorAll(".recharts-pie-sector path")[1] as Element);

    await waitFor(() =>
      expect(onValueChange).toHaveBeenCalledWith({
        row: shareRows()[1],
        rowIndex: 1,
        seriesKey: "visits",
        value: 300,
      }),
    );
  });

  it("reports every row of a grouped Other slice", async () => {
    const onValueChange = vi.fn();
    const { container } = renderShares({ otherThreshold: 0.05, onValueChange });

    fireEvent.click(container.querySelectorAll(".recharts-pie-sector path")[3] as Element);

    await waitFor(() =>
      expect(onValueChange).toHaveBeenCalledWith({
        row: shareRows()[3],
        rowIndex: 3,
        rowIndexes: [3, 4],
        seriesKey: "visits",
        value: 30,
      }),
    );
  });

  it("with onLegendSelect, pressing an entry selects its slice by name", async () => {
    const onLegendSelect = vi.fn();
    const { container } = renderShares({ otherThreshold: 0, onLegendSelect });

    await userEvent.setup().click(screen.getByRole("button", { name: "Safari" }));

    expect(onLegendSelect).toHaveBeenCalledWith("Safari");
    expect(container.querySelectorAll(".recharts-pie-sector")).toHaveLength(5);
  });

  it("skips negative values and warns naming the row", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const rows = [...shareRows(), { browser: "Broken", visits: -5 }];

    const { container } = renderShares({ data: rows, otherThreshold: 0 });

    expect(container.querySelectorAll(".recharts-pie-sector")).toHaveLength(5);
    expect(String(warn.mock.calls[0]?.[0])).toContain("row 5 (visits): negative value -5");
    warn.mockRestore();
  });

  it("shows the empty state when the total is zero", () => {
    const rows = shareRows().map((row) => ({ ...row, visits: 0 }));

    renderShares({ data: rows });

    expect(screen.getByTestId("seed-chart-empty")).toHaveTextContent("All values are zero");
  });

  it("describes itself and lists the slices in a hidden table", () => {
    renderShares({ otherThreshold: 0, locale: "en-US" });

    expect(screen.getByRole("figure")).toHaveAccessibleDescription(
      "Pie chart of visits by browser: 5 slices totalling 1,000; the largest is Chrome at 60%.",
    );
    expect(
      within(screen.getByRole("table")).getByRole("row", { name: /Safari/ }),
    ).toHaveTextContent("30%");
  });

  it("shows a skeleton while loading", () => {
    render(<PieChart data={shareRows()} index="browser" value="visits" loading />);

    expect(screen.getByTestId("seed-chart-skeleton")).toBeInTheDocument();
  });

  it("never throws on random rows", () => {
    const value = fc.oneof(
      fc.double(),
      fc.integer({ min: -5, max: 50 }),
      fc.string({ maxLength: 3 }),
      fc.constant(null),
    );
    expectDrawsAnyRows(
      fc.array(fc.record({ n: fc.string({ maxLength: 3 }), v: value }), { maxLength: 15 }),
      (rows) => <PieChart data={rows} index="n" value="v" width={300} variant="donut" />,
      20,
    );
  }, 60_000);
});
