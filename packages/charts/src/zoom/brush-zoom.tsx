import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useActiveTooltipLabel, usePlotArea, useXAxisInverseScale } from "recharts";
import type { ZoomLayer, ZoomLayerProps } from "../parts/cartesian-types";
import { sliceFrame } from "./slice-frame";

/** Drags narrower than this many px are clicks (they report a point), not zooms. */
const MIN_DRAG = 8;

/** `range` scaled by `factor` around `centre`, kept inside `extent`; null when it covers it all. */
export function scaleRange(
  range: readonly [number, number],
  centre: number,
  factor: number,
  extent: readonly [number, number],
): [number, number] | null {
  const from = Math.max(extent[0], centre - (centre - range[0]) * factor);
  const to = Math.min(extent[1], centre + (range[1] - centre) * factor);
  return from <= extent[0] && to >= extent[1] ? null : [from, to];
}

/** The drag, keys and reset button of `BrushZoom` (below). */
function BrushZoomLayer({ range, onRange, extent }: ZoomLayerProps) {
  const anchor = useRef<SVGGElement | null>(null);
  const [host, setHost] = useState<HTMLElement | null>(null);
  const [drag, setDrag] = useState<[number, number] | null>(null);
  const plot = usePlotArea();
  const invert = useXAxisInverseScale();
  const activeLabel = useActiveTooltipLabel();
  // the latest values for the listeners below, which live as long as the chart
  const latest = useRef({ plot, invert, range, extent, activeLabel, onRange });
  latest.current = { plot, invert, range, extent, activeLabel, onRange };

  useEffect(() => {
    setHost(anchor.current?.closest<HTMLElement>(".recharts-wrapper") ?? null);
  }, []);

  useEffect(() => {
    if (!host) return;
    let start: number | null = null;
    const toPlotX = (event: PointerEvent) => {
      const area = latest.current.plot;
      const x = event.clientX - host.getBoundingClientRect().left;
      return area ? Math.min(area.x + area.width, Math.max(area.x, x)) : x;
    };
    const down = (event: PointerEvent) => {
      const area = latest.current.plot;
      const x = event.clientX - host.getBoundingClientRect().left;
      if (event.button !== 0 || !area || x < area.x || x > area.x + area.width) return;
      start = x;
    };
    const move = (event: PointerEvent) => {
      if (start !== null) setDrag([start, toPlotX(event)]);
    };
    const up = (event: PointerEvent) => {
      if (start === null) return;
      const from = Math.min(start, toPlotX(event));
      const to = Math.max(start, toPlotX(event));
      start = null;
      setDrag(null);
      const { invert: toValue, onRange: set } = latest.current;
      if (to - from >= MIN_DRAG && toValue) set([Number(toValue(from)), Number(toValue(to))]);
    };
    const key = (event: KeyboardEvent) => {
      const { range: current, extent: all, activeLabel: label, onRange: set } = latest.current;
      const shown = current ?? all;
      const active = Number(label);
      const centre =
        label !== undefined && active >= shown[0] && active <= shown[1]
          ? active
          : (shown[0] + shown[1]) / 2;
      if (event.key === "+" || event.key === "=") set(scaleRange(shown, centre, 0.5, all));
      else if (event.key === "-") set(scaleRange(shown, centre, 2, all));
      else if (event.key === "0") set(null);
      else return;
      event.preventDefault();
    };
    const surface = host.querySelector("svg.recharts-surface");
    surface?.setAttribute("aria-keyshortcuts", "+ - 0");
    surface?.setAttribute(
      "aria-description",
      "Drag across the plot or press plus and minus to zoom, 0 to reset.",
    );
    host.addEventListener("pointerdown", down);
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    host.addEventListener("keydown", key);
    return () => {
      host.removeEventListener("pointerdown", down);
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      host.removeEventListener("keydown", key);
    };
  }, [host]);

  return (
    <g ref={anchor} className="seed-chart-zoom">
      {drag && plot ? (
        <rect
          className="seed-chart-zoom-selection"
          x={Math.min(drag[0], drag[1])}
          y={plot.y}
          width={Math.abs(drag[1] - drag[0])}
          height={plot.height}
        />
      ) : null}
      {range && host
        ? createPortal(
            <button type="button" className="seed-chart-zoom-reset" onClick={() => onRange(null)}>
              Reset zoom
            </button>,
            host,
          )
        : null}
    </g>
  );
}

/**
 * Drag-to-zoom for LineChart and AreaChart: `<LineChart zoom={BrushZoom} />`. Drag across the
 * plot to show that x range (downsampled again, so zooming in reveals detail); "Reset zoom"
 * shows everything. Keyboard, with the plot focused: + zooms in around the active point (or the
 * middle), - zooms out, 0 resets.
 */
export const BrushZoom: ZoomLayer = Object.assign(BrushZoomLayer, { slice: sliceFrame });
