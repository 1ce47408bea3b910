export type { ScatterXKind } from "./prepare";
export type { ScatterChartProps } from "./scatter-chart";
export { ScatterChart } from "./scatter-chart";
