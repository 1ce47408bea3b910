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
