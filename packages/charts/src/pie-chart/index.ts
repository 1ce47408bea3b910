export type { PieChartProps } from "./pie-chart";
export { PieChart } from "./pie-chart";
