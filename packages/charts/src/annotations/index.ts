export type {
  AnnotationLayerProps,
  ChartAnnotation,
  ChartAnnotations,
  PlacedAnnotation,
} from "../parts/annotations";
export { AnnotationLayer, annotate } from "./annotation-layer";
export { type AnnotationSpan, annotationSpans, placeAnnotations } from "./place";
