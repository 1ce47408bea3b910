import { type ReactNode, useRef, useState } from "react";
import { useIsomorphicLayoutEffect } from "../parts/environment";

/** Below this scale the full total reads too small; its compact form ("1.2M") is shown instead. */
const MIN_FULL_SCALE = 0.7;

/** Share of the hole's radius the text may reach: a little air inside the ring. */
const HOLE_ROOM = 0.92;

/** Distance from the centre to the farthest corner of a text's box: all of it is inside a circle that large. */
export function textExtent(
  box: { x: number; y: number; width: number; height: number },
  cx: number,
  cy: number,
): number {
  const dx = Math.max(Math.abs(box.x - cx), Math.abs(box.x + box.width - cx));
  const dy = Math.max(Math.abs(box.y - cy), Math.abs(box.y + box.height - cy));
  return Math.hypot(dx, dy);
}

/**
 * How to draw a text reaching `extent` px from the centre in a hole of `room` px radius: the
 * scale (about the centre), and whether to use the shorter form.
 */
export function fitText(extent: number, room: number, hasShorter: boolean) {
  if (extent <= room || extent === 0) return { scale: 1, shorter: false };
  const scale = Math.max(0, room) / extent;
  return scale < MIN_FULL_SCALE && hasShorter
    ? { scale: 1, shorter: true }
    : { scale, shorter: false };
}

interface CenterLabelProps {
  cx: number;
  cy: number;
  innerRadius: number;
  /** Custom centre content, drawn as given and scaled to fit. */
  custom: ReactNode | null;
  total: string;
  /** The total in compact notation, used when the full one would shrink too far. */
  compactTotal: string;
  caption: string;
}

/** The donut's centre: the total and its caption, measured and scaled (or shortened) so that its whole box is inside the hole. */
export function CenterLabel({
  cx,
  cy,
  innerRadius,
  custom,
  total,
  compactTotal,
  caption,
}: CenterLabelProps) {
  const ref = useRef<SVGTextElement | null>(null);
  const [fit, setFit] = useState({ scale: 1, shorter: false });
  const room = innerRadius * HOLE_ROOM;
  const value = fit.shorter ? compactTotal : total;

  // what was last measured: each content is measured once, since a text's box wobbles by a
  // few percent with its scale (font hinting), and re-measuring after scaling never settled
  const measured = useRef<readonly unknown[]>([]);
  useIsomorphicLayoutEffect(() => {
    const text = ref.current;
    if (!text || typeof text.getBBox !== "function") return;
    const inputs = [fit.shorter, room, cx, cy, total, compactTotal, caption, custom];
    if (inputs.every((input, i) => Object.is(input, measured.current[i]))) return;
    measured.current = inputs;
    // the scale sits on the parent <g>, so this is the text's own size
    const extent = textExtent(text.getBBox(), cx, cy);
    const next = fit.shorter
      ? { scale: Math.min(1, extent > 0 ? room / extent : 1), shorter: true }
      : fitText(extent, room, compactTotal !== total);
    if (next.scale !== fit.scale || next.shorter !== fit.shorter) setFit(next);
  });

  return (
    <g
      transform={
        fit.scale < 1
          ? `translate(${cx} ${cy}) scale(${fit.scale}) translate(${-cx} ${-cy})`
          : undefined
      }
    >
      <text ref={ref} x={cx} y={cy} textAnchor="middle" className="seed-chart-center-label">
        {custom ?? (
          <>
            <tspan x={cx} dy="-0.1em" className="seed-chart-center-label-value">
              {value}
            </tspan>
            <tspan x={cx} dy="1.6em" className="seed-chart-center-label-caption">
              {caption}
            </tspan>
          </>
        )}
        {fit.shorter ? <title>{total}</title> : null}
      </text>
    </g>
  );
}
