import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { BarChart } from "./bar-chart";

interface SalesRow {
  region: string;
  amount: number | null;
  units: number;
}

const rows: SalesRow[] = [
  { region: "North", amount: 1234.5, units: 3 },
  { region: "South", amount: null, units: 5 },
  { region: "East", amount: 150.25, units: 1 },
];

function labels(container: HTMLElement): string[] {
  return Array.from(container.querySelectorAll(".seed-chart-value-label")).map(
    (node) => node.textContent ?? "",
  );
}

describe("BarChart value labels", () => {
  it("writes each value in the chart's locale, and none for a gap", () => {
    const { container } = render(
      <BarChart
        data={rows}
        index="region"
        series={["amount"]}
        width={600}
        locale="de-DE"
        animate={false}
        valueLabels
      />,
    );

    expect(labels(container)).toEqual(["1.234,5", "150,25"]);
  });

  it("uses the series formatter, then the chart's, like the tooltip", () => {
    const { container } = render(
      <BarChart
        data={rows}
        index="region"
        series={[{ key: "units", formatter: (value) => `${value} pcs` }, "amount"]}
        valueFormatter={(value) => `€${value}`}
        stack="stacked"
        width={600}
        animate={false}
        valueLabels
      />,
    );

    expect(labels(container).sort()).toEqual(
      ["1 pcs", "3 pcs", "5 pcs", "€1234.5", "€150.25"].sort(),
    );
  });

  it("draws no labels unless asked", () => {
    const { container } = render(
      <BarChart data={rows} index="region" series={["amount"]} width={600} animate={false} />,
    );

    expect(labels(container)).toEqual([]);
  });
});
