export type { CalendarSvgOptions } from "./calendar-svg";
export { calendarSvg } from "./calendar-svg";
export type { ChartSvgOptions } from "./chart-svg";
export { chartSvg, chartThemes } from "./chart-svg";
export type { ScatterSvgOptions } from "./scatter-svg";
export { scatterSvg } from "./scatter-svg";
export type { TableSvgOptions } from "./table-svg";
export { tableSvg } from "./table-svg";
