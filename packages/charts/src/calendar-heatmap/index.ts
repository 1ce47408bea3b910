export type { CalendarHeatmapProps } from "./calendar-heatmap";
export { CalendarHeatmap } from "./calendar-heatmap";
