export type { AreaChartProps, AreaCurveType } from "./area-chart";
export { AreaChart } from "./area-chart";
