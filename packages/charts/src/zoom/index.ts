export type { ZoomLayerProps } from "../parts/cartesian-types";
export { BrushZoom, scaleRange } from "./brush-zoom";
