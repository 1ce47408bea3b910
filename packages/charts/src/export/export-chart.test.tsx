import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { BarChart } from "../bar-chart";
import { LineChart } from "../line-chart";
import { exportChart, exportChartCsv } from "./export-chart";

function walk(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    t: i,
    up: i * 1.5,
    down: -i,
  }));
}

function csvLines(csv: string): string[] {
  return csv.split("\r\n").filter((line) => line !== "");
}

describe("exportChartCsv", () => {
  it("writes every drawn point with raw numbers, headed by the index and series labels", () => {
    const { container } = render(
      <LineChart
        data={walk(2000)}
        index="t"
        series={["up", { key: "down", label: "Down, net" }]}
        width={600}
        valueFormatter={(v) => `$${v.toFixed(2)}`}
      />,
    );

    const lines = csvLines(exportChartCsv(container));

    expect(lines[0]).toBe('t,up,"Down, net"');
    expect(lines[1]).toBe("0,0,0");
    expect(lines[lines.length - 1]).toBe("1999,2998.5,-1999");
    // downsampled to about the plot's width: more than the 200-row screen-reader table
    expect(lines.length - 1).toBeGreaterThan(200);
    expect(lines.length - 1).toBeLessThan(2000);
  });

  it("leaves out series hidden in the legend and writes dates as ISO days", async () => {
    const rows = [
      { day: "2024-01-01", a: 1, b: 2 },
      { day: "2024-01-02", a: 3, b: null },
    ];
    const { container } = render(
      <LineChart data={rows} index="day" series={["a", "b"]} width={600} />,
    );

    await userEvent.click(screen.getByRole("button", { name: "a" }));

    expect(csvLines(exportChartCsv(container))).toEqual(["day,b", "2024-01-01,2", "2024-01-02,"]);
  });

  it("keeps category names from running as spreadsheet formulas", () => {
    const rows = [
      { name: "=HYPERLINK(1)", v: 1 },
      { name: "@home", v: -2 },
    ];
    const { container } = render(<BarChart data={rows} index="name" series={["v"]} width={600} />);

    expect(csvLines(exportChartCsv(container))).toEqual([
      "name,v",
      "'=HYPERLINK(1),1",
      "'@home,-2",
    ]);
  });

  it("fails with a clear message before the ref is attached", () => {
    expect(() => exportChartCsv({ current: null })).toThrow(/not attached/);
  });
});

describe("exportChart as SVG", () => {
  it("is standalone SVG markup with the theme resolved and the legend drawn", async () => {
    const { container } = render(
      <LineChart data={walk(10)} index="t" series={["up", "down"]} width={600} height={200} />,
    );

    const blob = await exportChart(container, { format: "svg" });
    const svg = await blob.text();

    expect(blob.type).toBe("image/svg+xml");
    expect(svg).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).not.toContain("var(--seed-chart");
    expect(svg).toContain(">down</text>");
  });
});
