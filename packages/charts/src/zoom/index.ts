export type { ZoomLayer, ZoomLayerProps } from "../parts/cartesian-types";
export { BrushZoom, scaleRange } from "./brush-zoom";
export { sliceFrame } from "./slice-frame";
