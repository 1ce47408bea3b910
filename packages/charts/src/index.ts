export type { AreaChartProps, AreaCurveType } from "./area-chart";
export { AreaChart } from "./area-chart";
export type { BarChartProps } from "./bar-chart";
export { BarChart } from "./bar-chart";
export type { CalendarHeatmapProps } from "./calendar-heatmap";
export { CalendarHeatmap } from "./calendar-heatmap";
export type { ComboChartProps, ComboSeries, ComboSeriesConfig } from "./combo-chart";
export { ComboChart } from "./combo-chart";
export type {
  ColumnData,
  DataIssue,
  DownsampleMethod,
  IndexKind,
  RowKey,
  Series,
  SeriesColumns,
  SeriesConfig,
  ValueFormatter,
} from "./data";
export { downsampleLttb, downsampleMinMax, selectLttbIndices, selectMinMaxIndices } from "./data";
export type { CurveType, LineChartProps } from "./line-chart";
export { LineChart } from "./line-chart";
export type { ChartAnnotation, ChartAnnotations } from "./parts/annotations";
export type { CartesianChartProps, ColumnarChartProps } from "./parts/cartesian";
export type { LegendPosition } from "./parts/legend";
export type { ChartTooltipContext, ChartTooltipItem, ChartTooltipRender } from "./parts/tooltip";
export type { PieChartProps } from "./pie-chart";
export { PieChart } from "./pie-chart";
export type { ScatterChartProps, ScatterXKind } from "./scatter-chart";
export { ScatterChart } from "./scatter-chart";
export type { AxisOptions, BaseChartProps, ChartValueEvent, GridLines } from "./types";
