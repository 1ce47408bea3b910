export type { ColumnData, SeriesColumns } from "./columns";
export { prepareColumnFrame } from "./columns";
export type { DownsampleMethod, SeriesPoint } from "./downsample";
export {
  downsampleLttb,
  downsampleMinMax,
  minMaxLttbRatio,
  selectDrawnPositions,
  selectLttbIndices,
  selectMinMaxIndices,
  selectMinMaxLttbIndices,
} from "./downsample";
export type { IndexKind } from "./format";
export type { PieFrame, PieSlice } from "./pie";
export { preparePieFrame } from "./pie";
export type { CartesianFrame, DataIssue } from "./rows";
export { prepareCartesianFrame } from "./rows";
export type { ResolvedSeries, RowKey, Series, SeriesConfig, ValueFormatter } from "./series";
