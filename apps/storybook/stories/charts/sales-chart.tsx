import { LineChart } from "@seed/charts";
import { monthlySales } from "./data";

/** The monthly revenue and cost line chart, still (no animation), for interaction stories. */
export function SalesLineChart({ width, height = 240 }: { width?: number; height?: number }) {
  return (
    <LineChart
      data={monthlySales()}
      index="month"
      series={["revenue", { key: "cost", label: "Cost" }]}
      title="Revenue and cost per month"
      locale="en-US"
      height={height}
      width={width}
      animate={false}
    />
  );
}
