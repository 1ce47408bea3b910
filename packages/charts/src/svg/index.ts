export type { ChartSvgOptions } from "./chart-svg";
export { chartSvg } from "./chart-svg";
