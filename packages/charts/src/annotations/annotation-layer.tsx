import { usePlotArea, useXAxisScale, useYAxisScale } from "recharts";
import type { AnnotationLayerProps, ChartAnnotation, ChartAnnotations } from "../parts/annotations";
import { annotationSpans, placeAnnotations } from "./place";

/**
 * Annotations inside the plot: a dashed line for a moment, a shaded band for a range, each with
 * its label cut to the room before the next one (full text in an SVG title). Hidden from screen
 * readers: the data table and the tooltip carry the same text.
 */
export function AnnotationLayer({ placed, vertical }: AnnotationLayerProps) {
  const plot = usePlotArea();
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const scale = vertical ? yScale : xScale;
  if (!plot || !scale || placed.length === 0) return null;
  const start = vertical ? plot.y : plot.x;
  const length = vertical ? plot.height : plot.width;
  const spans = annotationSpans(
    placed,
    (value, where) => scale(value, { position: where }),
    start,
    length,
    vertical,
  );
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG group is never focusable
    <g className="seed-chart-annotations" aria-hidden="true">
      {spans.map(({ annotation, low, high, band, text }, i) => (
        <g
          // biome-ignore lint/suspicious/noArrayIndexKey: two annotations may share a label
          key={i}
          className="seed-chart-annotation"
          style={annotation.color ? { color: annotation.color } : undefined}
        >
          <title>{annotation.label}</title>
          {band ? (
            vertical ? (
              <rect x={plot.x} y={low} width={plot.width} height={high - low} />
            ) : (
              <rect x={low} y={plot.y} width={high - low} height={plot.height} />
            )
          ) : vertical ? (
            <line x1={plot.x} x2={plot.x + plot.width} y1={low} y2={low} />
          ) : (
            <line x1={low} x2={low} y1={plot.y} y2={plot.y + plot.height} />
          )}
          {text !== null ? (
            <text
              x={vertical ? plot.x + plot.width - 4 : low + 3}
              y={vertical ? low - 3 : plot.y + 11}
              textAnchor={vertical ? "end" : "start"}
            >
              {text}
            </text>
          ) : null}
        </g>
      ))}
    </g>
  );
}

/**
 * Annotations for a line, area or bar chart's `annotations` prop: markers (`{ at, label }`) and
 * bands (`{ at, to, label }`) on the index axis. Their own entry, so charts without annotations
 * carry none of the drawing code.
 */
export function annotate(items: readonly ChartAnnotation[]): ChartAnnotations {
  return {
    items,
    place(drawn, kind, bandAxis, vertical) {
      const placement = placeAnnotations(drawn, items, kind, bandAxis);
      return {
        ...placement,
        layer: <AnnotationLayer placed={placement.placed} vertical={vertical} />,
      };
    },
  };
}
