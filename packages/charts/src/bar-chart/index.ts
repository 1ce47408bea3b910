export type { BarChartProps } from "./bar-chart";
export { BarChart } from "./bar-chart";
