import { type ReactNode, type RefObject, useEffect, useRef } from "react";
import { useActiveTooltipDataPoints } from "recharts";
import { useIsomorphicLayoutEffect } from "./environment";

/** One series line in a tooltip. */
export interface ChartTooltipItem {
  key: string;
  label: string;
  color: string;
  value: number | null;
  formattedValue: string;
}

/** What a custom tooltip render prop receives. */
export interface ChartTooltipContext<Row> {
  /** The index value (or slice name), formatted. */
  label: string;
  /** The caller's row behind the point (the first row of an "Other" slice). */
  row: Row;
  /** Position of that row in the caller's data array. */
  rowIndex: number;
  items: ChartTooltipItem[];
}

/** Custom tooltip content; return null to show nothing. */
export type ChartTooltipRender<Row> = (context: ChartTooltipContext<Row>) => ReactNode;

/** Least gap between a tooltip and the window's edge, px. */
const EDGE = 4;
/** Recharts' default offset between the pointer and its tooltip, px. */
const POINTER_OFFSET = 10;

/**
 * Where a box that overflows the window moves to: first flipped to the other side of the pointer,
 * else shifted just inside the edge (a box wider than the window keeps its start edge visible).
 */
export function fitOffset(start: number, size: number, viewport: number): number {
  if (start + size > viewport - EDGE) {
    const flipped = -(size + 2 * POINTER_OFFSET);
    if (start + flipped >= EDGE) return flipped;
    return Math.max(EDGE - start, viewport - EDGE - (start + size));
  }
  return start < EDGE ? EDGE - start : 0;
}

/** Keeps the element inside the window after every render (Recharts moves it on each pointer move). */
function useViewportFit(ref: { current: HTMLElement | null }) {
  const applied = useRef({ x: 0, y: 0 });
  useIsomorphicLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const box = element.getBoundingClientRect();
    // measure where Recharts put it, without our previous correction
    const left = box.left - applied.current.x;
    const top = box.top - applied.current.y;
    const root = document.documentElement;
    const x = fitOffset(left, box.width, root.clientWidth || innerWidth);
    const y = fitOffset(top, box.height, root.clientHeight || innerHeight);
    if (x === applied.current.x && y === applied.current.y) return;
    applied.current = { x, y };
    element.style.translate = x || y ? `${x}px ${y}px` : "";
  });
}

/** Figures whose tooltip a touch outside them dismissed; cleared by the next touch inside. */
const DISMISSED = "data-tooltip-dismissed";
let touchListeners = 0;

function dismissOnTouchOutside(event: PointerEvent) {
  if (event.pointerType === "mouse") return;
  const target = event.target instanceof Node ? event.target : null;
  for (const chart of document.querySelectorAll(".seed-chart")) {
    if (target && chart.contains(target)) chart.removeAttribute(DISMISSED);
    else if (chart.querySelector(".seed-chart-tooltip")) chart.setAttribute(DISMISSED, "");
  }
}

/**
 * Touch: a tap on the plot shows the tooltip (the browser's compatibility mouse events move
 * Recharts' cursor there), a tap anywhere else hides it, since no mouseleave ever comes.
 */
function useTouchDismiss() {
  useEffect(() => {
    if (touchListeners++ === 0) {
      document.addEventListener("pointerdown", dismissOnTouchOutside, true);
    }
    return () => {
      if (--touchListeners === 0) {
        document.removeEventListener("pointerdown", dismissOnTouchOutside, true);
      }
    };
  }, []);
}

/** The default tooltip: a label and one line per series, styled by the theme tokens. */
export function TooltipPanel({
  label,
  items,
}: {
  label: string;
  items: readonly ChartTooltipItem[];
}) {
  const ref = useRef<HTMLDivElement | null>(null);
  useViewportFit(ref);
  useTouchDismiss();
  return (
    <div ref={ref} className="seed-chart-tooltip">
      <p className="seed-chart-tooltip-label">{label}</p>
      <dl className="seed-chart-tooltip-list">
        {items.map((item) => (
          <div key={item.key} className="seed-chart-tooltip-row">
            <dt>
              <span className="seed-chart-tooltip-dot" style={{ background: item.color }} />
              <span>{item.label}</span>
            </dt>
            <dd>{item.formattedValue}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The sentence a screen reader hears for a tooltip. */
export function tooltipSentence(label: string, items: readonly ChartTooltipItem[]): string {
  return `${label}: ${items.map((item) => `${item.label} ${item.formattedValue}`).join(", ")}`;
}

/**
 * Lives inside a Recharts chart: writes the active point's sentence into the live region and
 * remembers the active drawn row (for Enter). Writes the DOM directly so hovering re-renders nothing else.
 */
export function TooltipAnnouncer<Drawn>({
  liveRegion,
  activeRow,
  describe,
}: {
  liveRegion: RefObject<HTMLElement | null>;
  activeRow: { current: Drawn | null };
  describe: (row: Drawn) => string;
}) {
  const points = useActiveTooltipDataPoints<Drawn>();
  const active = points?.[0] ?? null;
  useEffect(() => {
    activeRow.current = active;
    const region = liveRegion.current;
    if (region) region.textContent = active ? describe(active) : "";
  }, [active, activeRow, liveRegion, describe]);
  return null;
}
