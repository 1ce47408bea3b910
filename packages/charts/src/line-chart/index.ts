export type { CurveType, LineChartProps } from "./line-chart";
export { LineChart } from "./line-chart";
