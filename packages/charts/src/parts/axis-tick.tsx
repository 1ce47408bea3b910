import { Text } from "recharts";

/** About 7 px per character of the 12 px axis text: close enough to cut labels to a width. */
export function charsFitting(width: number): number {
  return Math.max(4, Math.floor(width / 7));
}

/**
 * Characters an index axis's labels keep: as many as fit `room` px (a label's share of the axis),
 * and never fewer than 12 (a date such as "Sep 30, 2016"): a narrow axis shows fewer labels, each
 * whole, rather than cut ones ("Jan 2…" at a phone's width).
 */
export function indexLabelChars(room: number): number {
  return Math.max(12, charsFitting(room - 8));
}

/** `label` cut to `maxChars` with an ellipsis, or as it is when it fits. */
export function shorten(label: string, maxChars: number): string {
  return label.length > maxChars ? `${label.slice(0, maxChars - 1).trimEnd()}…` : label;
}

/**
 * An index axis tick that shows `shorten(format(value))`; a cut label keeps its full text in an
 * SVG <title>: the browser's tooltip on hover and the tick's accessible name. Recharts calls
 * it as a render function (not a component), once per tick.
 */
export function shortTick(format: (value: number | string) => string, maxChars: number) {
  return (props: { payload?: { value?: unknown } } & Record<string, unknown>) => {
    const full = format(props.payload?.value as number | string);
    const short = shorten(full, maxChars);
    return (
      <g>
        {short === full ? null : <title>{full}</title>}
        <Text {...props}>{short}</Text>
      </g>
    );
  };
}

/**
 * Width of a value axis as wide as its longest tick label, estimated while rendering from the
 * labels of `ticks` (about 7 px a character of the 12 px axis text), with room for a tick one or
 * two characters longer (9.8 -> 10) and Recharts' tick line: the chart is drawn once at its
 * final layout instead of measured after a first drawing (Recharts' `width="auto"`).
 */
export function valueAxisWidth(ticks: readonly number[], format: (value: number) => string) {
  return Math.max(...ticks.map((v) => format(v).length)) * 7 + 22;
}

/** Height of an x axis that carries a title under its ticks, px. */
export const TITLED_X_AXIS_HEIGHT = 44;

/**
 * Recharts label props of an axis's title (none without one): under an x axis's ticks, or up the
 * left of a y axis, turned to read bottom to top.
 */
export function axisTitle(label: string | undefined, side: "x" | "y") {
  if (!label) return undefined;
  return side === "x"
    ? { value: label, position: "insideBottom" as const, offset: 0 }
    : { value: label, position: "insideLeft" as const, angle: -90, offset: 10 };
}
