export type { ChartSvgOptions } from "./chart-svg";
export { chartSvg, chartThemes } from "./chart-svg";
