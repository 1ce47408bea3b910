import { type ReactNode, useRef, useState } from "react";
import { useIsomorphicLayoutEffect } from "../parts/environment";

/** Below this scale the full total reads too small; its compact form ("1.2M") is shown instead. */
const MIN_FULL_SCALE = 0.7;

/** Largest text width (px) that fits a hole of this radius: the chord two fifths of the way out. */
export function holeTextWidth(innerRadius: number): number {
  return 2 * Math.sqrt(Math.max(0, innerRadius ** 2 - (innerRadius * 0.4) ** 2)) * 0.9;
}

/** How to draw a text of `width` px in `room` px: the scale, and whether to use the shorter form. */
export function fitText(width: number, room: number, hasShorter: boolean) {
  if (width <= room || width === 0) return { scale: 1, shorter: false };
  const scale = room / width;
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

/** The donut's centre: the total and its caption, measured and scaled (or shortened) to fit the hole. */
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
  const room = holeTextWidth(innerRadius);
  const value = fit.shorter ? compactTotal : total;

  useIsomorphicLayoutEffect(() => {
    const text = ref.current;
    if (!text || typeof text.getBBox !== "function") return;
    // measure at scale 1 in the full form; the transform below does not change getBBox
    const width = text.getBBox().width;
    const next = fit.shorter
      ? { scale: Math.min(1, width > 0 ? room / width : 1), shorter: true }
      : fitText(width, room, compactTotal !== total);
    if (next.scale !== fit.scale || next.shorter !== fit.shorter) setFit(next);
  }, [room, total, compactTotal, caption, custom, fit]);

  return (
    <text
      ref={ref}
      x={cx}
      y={cy}
      textAnchor="middle"
      className="seed-chart-center-label"
      transform={
        fit.scale < 1
          ? `translate(${cx} ${cy}) scale(${fit.scale}) translate(${-cx} ${-cy})`
          : undefined
      }
    >
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
  );
}
