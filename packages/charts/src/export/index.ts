export type { CsvCell } from "./csv";
export { csvField, toCsv } from "./csv";
export type { ExportChartOptions } from "./export-chart";
export { downloadFile, exportChart, exportChartCsv } from "./export-chart";
export type { ChartTarget } from "./find-chart";
