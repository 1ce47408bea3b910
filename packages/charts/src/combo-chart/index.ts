export type { ComboChartProps, ComboSeries, ComboSeriesConfig } from "./combo-chart";
export { ComboChart } from "./combo-chart";
