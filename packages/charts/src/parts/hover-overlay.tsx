import { type ReactNode, useEffect, useRef, useState } from "react";
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

/** Pointer types that never hover: a tap or drag shows the tooltip where it lands. */
function isTouchLike(event: PointerEvent): boolean {
  return event.pointerType === "touch" || event.pointerType === "pen";
}

/**
 * Lives inside a Recharts chart and keeps its tooltip honest about the pointer:
 * - after a mount or a change of `drawn` under a resting pointer, the hover state is cleared and
 *   the browser's boundary events (sent on layout, with no move) open nothing until the pointer
 *   really moves, presses or a key is pressed: no tooltip from values nobody pointed at;
 * - a touch or pen press, or drag, on the plot shows the tooltip at the nearest x (Recharts
 *   itself follows only mouse moves and touchmove).
 * - the tooltip (`children`) mounts on the first interaction: a chart nobody touches never pays
 *   for it (Recharts measures its box at mount, forcing a layout). One render, once.
 */
export function PointerGate({
  drawn,
  eager,
  children,
}: {
  drawn: unknown;
  /** Mount `children` at once instead of on the first pointer, touch, key or focus. */
  eager: boolean;
  /** The tooltip: mounted only once someone interacts, so a chart's first paint skips its cost. */
  children: ReactNode;
}) {
  const anchor = useRef<SVGGElement | null>(null);
  const resting = useRef(true);
  const seen = useRef(drawn);
  const [interacted, setInteracted] = useState(eager);

  useEffect(() => {
    const host = anchor.current?.closest(".recharts-wrapper");
    if (!(host instanceof HTMLElement)) return;
    const mount = () => setInteracted(true);
    const wake = () => {
      resting.current = false;
      mount();
    };
    // React derives mouseenter from mouseover in the bubble phase: stopped here, Recharts never sees it
    const blockBoundary = (event: MouseEvent) => {
      if (resting.current) event.stopPropagation();
    };
    const touch = (event: PointerEvent) => {
      if (!isTouchLike(event)) return;
      wake();
      // Recharts reads the position from a mouse move on its wrapper
      host.dispatchEvent(
        new MouseEvent("mousemove", {
          bubbles: true,
          clientX: event.clientX,
          clientY: event.clientY,
          screenX: event.screenX,
          screenY: event.screenY,
        }),
      );
    };
    host.addEventListener("mouseover", blockBoundary, true);
    host.addEventListener("mousemove", wake, true);
    host.addEventListener("mousedown", wake, true);
    host.addEventListener("keydown", wake, true);
    host.addEventListener("focusin", mount);
    host.addEventListener("pointerdown", touch);
    host.addEventListener("pointermove", touch);
    return () => {
      host.removeEventListener("mouseover", blockBoundary, true);
      host.removeEventListener("mousemove", wake, true);
      host.removeEventListener("mousedown", wake, true);
      host.removeEventListener("keydown", wake, true);
      host.removeEventListener("focusin", mount);
      host.removeEventListener("pointerdown", touch);
      host.removeEventListener("pointermove", touch);
    };
  }, []);

  useIsomorphicLayoutEffect(() => {
    if (seen.current === drawn) return;
    seen.current = drawn;
    resting.current = true;
    const host = anchor.current?.closest(".recharts-wrapper");
    // a leave as React sees it (out of the wrapper into its parent) clears Recharts' hover state
    host?.dispatchEvent(
      new MouseEvent("mouseout", { bubbles: true, relatedTarget: host.parentElement }),
    );
  }, [drawn]);

  return (
    <>
      <g ref={anchor} className="seed-chart-pointer-gate" />
      {interacted ? children : null}
    </>
  );
}
