import { useEffect, useRef } from "react";
import {
  useActiveTooltipCoordinate,
  useActiveTooltipDataPoints,
  useIsTooltipActive,
  usePlotArea,
  useYAxisScale,
} from "recharts";
import { useIsomorphicLayoutEffect } from "./environment";

export interface OverlaySeries {
  dataKey: string;
  color: string;
}

interface OverlayNodes {
  root: HTMLDivElement;
  line: HTMLDivElement;
  dots: HTMLDivElement[];
}

function createNodes(host: Element, count: number): OverlayNodes {
  const root = document.createElement("div");
  root.className = "seed-chart-hover-layer";
  root.setAttribute("aria-hidden", "true");
  const line = document.createElement("div");
  line.className = "seed-chart-crosshair";
  const dots = Array.from({ length: count }, () => {
    const dot = document.createElement("div");
    dot.className = "seed-chart-hover-dot";
    return dot;
  });
  root.append(line, ...dots);
  host.append(root);
  return { root, line, dots };
}

/**
 * The crosshair and the active points' dots as HTML layers over the plot, moved by transforms:
 * a hover then re-rasterises neither the lines nor the axes (a 1M-point chart's SVG took ~6 ms
 * to repaint per move). Lives inside the Recharts chart; renders one empty, never-changing <g>.
 * Use with `<Tooltip cursor={false}>` and `activeDot={false}` on the series it covers.
 */
export function HoverOverlay({ series }: { series: readonly OverlaySeries[] }) {
  const anchor = useRef<SVGGElement | null>(null);
  const nodes = useRef<OverlayNodes | null>(null);
  const active = useIsTooltipActive();
  const coordinate = useActiveTooltipCoordinate();
  const points = useActiveTooltipDataPoints<Record<string, unknown>>();
  const plot = usePlotArea();
  const yScale = useYAxisScale();
  const seriesSignature = series.map((s) => s.dataKey).join("\u0000");

  useEffect(() => {
    const host = anchor.current?.closest(".recharts-wrapper");
    if (!host || seriesSignature === "") return;
    const created = createNodes(host, seriesSignature.split("\u0000").length);
    nodes.current = created;
    return () => {
      created.root.remove();
      nodes.current = null;
    };
  }, [seriesSignature]);

  useIsomorphicLayoutEffect(() => {
    const current = nodes.current;
    if (!current) return;
    const row = points?.[0];
    const shown = active && coordinate !== undefined && plot !== undefined && row !== undefined;
    current.root.style.visibility = shown ? "visible" : "hidden";
    if (!shown) return;
    const x = coordinate.x;
    current.line.style.height = `${plot.height}px`;
    current.line.style.transform = `translate(${x}px, ${plot.y}px)`;
    series.forEach((s, i) => {
      const dot = current.dots[i];
      if (!dot) return;
      const value = row[s.dataKey];
      const y = typeof value === "number" && yScale ? yScale(value) : undefined;
      if (y === undefined || !Number.isFinite(y)) {
        dot.style.visibility = "hidden";
        return;
      }
      dot.style.visibility = "";
      dot.style.background = s.color;
      dot.style.transform = `translate(${x}px, ${y}px)`;
    });
  });

  return <g ref={anchor} className="seed-chart-hover-anchor" />;
}
