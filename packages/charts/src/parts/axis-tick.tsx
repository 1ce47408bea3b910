import { Text } from "recharts";

/** About 7 px per character of the 12 px axis text: close enough to cut labels to a width. */
export function charsFitting(width: number): number {
  return Math.max(4, Math.floor(width / 7));
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
